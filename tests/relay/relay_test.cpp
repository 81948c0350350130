// The relay (model/relay/relay.h): a publisher of one version watched by a viewer of another
// through one relay, for every pair of implemented versions; one upstream subscription per
// track whatever the number of viewers; a fetch served from what the relay holds, and one of a
// group it let go asked upstream; announcements routed and withdrawn; two publishers of one path.
#include "model/relay/relay.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "tests/relay/relay_world.h"
#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

using VersionPair = std::tuple<Version, Version>;

// A new viewer of `version` on the relay FETCHes group `group` of demo's video and reads it whole.
struct Fetched {
  Client* fetcher;
  Drained drained;
  std::string error;  // the fetch's error, when it ended Aborted
};
Fetched fetch_from_a_new_viewer(RelayWorld& w, Version version, uint64_t group) {
  Client& fetcher = w.connect(version, false);
  auto fetched = fetcher.session->fetch(Path("demo"), "video", group);
  EXPECT_TRUE(fetched) << fetched.error().message;
  if (!fetched) return {&fetcher, {}, fetched.error().message};
  w.settle();
  Drained d = drain_frames(*fetched);
  return {&fetcher, d, fetched->error().message};
}

class RelayAcrossVersions : public ::testing::TestWithParam<VersionPair> {};

TEST_P(RelayAcrossVersions, ViewersOfAnotherVersionShareOneUpstreamSubscription) {
  const auto [publisher_version, viewer_version] = GetParam();
  RelayWorld w;
  Client& pub = w.connect(publisher_version, true);
  auto live = w.publish(pub, "room/demo");
  w.settle();
  EXPECT_EQ(w.relay.counters().routes_published, 1u);

  Client& first = w.connect(viewer_version, false);
  Client& second = w.connect(viewer_version, false);
  auto a = first.session->subscribe(Path("room/demo"), "video");  // live: the next groups
  auto b = second.session->subscribe(Path("room/demo"), "video");
  ASSERT_TRUE(a && b);
  w.settle();
  for (uint64_t g = 0; g < 2; ++g)
    SessionPair::write_group(live.track, g, 3);
  w.settle();
  expect_groups(*a, 2, 3);
  expect_groups(*b, 2, 3);
  // One upstream subscription for the two viewers: the publisher saw one request. (A moq-lite
  // viewer's TRACK before its SUBSCRIBE used to let the relay's upstream copy go in between, and
  // a moq-transport publisher saw two SUBSCRIBEs: RelayConfig::linger_ns keeps it.)
  EXPECT_EQ(pub.session->counters().accepted(session::StreamKind::Subscribe), 1u);
  EXPECT_EQ(first.session->counters().protocol_errors, 0u);
  EXPECT_EQ(pub.session->counters().protocol_errors, 0u);
}

TEST_P(RelayAcrossVersions, AFetchOfAGroupTheRelayHoldsIsServedWithoutAskingUpstream) {
  const auto [publisher_version, viewer_version] = GetParam();
  RelayWorld w;
  Client& pub = w.connect(publisher_version, true);
  auto live = w.publish(pub, "demo");
  w.settle();
  Client& watcher = w.connect(viewer_version, false);
  TrackPreferences prefs;
  prefs.group_start = 0;
  auto track = watcher.session->subscribe(Path("demo"), "video", prefs);
  ASSERT_TRUE(track);
  w.settle();
  SessionPair::write_group(live.track, 0, 4);
  w.settle();
  expect_groups(*track, 1, 4);

  // (A -18 live subscription's joining FETCH counts as a fetch stream: compare, do not assume 0.)
  const uint64_t fetches = pub.session->counters().accepted(session::StreamKind::Fetch);
  Fetched f = fetch_from_a_new_viewer(w, viewer_version, 0);
  EXPECT_EQ(f.drained.last, Next::End) << f.error;
  EXPECT_EQ(f.drained.frames,
            (std::vector<std::string>{payload(0, 0), payload(0, 1), payload(0, 2), payload(0, 3)}));
  EXPECT_EQ(pub.session->counters().accepted(session::StreamKind::Fetch), fetches);
}

TEST_P(RelayAcrossVersions, AFetchOfAGroupTheRelayLetGoIsAskedUpstreamOnce) {
  const auto [publisher_version, viewer_version] = GetParam();
  relay::RelayConfig config;
  config.cache.max_groups = 1;
  RelayWorld w(config);
  Client& pub = w.connect(publisher_version, true);
  auto live = w.publish(pub, "demo");
  w.settle();
  Client& watcher = w.connect(viewer_version, false);
  auto track = watcher.session->subscribe(Path("demo"), "video");
  ASSERT_TRUE(track);
  w.settle();
  for (uint64_t g = 0; g < 2; ++g) {
    SessionPair::write_group(live.track, g, 3);
    w.settle();
  }
  expect_groups(*track, 2, 3);

  const uint64_t fetches = pub.session->counters().accepted(session::StreamKind::Fetch);
  Fetched f = fetch_from_a_new_viewer(w, viewer_version, 0);
  EXPECT_EQ(f.drained.last, Next::End) << f.error;
  EXPECT_EQ(f.drained.frames,
            (std::vector<std::string>{payload(0, 0), payload(0, 1), payload(0, 2)}));
  EXPECT_EQ(pub.session->counters().accepted(session::StreamKind::Fetch), fetches + 1);
  EXPECT_EQ(f.fetcher->session->counters().protocol_errors, 0u);
  EXPECT_EQ(pub.session->counters().protocol_errors, 0u);
}

std::string pair_name(const ::testing::TestParamInfo<VersionPair>& info) {
  auto name = [&](Version v) { return version_param_name({v, info.index}); };
  return name(std::get<0>(info.param)) + "_to_" + name(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    EveryPair, RelayAcrossVersions,
    ::testing::Combine(::testing::ValuesIn(session::implemented_versions().begin(),
                                           session::implemented_versions().end()),
                       ::testing::ValuesIn(session::implemented_versions().begin(),
                                           session::implemented_versions().end())),
    pair_name);

class RelayRoutes : public ::testing::TestWithParam<Version> {};

TEST_P(RelayRoutes, WhatAPublisherAnnouncedIsWithdrawnWhenItLeaves) {
  RelayWorld w;
  Client& pub = w.connect(GetParam(), true);
  auto live = w.publish(pub, "live/demo");
  Client& viewer = w.connect(GetParam(), false);
  w.settle();
  auto announced = viewer.session->announced(Path("live"));
  ASSERT_TRUE(announced) << announced.error().message;
  w.settle();
  Next last;
  EXPECT_EQ(drain_announcements(*announced, last), std::vector<std::string>{"+live/demo"});
  w.relay.remove(*pub.relay_side);
  w.settle();
  EXPECT_EQ(drain_announcements(*announced, last), std::vector<std::string>{"-live/demo"});
  EXPECT_EQ(w.relay.counters().routes_withdrawn, 1u);
  EXPECT_EQ(w.relay.sessions(), 1u);
}

// The rule for two publishers of one path: the first keeps it, the second's announcement is
// counted and waits; viewers keep getting the first one's groups. When the first leaves, the
// second takes the path at once.
TEST_P(RelayRoutes, TheFirstPublisherOfAPathKeepsItAndTheNextTakesItWhenItLeaves) {
  RelayWorld w;
  Client& first = w.connect(GetParam(), true);
  auto a = w.publish(first, "demo");
  w.settle();
  Client& second = w.connect(GetParam(), true);
  auto b = w.publish(second, "demo");
  w.settle();
  EXPECT_EQ(w.relay.counters().routes_published, 1u);
  EXPECT_EQ(w.relay.counters().routes_conflicting, 1u);
  Client& viewer = w.connect(GetParam(), false);
  TrackPreferences prefs;
  prefs.group_start = 0;
  auto track = viewer.session->subscribe(Path("demo"), "video", prefs);
  ASSERT_TRUE(track);
  w.settle();
  SessionPair::write_group(a.track, 0, 2);
  SessionPair::write_group(b.track, 0, 5);
  w.settle();
  expect_groups(*track, 1, 2);
  EXPECT_EQ(second.session->counters().accepted(session::StreamKind::Subscribe), 0u);
  EXPECT_EQ(w.relay.waiting_routes(), 1u);

  w.relay.remove(*first.relay_side);
  w.settle();
  EXPECT_EQ(w.relay.counters().routes_published, 2u);
  EXPECT_EQ(w.relay.waiting_routes(), 0u);
  auto taken = viewer.session->subscribe(Path("demo"), "video", prefs);
  ASSERT_TRUE(taken);
  w.settle();
  SessionPair::write_group(b.track, 1, 4);
  w.settle();
  ASSERT_NO_FATAL_FAILURE(expect_next_group(*taken, 0, 5));
  ASSERT_NO_FATAL_FAILURE(expect_next_group(*taken, 1, 4));

  // A waiting announcement whose session leaves is forgotten with it.
  Client& third = w.connect(GetParam(), true);
  auto c = w.publish(third, "demo");
  w.settle();
  EXPECT_EQ(w.relay.waiting_routes(), 1u);
  w.relay.remove(*third.relay_side);
  EXPECT_EQ(w.relay.waiting_routes(), 0u);
}

// The relay keeps an upstream subscription for RelayConfig::linger_ns after its last viewer
// left (so a viewer that comes back finds it), then cancels it.
TEST_P(RelayRoutes, AnUpstreamSubscriptionOutlivesItsLastViewerForTheLingerOnly) {
  RelayWorld w;
  Client& pub = w.connect(GetParam(), true);
  auto live = w.publish(pub, "demo");
  w.settle();
  Client& viewer = w.connect(GetParam(), false);
  {
    auto track = viewer.session->subscribe(Path("demo"), "video");
    ASSERT_TRUE(track);
    w.settle();
  }  // the viewer's only consumer goes: its session cancels its subscription to the relay
  w.settle();
  const uint64_t linger = relay::RelayConfig{}.linger_ns;
  const uint64_t resets = pub.session->counters().resets_received;
  ASSERT_TRUE(w.clock.advance_to(w.clock.now_ns() + linger - 1));
  w.settle();
  EXPECT_EQ(pub.session->counters().resets_received, resets) << "cancelled before the linger";
  auto back = viewer.session->subscribe(Path("demo"), "video");  // comes back in time
  ASSERT_TRUE(back);
  w.settle();
  EXPECT_EQ(pub.session->counters().accepted(session::StreamKind::Subscribe), 1u);
  SessionPair::write_group(live.track, 0, 2);
  w.settle();
  expect_groups(*back, 1, 2);

  back = TrackConsumer();
  w.settle();
  ASSERT_TRUE(w.clock.advance_to(w.clock.now_ns() + linger));
  w.settle();
  EXPECT_GT(pub.session->counters().resets_received, resets) << "not cancelled after the linger";
}

INSTANTIATE_TEST_SUITE_P(AllVersions, RelayRoutes,
                         ::testing::ValuesIn(session::implemented_versions().begin(),
                                             session::implemented_versions().end()),
                         version_param_name);

}  // namespace
}  // namespace moq::test
