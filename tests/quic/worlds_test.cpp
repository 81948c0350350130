// Every session scenario runs over QUIC (transport=quic-sim: simulated links, virtual clock;
// transport=quic: loopback UDP, real clock) with the same delivery assertions as over memory,
// and records the packets and UDP bytes of its rounds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/runner/case_builder.h"
#include "harness/runner/registrar.h"
#include "harness/runner/runner.h"

namespace moq::harness {
namespace {

class QuicWorlds : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(register_linked_scenarios(registry_)); }

  results::CaseResult run(const std::string& id, RunOptions options = {1, 2}) {
    Result<CaseSpec> spec = parse_case_id(registry_, id);
    EXPECT_TRUE(spec) << spec.error().message;
    if (!spec) return {};
    EXPECT_EQ(spec->id(), id) << "the id carries the transport";
    return run_case(*spec, options, nullptr);
  }

  void expect_delivered_over_the_wire(const std::string& id) {
    SCOPED_TRACE(id);
    results::CaseResult r = run(id);
    ASSERT_FALSE(r.flags.failed) << r.flags.reason.value_or("");
    EXPECT_GT(r.delivered.frames, 0u);
    ASSERT_TRUE(r.metrics.packets);
    ASSERT_TRUE(r.metrics.udp_bytes);
    EXPECT_GT(r.metrics.packets->min, 0u);
    EXPECT_GT(r.metrics.udp_bytes->min, r.metrics.wire_bytes->min)
        << "QUIC adds headers and encryption to what the stack wrote";
  }

  ScenarioRegistry registry_;
};

TEST_F(QuicWorlds, MemoryCasesKeepTheirIdsAndHaveNoWire) {
  results::CaseResult r = run("model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=4");
  ASSERT_FALSE(r.flags.failed) << r.flags.reason.value_or("");
  EXPECT_FALSE(r.metrics.packets);
  EXPECT_FALSE(r.metrics.udp_bytes);
}

TEST_F(QuicWorlds, EverySessionScenarioDeliversOverQuicSim) {
  for (const char* version :
       {"moq-lite-06", "moq-lite-07-wip", "moq-transport-18", "moq-transport-22"}) {
    const std::string v = version;
    for (const char* rest :
         {"/publishers=1/viewers=2/frames=4/transport=quic-sim",
          "/publishers=2/viewers=3/frames=16/frame_size=1200/transport=quic-sim"}) {
      expect_delivered_over_the_wire("model/fetch_frames/" + v + rest);
      expect_delivered_over_the_wire("model/subscribe_frames/" + v + rest);
    }
    expect_delivered_over_the_wire("relay/fetch_frames/" + v +
                                   "/relays=2/publishers=1/viewers=2/frames=4/transport=quic-sim");
    expect_delivered_over_the_wire("relay/subscribe_frames/" + v +
                                   "/relays=2/publishers=1/viewers=2/frames=4/transport=quic-sim");
    expect_delivered_over_the_wire("model/fetch_range/" + v +
                                   "/publishers=1/viewers=2/burst=2/transport=quic-sim");
  }
}

TEST_F(QuicWorlds, TheOtherSessionScenariosRunOverQuicSim) {
  for (const std::string v : {"moq-lite-06", "moq-transport-22"}) {
    for (const std::string& id : {
             "model/churn/" + v + "/sessions=2/held=4/transport=quic-sim",
             "relay/churn/" + v + "/relays=2/sessions=2/held=4/transport=quic-sim",
             "relay/delivery/" + v +
                 "/relays=2/publishers=2/broadcasts=2/viewers=3/watch=2/burst=4/transport=quic-sim",
             "model/delivery/" + v +
                 "/publishers=1/broadcasts=1/viewers=2/watch=1/burst=4/transport=quic-sim",
             "model/join/" + v + "/broadcasts=4/transport=quic-sim",
             "relay/join_stale/" + v + "/relays=2/broadcasts=4/transport=quic-sim",
             "relay/leave/" + v + "/relays=2/broadcasts=4/transport=quic-sim",
             "model/prefixes/" + v + "/broadcasts=8/follow=16/transport=quic-sim",
             "relay/prefixes_teardown/" + v + "/relays=2/broadcasts=8/follow=16/transport=quic-sim",
         }) {
      SCOPED_TRACE(id);
      results::CaseResult r = run(id);
      EXPECT_FALSE(r.flags.failed) << r.flags.reason.value_or("");
      EXPECT_TRUE(r.metrics.packets);
    }
  }
}

TEST_F(QuicWorlds, QuicSimRunsRepeatExactly) {
  const std::string id =
      "relay/fetch_frames/moq-transport-22/relays=2/publishers=1/viewers=2/frames=16/"
      "transport=quic-sim";
  results::CaseResult a = run(id, {1, 4});
  results::CaseResult b = run(id, {1, 4});
  ASSERT_FALSE(a.flags.failed) << a.flags.reason.value_or("");
  EXPECT_EQ(a.metrics.allocations->samples, b.metrics.allocations->samples);
  EXPECT_EQ(a.metrics.packets->samples, b.metrics.packets->samples);
  EXPECT_EQ(a.metrics.udp_bytes->samples, b.metrics.udp_bytes->samples);
  EXPECT_EQ(a.metrics.tasks_run->samples, b.metrics.tasks_run->samples);
  EXPECT_EQ(a.delivered, b.delivered);
}

TEST_F(QuicWorlds, SessionScenariosDeliverOverLoopbackUdp) {
  expect_delivered_over_the_wire(
      "model/fetch_frames/moq-lite-06/publishers=1/viewers=2/frames=64/transport=quic");
  expect_delivered_over_the_wire(
      "relay/subscribe_frames/moq-transport-22/relays=2/publishers=1/viewers=2/frames=4/"
      "transport=quic");
}

}  // namespace
}  // namespace moq::harness
