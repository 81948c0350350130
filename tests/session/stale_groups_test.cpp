// Letting old groups go (model/session/core/stale_groups.h), on every version: a group stalled
// behind a slow link is reset once a newer group has been served for longer than the
// subscriber's Max Age (moq-lite) or SUBGROUP_DELIVERY_TIMEOUT (moq-transport), and the newer
// groups arrive whole; without a bound the old group arrives whole too.
#include <gtest/gtest.h>

#include <map>

#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

constexpr uint64_t kMs = 1'000'000;

class StaleGroups : public ::testing::TestWithParam<Version> {
 protected:
  // A link of 8 kbit/s (a byte a millisecond), and 64 bytes of connection credit: a 4 x 200 byte
  // group takes 800 ms, and what it still owes waits at the publisher.
  static SessionPair make_pair(Version v) {
    sim::memory::PairConfig cfg;
    cfg.conn_window = 64;
    sim::net::LinkConfig link;
    link.latency_ns = 1 * kMs;
    link.bandwidth_bps = 8'000;
    return SessionPair(v, cfg, link);
  }

  // Group 0 (stalled), then group 1 20 ms later, then group 2 another 20 ms later; returns how
  // each group the viewer saw ended and the frames it read of it, by sequence.
  static std::map<uint64_t, Drained> run(Version v, uint64_t max_age_ms) {
    SessionPair w = make_pair(v);
    auto pub = w.publish("demo");
    TrackPreferences prefs;
    prefs.max_age_ms = max_age_ms;
    auto track = w.viewer->subscribe(Path("demo"), "video", prefs);
    EXPECT_TRUE(track) << track.error().message;
    if (!track) return {};
    w.pass(100 * kMs);
    GroupProducer g0 = std::move(pub.track.create_group(0).value());
    for (int f = 0; f < 4; ++f)
      EXPECT_TRUE(g0.write_frame(f, Bytes::copy(std::string(200, 'a' + f))).ok());
    EXPECT_TRUE(g0.finish().ok());
    w.pass(20 * kMs);
    SessionPair::write_group(pub.track, 1, 1);
    w.pass(20 * kMs);
    SessionPair::write_group(pub.track, 2, 1);
    w.pass(3'000 * kMs);
    std::map<uint64_t, Drained> out;
    GroupConsumer group;
    while (track->next(group) == Next::Ready)
      out[group.sequence()] = drain_frames(group);
    EXPECT_EQ(w.publisher->counters().protocol_errors, 0u);
    EXPECT_EQ(w.viewer->counters().protocol_errors, 0u);
    return out;
  }
};

// The reset may overtake the stalled group's first bytes (a reset is not delayed by the link):
// the viewer then never sees group 0 at all.
TEST_P(StaleGroups, AStalledGroupPastMaxAgeIsResetAndTheNewerOnesArriveWhole) {
  std::map<uint64_t, Drained> groups = run(GetParam(), /*max_age_ms=*/10);
  ASSERT_TRUE(groups.count(1) && groups.count(2));
  if (groups.count(0)) {
    EXPECT_EQ(groups[0].last, Next::Aborted);
    EXPECT_LT(groups[0].frames.size(), 4u);
  }
  for (uint64_t g = 1; g < 3; ++g) {
    EXPECT_EQ(groups[g].last, Next::End) << g;
    EXPECT_EQ(groups[g].frames.size(), 1u) << g;
  }
}

TEST_P(StaleGroups, WithoutABoundTheStalledGroupArrivesWhole) {
  std::map<uint64_t, Drained> groups = run(GetParam(), /*max_age_ms=*/UINT64_MAX / kMs);
  ASSERT_EQ(groups.size(), 3u);
  for (uint64_t g = 0; g < 3; ++g)
    EXPECT_EQ(groups[g].last, Next::End) << g;
  EXPECT_EQ(groups[0].frames.size(), 4u);
}

INSTANTIATE_TEST_SUITE_P(AllVersions, StaleGroups,
                         ::testing::ValuesIn(session::implemented_versions().begin(),
                                             session::implemented_versions().end()),
                         version_param_name);

}  // namespace
}  // namespace moq::test
