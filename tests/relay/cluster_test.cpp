// Relays in a cluster (model/relay/relay.h, "Clusters"), and what a relay must do whatever its
// clients do: announcements routed across a full mesh exactly once (split horizon: nothing a
// peer announces goes on to another peer), a publisher that vanishes mid-group, a viewer that
// never reads next to one that does, the bounded copy of a track, teardown to nothing, one
// upstream subscription per track and relay, and two publishers of one path on two relays.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "model/relay/relay.h"
#include "tests/relay/relay_world.h"
#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

using session::StreamKind;

const auto kEveryVersion = ::testing::ValuesIn(session::implemented_versions().begin(),
                                               session::implemented_versions().end());

// What an announcement listener got since the last call, and that it is still listening.
std::vector<std::string> announcements_now(AnnounceConsumer& announced) {
  Next last;
  std::vector<std::string> out = drain_announcements(announced, last);
  EXPECT_EQ(last, Next::Pending) << "the listener ended: " << announced.error().message;
  return out;
}

bool ended(Next n) {
  return n == Next::End || n == Next::Aborted;
}

// ---- Announcements across a mesh ----

class ClusterRoutes : public ::testing::TestWithParam<Version> {
 protected:
  // Three relays; the publisher on relay 0 and the viewer on relay 2 (one peer link apart,
  // with relay 1 peered to both: the path an announcement must not take twice).
  ClusterRoutes()
      : world(3, GetParam()),
        publisher(world.connect(GetParam(), true, 0)),
        viewer(world.connect(GetParam(), false, 2)) {}

  // The viewer listens under "room", then the publisher announces room/a.
  void announce_room_a() {
    auto a = viewer.session->announced(Path("room"));
    ASSERT_TRUE(a) << a.error().message;
    announced = std::move(*a);
    world.settle();
    live = world.publish(publisher, "room/a");
    world.settle();
    ASSERT_EQ(announcements_now(announced), std::vector<std::string>{"+room/a"});
  }

  void expect_no_conflicts() {
    for (size_t r = 0; r < world.relays.size(); ++r)
      EXPECT_EQ(world.relays[r]->counters().routes_conflicting, 0u)
          << "relay " << r << " heard room/a twice: an announcement circulated";
  }

  RelayWorld world;
  Client& publisher;
  Client& viewer;
  AnnounceConsumer announced;
  RelayWorld::Published live;
};

TEST_P(ClusterRoutes, AViewerOnAnotherRelaySeesOneAnnounceAndReadsThroughTheMesh) {
  announce_room_a();
  expect_no_conflicts();

  auto track = viewer.session->subscribe(Path("room/a"), "video");
  ASSERT_TRUE(track) << track.error().message;
  world.settle();
  for (uint64_t g = 0; g < 3; ++g)
    SessionPair::write_group(live.track, g, 2);
  world.settle();
  expect_groups(*track, 3, 2);
  // Relay 2 -> relay 0 -> publisher, one subscription each; relay 1 is not on the way.
  EXPECT_EQ(world.relays[2]->upstream_subscriptions(), 1u);
  EXPECT_EQ(world.relays[1]->upstream_subscriptions(), 0u);
  EXPECT_EQ(world.relays[0]->upstream_subscriptions(), 1u);
  EXPECT_EQ(publisher.session->counters().accepted(StreamKind::Subscribe), 1u);
  EXPECT_EQ(viewer.session->counters().protocol_errors, 0u);
}

TEST_P(ClusterRoutes, TheViewerSeesTheUnannounceWhenThePublisherUnpublishes) {
  announce_room_a();
  ASSERT_TRUE(publisher.origin.unpublish(Path("room/a")).ok());
  world.settle();
  EXPECT_EQ(announcements_now(announced), std::vector<std::string>{"-room/a"});
  for (size_t r = 0; r < world.relays.size(); ++r)
    EXPECT_EQ(world.relays[r]->counters().routes_withdrawn, 1u) << "relay " << r;
  expect_no_conflicts();
}

TEST_P(ClusterRoutes, TheViewerSeesTheUnannounceWhenTheRelayRemovesThePublisher) {
  announce_room_a();
  world.relays[0]->remove(*publisher.relay_side);
  world.settle();
  EXPECT_EQ(announcements_now(announced), std::vector<std::string>{"-room/a"});
  for (size_t r = 0; r < world.relays.size(); ++r)
    EXPECT_EQ(world.relays[r]->counters().routes_withdrawn, 1u) << "relay " << r;
}

TEST_P(ClusterRoutes, TheViewerSeesTheUnannounceWhenThePublishersSessionGoes) {
  announce_room_a();
  publisher.session.reset();  // the publisher's end closes the connection
  world.settle();
  EXPECT_EQ(announcements_now(announced), std::vector<std::string>{"-room/a"});
  for (size_t r = 0; r < world.relays.size(); ++r)
    EXPECT_EQ(world.relays[r]->counters().routes_withdrawn, 1u) << "relay " << r;
}

INSTANTIATE_TEST_SUITE_P(AllVersions, ClusterRoutes, kEveryVersion, version_param_name);

// ---- Loop suppression ----

using MeshCase = std::tuple<Version, size_t>;  // the version, the number of relays

std::string mesh_case_name(const ::testing::TestParamInfo<MeshCase>& info) {
  return version_param_name({std::get<0>(info.param), info.index}) + "_" +
         std::to_string(std::get<1>(info.param)) + "_relays";
}

class ClusterLoops : public ::testing::TestWithParam<MeshCase> {};

// Every relay hears the broadcast from the publisher's relay and from no other peer: a relay
// that re-announced what a peer told it would make the others hear it again (counted in
// routes_conflicting), and the publisher's relay hear its own client's broadcast come back.
TEST_P(ClusterLoops, EachRelayRoutesABroadcastOnceAndNoneComesBack) {
  const auto [version, relay_count] = GetParam();
  RelayWorld w(relay_count, version);
  // Relay 1: it dials relay 0 and is dialled by the others, so both ends of a link announce.
  Client& pub = w.connect(version, true, 1);
  std::vector<AnnounceConsumer> listeners;
  for (size_t r = 0; r < relay_count; ++r) {
    Client& viewer = w.connect(version, false, r);
    listeners.push_back(std::move(viewer.session->announced(Path()).value()));
  }
  w.settle();
  auto live = w.publish(pub, "room/a");
  w.settle();
  for (size_t r = 0; r < relay_count; ++r) {
    const relay::RelayCounters& c = w.relays[r]->counters();
    EXPECT_EQ(c.routes_published, 1u) << "relay " << r;
    EXPECT_EQ(c.routes_conflicting, 0u) << "relay " << r;
    EXPECT_EQ(announcements_now(listeners[r]), std::vector<std::string>{"+room/a"})
        << "relay " << r;
  }

  ASSERT_TRUE(pub.origin.unpublish(Path("room/a")).ok());
  w.settle();
  for (size_t r = 0; r < relay_count; ++r) {
    const relay::RelayCounters& c = w.relays[r]->counters();
    EXPECT_EQ(c.routes_withdrawn, 1u) << "relay " << r;
    EXPECT_EQ(c.routes_published, 1u) << "relay " << r << ": re-announced after the withdrawal";
    EXPECT_EQ(announcements_now(listeners[r]), std::vector<std::string>{"-room/a"})
        << "relay " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(AllVersions, ClusterLoops,
                         ::testing::Combine(kEveryVersion, ::testing::Values(size_t{3}, size_t{4})),
                         mesh_case_name);

// ---- A publisher that vanishes mid-group ----

enum class Vanish { SessionDestroyed, ConnectionClosed };
using VanishCase = std::tuple<Version, size_t, Vanish>;  // version, relays, how it goes

std::string vanish_case_name(const ::testing::TestParamInfo<VanishCase>& info) {
  const auto [version, relay_count, how] = info.param;
  return version_param_name({version, info.index}) + "_" + std::to_string(relay_count) +
         "_relays_" + (how == Vanish::SessionDestroyed ? "session_destroyed" : "connection_closed");
}

class VanishingPublisher : public ::testing::TestWithParam<VanishCase> {};

// The viewer (on the last relay; with two relays the group crosses the peer link) reads a whole
// group and half of the next; then the publisher goes without finishing anything. Both the
// group and the track must end for the viewer once the executor is idle: a relay that kept its
// copies open would leave the viewer Pending forever.
TEST_P(VanishingPublisher, TheViewerSeesTheGroupAndTheTrackEnd) {
  const auto [version, relay_count, how] = GetParam();
  RelayWorld w(relay_count, version);
  Client& pub = w.connect(version, true, 0);
  auto live = w.publish(pub, "demo");
  Client& viewer = w.connect(version, false, relay_count - 1);
  w.settle();
  auto track = viewer.session->subscribe(Path("demo"), "video");
  ASSERT_TRUE(track) << track.error().message;
  w.settle();
  SessionPair::write_group(live.track, 0, 3);
  // Held open by the publisher's application: only the session's end may end it.
  GroupProducer unfinished = SessionPair::write_group(live.track, 1, 2, /*finish=*/false);
  w.settle();
  expect_next_group(*track, 0, 3);
  GroupConsumer half;
  ASSERT_EQ(track->next(half), Next::Ready);
  ASSERT_EQ(half.sequence(), 1u);
  Drained before = drain_frames(half);
  ASSERT_EQ(before.frames, (std::vector<std::string>{payload(1, 0), payload(1, 1)}));
  ASSERT_EQ(before.last, Next::Pending);

  if (how == Vanish::SessionDestroyed) {
    pub.session.reset();
  } else {
    pub.conns.client->close(0, "publisher gone");
  }
  w.settle();

  Drained after = drain_frames(half);
  EXPECT_TRUE(after.frames.empty());
  EXPECT_TRUE(ended(after.last)) << "the half-written group is still open at the viewer";
  GroupConsumer more;
  const Next track_next = track->next(more);
  EXPECT_TRUE(ended(track_next)) << "the track is still open at the viewer (next() "
                                 << static_cast<int>(track_next) << ")";
  EXPECT_TRUE(track->status() == TrackStatus::Aborted || track->status() == TrackStatus::Finished)
      << "status " << static_cast<int>(track->status());
  EXPECT_EQ(w.relays[0]->counters().routes_withdrawn, 1u);
  EXPECT_EQ(viewer.session->counters().protocol_errors, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllVersions, VanishingPublisher,
                         ::testing::Combine(kEveryVersion, ::testing::Values(size_t{1}, size_t{2}),
                                            ::testing::Values(Vanish::SessionDestroyed,
                                                              Vanish::ConnectionClosed)),
                         vanish_case_name);

// ---- One relay's viewers and its bounded copy of a track ----

class RelayViewers : public ::testing::TestWithParam<Version> {};

// A viewer whose application never reads sits next to one that reads each group as it comes;
// the publisher writes three times more groups than the relay keeps. (A session always drains
// its transport, so what "slow" can hold back here is the relay's shared copy, not the link.)
TEST_P(RelayViewers, AViewerThatNeverReadsDoesNotHoldBackOneThatDoes) {
  constexpr uint32_t kCachedGroups = 4;
  constexpr uint64_t kGroups = 3 * kCachedGroups;  // within the publisher's own 16
  constexpr uint64_t kFrames = 3;
  relay::RelayConfig config;
  config.cache.max_groups = kCachedGroups;
  RelayWorld w(config);
  Client& pub = w.connect(GetParam(), true);
  auto live = w.publish(pub, "demo");
  Client& fast = w.connect(GetParam(), false);
  Client& slow = w.connect(GetParam(), false);
  w.settle();
  auto fast_track = fast.session->subscribe(Path("demo"), "video");
  auto slow_track = slow.session->subscribe(Path("demo"), "video");
  ASSERT_TRUE(fast_track && slow_track);
  w.settle();
  for (uint64_t g = 0; g < kGroups; ++g) {
    SessionPair::write_group(live.track, g, kFrames);
    w.settle();
    expect_next_group(*fast_track, g, kFrames);
  }
  EXPECT_EQ(pub.session->counters().accepted(StreamKind::Subscribe), 1u);
  // The relay served the slow viewer too (its session took every frame; its application did not).
  EXPECT_EQ(slow.session->counters().frames_received, kGroups * kFrames);

  // The relay's copy holds the latest kCachedGroups groups, no more.
  std::optional<BroadcastConsumer> copied = w.relay.origin().lookup(Path("demo"));
  ASSERT_TRUE(copied);
  auto copy = copied->subscribe("video");
  ASSERT_TRUE(copy) << copy.error().message;
  std::vector<uint64_t> held;
  for (uint64_t g = 0; g < kGroups; ++g)
    if (copy->get_group(g)) held.push_back(g);
  EXPECT_EQ(held, (std::vector<uint64_t>{8, 9, 10, 11}));
}

// What the bounded copy means for a FETCH through the relay: a recent group is served from the
// copy without asking upstream; one the copy evicted is refused, although the publisher still
// holds it (its cache is 16 groups).
TEST_P(RelayViewers, AFetchTheBoundedCopyCannotAnswerIsForwardedUpstream) {
  constexpr uint32_t kCachedGroups = 4;
  constexpr uint64_t kGroups = 20;  // the publisher keeps 16 (TrackInfo's default cache)
  relay::RelayConfig config;
  config.cache.max_groups = kCachedGroups;
  RelayWorld w(config);
  Client& pub = w.connect(GetParam(), true);
  auto live = w.publish(pub, "demo");
  Client& viewer = w.connect(GetParam(), false);
  w.settle();
  auto track = viewer.session->subscribe(Path("demo"), "video");
  ASSERT_TRUE(track);
  w.settle();
  for (uint64_t g = 0; g < kGroups; ++g)
    SessionPair::write_group(live.track, g, 2);
  w.settle();
  ASSERT_EQ(live.track.cached_groups(), 16u);
  auto frames_of = [](uint64_t g) {
    return std::vector<std::string>{payload(g, 0), payload(g, 1)};
  };

  // (A -18 live subscription's joining FETCH counts as a fetch stream: compare, do not assume 0.)
  const uint64_t upstream_fetches = pub.session->counters().accepted(StreamKind::Fetch);
  Client& fetcher = w.connect(GetParam(), false);
  auto recent = fetcher.session->fetch(Path("demo"), "video", kGroups - 1);
  ASSERT_TRUE(recent);
  w.settle();
  Drained r = drain_frames(*recent);
  EXPECT_EQ(r.last, Next::End) << (r.last == Next::Aborted ? recent->error().message : "");
  EXPECT_EQ(r.frames, frames_of(kGroups - 1));
  EXPECT_EQ(pub.session->counters().accepted(StreamKind::Fetch), upstream_fetches)
      << "a group the relay holds was asked upstream";

  // Group 5 left the relay's copy (4 groups) but not the publisher's (16): one upstream FETCH
  // each time, since the answer is not cached (it would evict the live edge).
  for (uint64_t ask = 1; ask <= 2; ++ask) {
    auto evicted = fetcher.session->fetch(Path("demo"), "video", 5);
    ASSERT_TRUE(evicted);
    w.settle();
    Drained e = drain_frames(*evicted);
    EXPECT_EQ(e.last, Next::End) << (e.last == Next::Aborted ? evicted->error().message : "");
    EXPECT_EQ(e.frames, frames_of(5));
    EXPECT_EQ(pub.session->counters().accepted(StreamKind::Fetch), upstream_fetches + ask);
  }
  // What crossed the upstream hop: the 16 groups the publisher still held when the relay's
  // subscription reached it, and group 5 twice.
  EXPECT_EQ(pub.relay_side->counters().frames_received, (16 + 2) * 2u);

  // Group 0 is gone upstream too: a clear not-found, never a hang.
  auto gone = fetcher.session->fetch(Path("demo"), "video", 0);
  ASSERT_TRUE(gone);
  w.settle();
  Drained g = drain_frames(*gone);
  EXPECT_EQ(g.last, Next::Aborted) << "group 0 was served: the publisher no longer holds it";
  EXPECT_TRUE(g.frames.empty());
  EXPECT_NE(gone->error().message.find("group 0"), std::string::npos) << gone->error().message;
  EXPECT_EQ(pub.session->counters().accepted(StreamKind::Fetch), upstream_fetches + 3);
  EXPECT_EQ(fetcher.session->counters().protocol_errors, 0u);
  EXPECT_EQ(pub.session->counters().protocol_errors, 0u);
}

TEST_P(RelayViewers, FiveViewersOfOneTrackMakeOneUpstreamSubscription) {
  RelayWorld w;
  Client& pub = w.connect(GetParam(), true);
  auto live = w.publish(pub, "demo");
  std::vector<TrackConsumer> tracks;
  for (int i = 0; i < 5; ++i) {
    Client& viewer = w.connect(GetParam(), false);
    tracks.push_back(std::move(viewer.session->subscribe(Path("demo"), "video").value()));
  }
  w.settle();
  SessionPair::write_group(live.track, 0, 2);
  w.settle();
  for (TrackConsumer& t : tracks)
    expect_groups(t, 1, 2);
  EXPECT_EQ(w.relay.upstream_subscriptions(), 1u);
  EXPECT_EQ(pub.session->counters().accepted(StreamKind::Subscribe), 1u);
}

// Viewers removed by the relay, then the publisher: no route, no session and no task is left,
// and every consumer the viewers were handed has ended.
TEST_P(RelayViewers, RemovingEveryClientLeavesNothing) {
  RelayWorld w;
  const size_t tasks_before = w.executor.live_tasks();
  Client& pub = w.connect(GetParam(), true);
  auto live = w.publish(pub, "demo");
  Client& watcher = w.connect(GetParam(), false);
  Client& listener = w.connect(GetParam(), false);
  w.settle();
  auto track = watcher.session->subscribe(Path("demo"), "video");
  auto announced = listener.session->announced(Path());
  ASSERT_TRUE(track && announced);
  w.settle();
  SessionPair::write_group(live.track, 0, 2);
  w.settle();
  expect_groups(*track, 1, 2);
  ASSERT_GT(w.executor.live_tasks(), tasks_before) << "nothing to tear down";

  for (Client* c : {&watcher, &listener, &pub})
    w.relay.remove(*c->relay_side);
  w.settle();
  EXPECT_EQ(w.relay.sessions(), 0u);
  const relay::RelayCounters& counters = w.relay.counters();
  EXPECT_EQ(counters.routes_published, 1u);
  EXPECT_EQ(counters.routes_withdrawn, counters.routes_published);
  EXPECT_FALSE(w.relay.origin().lookup(Path("demo")));
  GroupConsumer group;
  EXPECT_TRUE(ended(track->next(group))) << "the viewer's subscription is still open";
  Next last;
  drain_announcements(*announced, last);
  EXPECT_TRUE(ended(last)) << "the viewer's announcement request is still open";
  for (Client* c : {&watcher, &listener, &pub})
    EXPECT_TRUE(c->session->is_closed());

  for (Client* c : {&watcher, &listener, &pub})
    c->session.reset();
  w.settle();
  EXPECT_EQ(w.executor.live_tasks(), tasks_before) << w.executor.describe_parked();
  EXPECT_FALSE(w.executor.has_timers());
}

// The clients close their own sessions: the relay withdraws their routes as soon as it notices,
// and removing the closed sessions afterwards withdraws nothing twice.
TEST_P(RelayViewers, ClientsThatCloseAreWithdrawnAndRemovedLater) {
  RelayWorld w;
  Client& pub = w.connect(GetParam(), true);
  auto live = w.publish(pub, "demo");
  Client& viewer = w.connect(GetParam(), false);
  w.settle();
  auto track = viewer.session->subscribe(Path("demo"), "video");
  ASSERT_TRUE(track);
  w.settle();
  ASSERT_EQ(w.relay.counters().routes_published, 1u);

  pub.session->close(0, "done publishing");
  viewer.session->close(0, "done watching");
  w.settle();
  EXPECT_EQ(w.relay.counters().routes_withdrawn, 1u);
  EXPECT_FALSE(w.relay.origin().lookup(Path("demo")));
  EXPECT_TRUE(pub.relay_side->is_closed());
  EXPECT_TRUE(viewer.relay_side->is_closed());
  w.relay.remove(*pub.relay_side);
  w.relay.remove(*viewer.relay_side);
  EXPECT_EQ(w.relay.sessions(), 0u);
  w.settle();
  EXPECT_EQ(w.relay.counters().routes_withdrawn, 1u) << "withdrawn twice";
}

INSTANTIATE_TEST_SUITE_P(AllVersions, RelayViewers, kEveryVersion, version_param_name);

// ---- Two relays ----

class TwoRelays : public ::testing::TestWithParam<Version> {
 protected:
  // A viewer on each of the two relays subscribes to "demo" from its first group; then publisher a
  // writes a group of 2 frames and publisher b one of 5 (so the frames tell whose a viewer got).
  std::vector<TrackConsumer> demo_on_each_relay(RelayWorld& w, RelayWorld::Published& a,
                                                RelayWorld::Published& b) {
    TrackPreferences from_start;
    from_start.group_start = 0;
    std::vector<TrackConsumer> tracks;
    for (size_t r = 0; r < 2; ++r) {
      Client& viewer = w.connect(GetParam(), false, r);
      tracks.push_back(
          std::move(viewer.session->subscribe(Path("demo"), "video", from_start).value()));
    }
    w.settle();
    SessionPair::write_group(a.track, 0, 2);
    SessionPair::write_group(b.track, 0, 5);
    w.settle();
    return tracks;
  }
};

TEST_P(TwoRelays, ViewersOnBothRelaysMakeOneUpstreamSubscriptionPerRelay) {
  RelayWorld w(2, GetParam());
  Client& pub = w.connect(GetParam(), true, 0);
  auto live = w.publish(pub, "demo");
  w.settle();
  std::vector<TrackConsumer> tracks;
  for (size_t i = 0; i < 6; ++i) {
    Client& viewer = w.connect(GetParam(), false, i % 2);
    tracks.push_back(std::move(viewer.session->subscribe(Path("demo"), "video").value()));
  }
  w.settle();
  SessionPair::write_group(live.track, 0, 2);
  w.settle();
  for (TrackConsumer& t : tracks)
    expect_groups(t, 1, 2);
  EXPECT_EQ(w.relays[0]->upstream_subscriptions(), 1u) << "relay 0, to the publisher";
  EXPECT_EQ(w.relays[1]->upstream_subscriptions(), 1u) << "relay 1, to relay 0";
  EXPECT_EQ(pub.session->counters().accepted(StreamKind::Subscribe), 1u);
}

// Teardown across the link: once the clients are gone and the relays' upstream subscriptions
// have outlived their linger, the executor is back to what the bare mesh runs.
TEST_P(TwoRelays, RemovingEveryClientLeavesOnlyTheMesh) {
  RelayWorld w(2, GetParam());
  w.settle();
  const size_t mesh_tasks = w.executor.live_tasks();
  Client& pub = w.connect(GetParam(), true, 0);
  auto live = w.publish(pub, "demo");
  Client& viewer = w.connect(GetParam(), false, 1);
  w.settle();
  auto track = viewer.session->subscribe(Path("demo"), "video");
  ASSERT_TRUE(track);
  w.settle();
  SessionPair::write_group(live.track, 0, 2);
  w.settle();
  expect_groups(*track, 1, 2);
  ASSERT_GT(w.executor.live_tasks(), mesh_tasks) << "nothing to tear down";

  w.relays[1]->remove(*viewer.relay_side);
  w.relays[0]->remove(*pub.relay_side);
  w.settle();
  GroupConsumer group;
  EXPECT_TRUE(ended(track->next(group))) << "the viewer's subscription is still open";
  viewer.session.reset();
  pub.session.reset();
  RunReport lingered = w.executor.advance_to(w.clock.now_ns() + relay::RelayConfig{}.linger_ns + 1);
  ASSERT_FALSE(lingered.budget_exhausted) << lingered.detail;
  w.settle();
  for (size_t r = 0; r < 2; ++r) {
    const relay::RelayCounters& c = w.relays[r]->counters();
    EXPECT_EQ(c.routes_published, 1u) << "relay " << r;
    EXPECT_EQ(c.routes_withdrawn, c.routes_published) << "relay " << r;
    EXPECT_EQ(w.relays[r]->sessions(), 1u) << "relay " << r << ": only its peer";
  }
  EXPECT_EQ(w.executor.live_tasks(), mesh_tasks) << w.executor.describe_parked();
  EXPECT_FALSE(w.executor.has_timers());
}

// Two publishers of one path on two relays. The rule: each relay keeps the first announcement
// of the path it hears, and counts any later one (routes_conflicting), which waits and is not
// routed until the path is freed (TwoRelaysTakeOver). Here
// relay 1 heard the path from relay 0 before its own client announced it, so the whole cluster
// follows the first publisher.
TEST_P(TwoRelays, ThePathStaysWithTheFirstAnnouncementEachRelayHeard) {
  RelayWorld w(2, GetParam());
  Client& first = w.connect(GetParam(), true, 0);
  auto a = w.publish(first, "demo");
  w.settle();
  Client& second = w.connect(GetParam(), true, 1);
  auto b = w.publish(second, "demo");
  w.settle();
  EXPECT_EQ(w.relays[0]->counters().routes_published, 1u);
  EXPECT_EQ(w.relays[0]->counters().routes_conflicting, 0u) << "relay 1 passed on its client's";
  EXPECT_EQ(w.relays[1]->counters().routes_published, 1u);
  EXPECT_EQ(w.relays[1]->counters().routes_conflicting, 1u);

  std::vector<TrackConsumer> tracks = demo_on_each_relay(w, a, b);
  for (TrackConsumer& t : tracks)
    expect_groups(t, 1, 2);
  EXPECT_EQ(second.session->counters().accepted(StreamKind::Subscribe), 0u);
}

// Announced at once, each relay hears its own client first (the other's announcement is one
// peer link further): the cluster splits, and each relay's viewers follow its own publisher.
TEST_P(TwoRelays, PublishersAnnouncingAtOnceEachKeepTheirOwnRelay) {
  RelayWorld w(2, GetParam());
  Client& left = w.connect(GetParam(), true, 0);
  Client& right = w.connect(GetParam(), true, 1);
  w.settle();
  auto a = w.publish(left, "demo");
  auto b = w.publish(right, "demo");
  w.settle();
  for (size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(w.relays[r]->counters().routes_published, 1u) << "relay " << r;
    EXPECT_EQ(w.relays[r]->counters().routes_conflicting, 1u) << "relay " << r;
  }
  std::vector<TrackConsumer> tracks = demo_on_each_relay(w, a, b);
  expect_groups(tracks[0], 1, 2);
  expect_groups(tracks[1], 1, 5);
  EXPECT_EQ(left.session->counters().accepted(StreamKind::Subscribe), 1u);
  EXPECT_EQ(right.session->counters().accepted(StreamKind::Subscribe), 1u);
}

INSTANTIATE_TEST_SUITE_P(AllVersions, TwoRelays, kEveryVersion, version_param_name);

// ---- Hidden broadcasts ----

// A hidden broadcast (a segment starting with '.') crosses the cluster, and reaches the viewers
// that ask for hidden broadcasts, where the version can ask (moq-lite-07); moq-lite-06 publishers
// never send them, and moq-transport has no hidden broadcasts (every viewer sees every path).
class HiddenBroadcasts : public ::testing::TestWithParam<Version> {};

TEST_P(HiddenBroadcasts, CrossTheClusterToTheViewersThatAskForThem) {
  const Version v = GetParam();
  RelayWorld world{2, v};
  Client& publisher = world.connect(v, true, 0);
  Client& plain = world.connect(v, false, 1);
  Client& asking = world.connect(v, false, 1, /*announce_hidden=*/true);
  auto stats = world.publish(publisher, ".internal/stats");
  auto room = world.publish(publisher, "room/a");
  world.settle();
  AnnounceConsumer plain_list = std::move(plain.session->announced(Path()).value());
  AnnounceConsumer asking_list = std::move(asking.session->announced(Path()).value());
  world.settle();
  const std::vector<std::string> visible = {"+room/a"};
  const std::vector<std::string> all = {"+.internal/stats", "+room/a"};
  switch (v) {
    case Version::Lite07Wip:
      EXPECT_EQ(announcements_now(plain_list), visible);
      EXPECT_EQ(announcements_now(asking_list), all);
      break;
    case Version::Lite06:
      EXPECT_EQ(announcements_now(plain_list), visible);
      EXPECT_EQ(announcements_now(asking_list), visible);
      break;
    default:
      EXPECT_EQ(announcements_now(plain_list), all);
      EXPECT_EQ(announcements_now(asking_list), all);
      break;
  }
}

INSTANTIATE_TEST_SUITE_P(AllVersions, HiddenBroadcasts, kEveryVersion, version_param_name);

// ---- Taking over a path ----

// The second publisher's announcement waits: when the first withdraws, the path is free and the
// second takes it at once, on both relays, without announcing again.
class TwoRelaysTakeOver : public ::testing::TestWithParam<Version> {
 protected:
  // The first publisher on relay 0 holds demo; the second, on relay 1, announced it too and
  // waits (relay 1 heard the first's from relay 0 before); a viewer on relay 0 listens.
  void second_waits() {
    first_broadcast = world.publish(first, "demo");
    world.settle();
    second_broadcast = world.publish(second, "demo");
    auto listening = viewer.session->announced(Path());
    ASSERT_TRUE(listening);
    announced = std::move(*listening);
    world.settle();
    ASSERT_EQ(world.relays[1]->counters().routes_conflicting, 1u);
    ASSERT_EQ(world.relays[1]->waiting_routes(), 1u);
    ASSERT_EQ(announcements_now(announced), std::vector<std::string>{"+demo"});
  }

  // A viewer on relay 0 subscribing now gets the groups of `from`.
  void expect_viewer_reads(RelayWorld::Published& from) {
    TrackPreferences from_start;
    from_start.group_start = 0;
    auto track = viewer.session->subscribe(Path("demo"), "video", from_start);
    ASSERT_TRUE(track);
    world.settle();
    SessionPair::write_group(from.track, 0, 3);
    world.settle();
    expect_groups(*track, 1, 3);
  }

  RelayWorld world{2, GetParam()};
  Client& first = world.connect(GetParam(), true, 0);
  Client& second = world.connect(GetParam(), true, 1);
  Client& viewer = world.connect(GetParam(), false, 0);
  RelayWorld::Published first_broadcast;
  RelayWorld::Published second_broadcast;
  AnnounceConsumer announced;
};

TEST_P(TwoRelaysTakeOver, TheWaitingPublisherTakesTheFreedPathAtOnce) {
  second_waits();
  ASSERT_TRUE(first.origin.unpublish(Path("demo")).ok());
  world.settle();
  // The viewer sees the first's broadcast go and the second's come.
  EXPECT_EQ(announcements_now(announced), (std::vector<std::string>{"-demo", "+demo"}));
  for (size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(world.relays[r]->counters().routes_published, 2u) << "relay " << r;
    EXPECT_EQ(world.relays[r]->waiting_routes(), 0u) << "relay " << r;
  }
  expect_viewer_reads(second_broadcast);
}

// The path taken over, its new holder replaces its broadcast in one step (unpublish, publish,
// then the executor runs): viewers read the new one. (A moq-transport client publisher announces
// each path twice, by PUBLISH_NAMESPACE and in answer to the relay's SUBSCRIBE_NAMESPACE, and
// the two withdrawals and re-announcements interleave, so the relay's session sees the path
// announced throughout and routes it on: viewers see no announcement change there, and the
// route reaches the new broadcast all the same. This used to leave the path unrouted when the
// relay dropped a conflicting announcement and waited for a new one.)
TEST_P(TwoRelaysTakeOver, ThePathsNewHolderMayReplaceItsBroadcastInOneStep) {
  second_waits();
  ASSERT_TRUE(first.origin.unpublish(Path("demo")).ok());
  world.settle();
  ASSERT_TRUE(second.origin.unpublish(Path("demo")).ok());
  auto again = world.publish(second, "demo");
  world.settle();
  for (size_t r = 0; r < 2; ++r) {
    const relay::RelayCounters& c = world.relays[r]->counters();
    EXPECT_EQ(c.routes_published - c.routes_withdrawn, 1u) << "relay " << r << " lost demo";
  }
  expect_viewer_reads(again);
}

TEST_P(TwoRelaysTakeOver, AWaitingAnnouncementWithdrawnFirstIsForgotten) {
  second_waits();
  ASSERT_TRUE(second.origin.unpublish(Path("demo")).ok());
  world.settle();
  EXPECT_EQ(world.relays[1]->waiting_routes(), 0u);
  ASSERT_TRUE(first.origin.unpublish(Path("demo")).ok());
  world.settle();
  EXPECT_EQ(announcements_now(announced), std::vector<std::string>{"-demo"});
  for (size_t r = 0; r < 2; ++r)
    EXPECT_EQ(world.relays[r]->counters().routes_published, 1u) << "relay " << r;
}

INSTANTIATE_TEST_SUITE_P(AllVersions, TwoRelaysTakeOver, kEveryVersion, version_param_name);

}  // namespace
}  // namespace moq::test
