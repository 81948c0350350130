// A scenario for tests of `moqbench explain --allocations`, linked into two test-only builds of
// moqbench (moqbench_alloc_fixture and moqbench_alloc_fixture_more) and into no user's binary:
// model/allocating_round/none, whose measured round allocates in functions of known names, so a
// test can check that explain names them with the right counts and bytes. The two builds differ
// the way two revisions would: the second also allocates in copy_payload_twice.
//
// Set-up and every round allocate; the functions below run in every round, warm-up included, so
// the test also proves that only the measured round is counted (set-up's allocations would show
// as prepare_history's site).
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/runner/registrar.h"

#ifndef MOQ_FIXTURE_MORE_ALLOCATIONS
#error "MOQ_FIXTURE_MORE_ALLOCATIONS must be 0 or 1"
#endif

namespace moq::alloc_fixture {

namespace {

// One allocation of 48 bytes per round.
[[gnu::noinline, gnu::noipa]] void remember_round(std::unique_ptr<uint64_t[]>& kept,
                                                  uint64_t round) {
  kept = std::make_unique<uint64_t[]>(6);
  kept[0] = round;
}

// Two allocations of 256 bytes per round (the second build only).
[[gnu::noinline, gnu::noipa]] void copy_payload_twice(std::unique_ptr<char[]>& a,
                                                      std::unique_ptr<char[]>& b) {
  a = std::make_unique<char[]>(256);
  b = std::make_unique<char[]>(256);
}

// Set-up's allocations: 64 blocks, none of them in a measured round.
[[gnu::noinline, gnu::noipa]] void prepare_history(std::vector<std::unique_ptr<uint64_t[]>>& h) {
  for (int i = 0; i < 64; ++i)
    h.push_back(std::make_unique<uint64_t[]>(4));
}

class AllocatingRound final : public harness::Case {
 public:
  Status setup() override {
    prepare_history(history_);
    return {};
  }
  Status run_round(uint64_t round) override {
    remember_round(kept_, round);
    if (MOQ_FIXTURE_MORE_ALLOCATIONS) copy_payload_twice(a_, b_);
    return {};
  }
  harness::RoundCheck check_round(uint64_t /*round*/) override { return {}; }
  harness::StackCounts stack_counts() const override { return {}; }

 private:
  std::vector<std::unique_ptr<uint64_t[]>> history_;
  std::unique_ptr<uint64_t[]> kept_;
  std::unique_ptr<char[]> a_, b_;
};

harness::ScenarioDef allocating_round_scenario() {
  harness::ScenarioDef def;
  def.name = "allocating_round";
  def.summary = "test fixture: each round allocates in remember_round (and copy_payload_twice)";
  def.make = [](const harness::CaseSpec&) -> Result<std::unique_ptr<harness::Case>> {
    return std::unique_ptr<harness::Case>(new AllocatingRound());
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(allocating_round_scenario);

}  // namespace moq::alloc_fixture
