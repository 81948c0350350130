#include "tests/harness/fake_scenarios.h"

#include <new>
#include <stdexcept>

#include "harness/runner/payloads.h"

namespace moq::harness::testing {

namespace {

class FakeCase final : public Case {
 public:
  explicit FakeCase(const FakeBehaviour& b) : b_(b), payloads_(8, 64) {
    held_.reserve(b.allocs_per_round);
    log_.reserve(b.frames_per_round);
  }
  ~FakeCase() override { release(); }

  Status setup() override {
    note("setup");
    if (b_.fail_setup) return Error{0, "fake setup failure"};
    return {};
  }
  void prepare_round(uint64_t round) override {
    note("prepare " + std::to_string(round));
    log_.clear();
    release();
  }
  Status run_round(uint64_t round) override {
    note("run " + std::to_string(round));
    if (static_cast<int64_t>(round) == b_.error_round) return Error{0, "fake round error"};
    if (static_cast<int64_t>(round) == b_.throw_round) throw std::runtime_error("fake throw");
    if (static_cast<int64_t>(round) == b_.bad_alloc_round) throw std::bad_alloc();
    for (uint64_t i = 0; i < b_.allocs_per_round; ++i)
      held_.push_back(new uint8_t[24]);
    uint64_t frames = b_.frames_per_round;
    if (static_cast<int64_t>(round) == b_.bad_delivery_round) --frames;
    for (uint64_t k = 0; k < frames; ++k) {
      uint64_t index = round * 2 + k;
      if (static_cast<int64_t>(round) == b_.bad_hash_round) index += 17;
      log_.record(payloads_.payload(index));
    }
    counts_.streams_opened += 3;
    counts_.wire_bytes += 100 + round;
    counts_.tasks_run += 7;
    return {};
  }
  RoundCheck check_round(uint64_t round) override {
    note("check " + std::to_string(round));
    DeliveryHasher expected;
    for (uint64_t k = 0; k < b_.frames_per_round; ++k)
      expected.add_frame(payloads_.payload(round * 2 + k));
    return {log_.delivery(), expected.result(), {}};
  }
  StackCounts stack_counts() const override { return counts_; }
  void teardown() override { note("teardown"); }

 private:
  void note(std::string s) {
    if (b_.log) b_.log->calls.push_back(std::move(s));
  }
  void release() {
    for (uint8_t* p : held_)
      delete[] p;
    held_.clear();
  }

  FakeBehaviour b_;
  PayloadSource payloads_;
  DeliveryLog log_;
  StackCounts counts_;
  std::vector<uint8_t*> held_;
};

}  // namespace

std::unique_ptr<Case> make_fake_case(const FakeBehaviour& behaviour) {
  return std::make_unique<FakeCase>(behaviour);
}

ScenarioRegistry make_test_registry() {
  ScenarioRegistry r;
  r.set_versions({"moq-lite-06", "moq-lite-07-wip"},
                 {"moq-lite-06", "moq-lite-07-wip", "moq-transport-18"});
  auto fake_factory = [](FakeBehaviour b) {
    return [b](const CaseSpec&) -> Result<std::unique_ptr<Case>> { return make_fake_case(b); };
  };

  ScenarioDef versioned;
  versioned.name = "versioned";
  versioned.summary = "a fake scenario with a version axis";
  versioned.in_default_sweep = true;
  versioned.axes = {
      AxisSpec::version(),
      AxisSpec::integer("publishers", "publishers", 1, 1, 64, {1, 4}),
      AxisSpec::integer("viewers", "viewers", 1, 1, 1024, {1, 16}),
      AxisSpec::choice("mode", "pacing", {"fast", "slow"}),
      AxisSpec::integer("frame_size", "bytes per frame", 64, 1, 4096),
  };
  versioned.axes.back().id_when_default = false;
  versioned.make = fake_factory({});
  (void)r.add(std::move(versioned));

  ScenarioDef plain;
  plain.name = "plain";
  plain.summary = "a fake scenario without a version";
  plain.axes = {AxisSpec::integer("count", "count", 1, 1, 10, {1, 2, 3})};
  plain.make = fake_factory({});
  (void)r.add(std::move(plain));

  ScenarioDef broken;
  broken.name = "broken";
  broken.summary = "delivers the wrong bytes in round index 1";
  FakeBehaviour bad;
  bad.bad_hash_round = 1;
  broken.make = fake_factory(bad);
  (void)r.add(std::move(broken));

  ScenarioDef planted;
  planted.name = "planted_growth";
  planted.summary = "a round allocates n (linear) or n*n/16 (quadratic) times";
  planted.axes = {
      AxisSpec::integer("n", "the size", 16, 1, 4096, {16, 32, 64, 128}),
      AxisSpec::choice("order", "how a round's work grows with n", {"linear", "quadratic"})};
  planted.make = [](const CaseSpec& spec) -> Result<std::unique_ptr<Case>> {
    const auto n = static_cast<uint64_t>(spec.integer("n"));
    FakeBehaviour b;
    b.allocs_per_round = spec.text("order") == "quadratic" ? n * n / 16 : n;
    return make_fake_case(b);
  };
  (void)r.add(std::move(planted));
  return r;
}

}  // namespace moq::harness::testing
