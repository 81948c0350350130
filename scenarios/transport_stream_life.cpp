// transport_stream_life: the in-memory transport alone (sim/memory), no session. Each round runs
// `streams` whole uni stream lives one after the other: open, accept, finish, read the FIN, drop
// both handles (what every group or fetch stream of a session costs the transport besides its
// data). The per-stream budget (tests/gate/budgets_test.cpp) is (round - empty_round) / streams
// <= 2,000 instructions and at most 2 allocations; stream state is pooled, so it makes none.
#include <memory>
#include <string>

#include "harness/runner/registrar.h"
#include "harness/runner/stack_probe.h"
#include "scenarios/bench_util.h"
#include "sim/memory/transport_ops.h"

namespace moq::scenarios {

namespace {

class TransportStreamLife final : public harness::Case {
 public:
  explicit TransportStreamLife(uint64_t streams) : streams_(streams), bench_(0) {}

  Status setup() override {
    if (!bench_.pair.client) return Error{0, "make_pair failed"};
    log_.reserve(streams_);
    probe_.set_executor(&bench_.ex);
    probe_.watch(*bench_.pair.client);
    probe_.watch(*bench_.pair.server);
    return settle(bench_.ex, "setup");
  }

  void prepare_round(uint64_t /*round*/) override { log_.clear(); }

  Status run_round(uint64_t /*round*/) override {
    for (uint64_t i = 0; i < streams_; ++i) {
      if (!sim::memory::ops::uni_stream_life(*bench_.pair.client, *bench_.pair.server))
        return Error{0, "stream " + std::to_string(i) + ": a step of its life did not go through"};
      log_.record(fin_);  // a stream delivers its FIN and no data: an empty frame
    }
    return settle(bench_.ex, "transport_stream_life round");
  }

  harness::RoundCheck check_round(uint64_t /*round*/) override {
    harness::DeliveryHasher expected;
    for (uint64_t i = 0; i < streams_; ++i)
      expected.add_frame(fin_);
    return {log_.delivery(), expected.result(), {}};
  }

  harness::StackCounts stack_counts() const override { return probe_.read(); }

 private:
  const uint64_t streams_;
  sim::memory::ops::Bench bench_;
  harness::DeliveryLog log_;
  harness::StackProbe probe_;
  const Bytes fin_;
};

harness::ScenarioDef transport_stream_life_scenario() {
  harness::ScenarioDef def;
  def.name = "transport_stream_life";
  def.summary =
      "the in-memory transport alone: each round opens, accepts, finishes and reads to FIN "
      "`streams` uni streams, one after the other";
  def.axes = {
      harness::AxisSpec::integer("streams", "stream lives per round", 100, 1, 100000),
  };
  def.make = [](const harness::CaseSpec& spec) -> Result<std::unique_ptr<harness::Case>> {
    return std::unique_ptr<harness::Case>(
        new TransportStreamLife(static_cast<uint64_t>(spec.integer("streams"))));
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(transport_stream_life_scenario);

}  // namespace moq::scenarios
