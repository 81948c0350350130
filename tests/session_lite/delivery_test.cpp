// End to end over sim/memory: what a viewer receives by subscribing, fetching and following
// announcements, on every moq-lite version.
#include <gtest/gtest.h>

#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

class Delivery : public ::testing::TestWithParam<Version> {};

TEST_P(Delivery, SubscriberReceivesGroupsIntactAndInOrder) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  ASSERT_EQ(track.status(), TrackStatus::Active);
  constexpr uint64_t kGroups = 5;
  constexpr uint64_t kFrames = 8;
  for (uint64_t g = 0; g < kGroups; ++g) {
    SessionPair::write_group(pub.track, g, kFrames);
    w.settle();
  }
  for (uint64_t g = 0; g < kGroups; ++g) {
    GroupConsumer group;
    ASSERT_EQ(track.next(group), Next::Ready) << "group " << g;
    EXPECT_EQ(group.sequence(), g);
    Drained d = drain_frames(group);
    EXPECT_EQ(d.last, Next::End);
    ASSERT_EQ(d.frames.size(), kFrames);
    for (uint64_t f = 0; f < kFrames; ++f) {
      EXPECT_EQ(d.frames[f], payload(g, f));
      EXPECT_EQ(d.timestamps[f], 1000 * g + 33 * f);
    }
  }
  GroupConsumer none;
  EXPECT_EQ(track.next(none), Next::Pending);
  EXPECT_EQ(w.viewer->counters().frames_received, kGroups * kFrames);
  EXPECT_EQ(w.publisher->counters().frames_sent, kGroups * kFrames);
  EXPECT_EQ(w.viewer->counters().opened(session::StreamKind::Subscribe), 1u);
  EXPECT_EQ(w.publisher->counters().opened(session::StreamKind::Group), kGroups);
  EXPECT_FALSE(w.viewer->is_closed());
  EXPECT_FALSE(w.publisher->is_closed());
}

TEST_P(Delivery, FramesWrittenAfterTheGroupOpenedStreamAsTheyArrive) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  GroupProducer group = SessionPair::write_group(pub.track, 0, 2, /*finish=*/false);
  w.settle();
  GroupConsumer got;
  ASSERT_EQ(track.next(got), Next::Ready);
  Drained first = drain_frames(got);
  EXPECT_EQ(first.frames, (std::vector<std::string>{payload(0, 0), payload(0, 1)}));
  EXPECT_EQ(first.last, Next::Pending);
  ASSERT_TRUE(group.write_frame(66, text_bytes(payload(0, 2))).ok());
  ASSERT_TRUE(group.finish().ok());
  w.settle();
  Drained rest = drain_frames(got);
  EXPECT_EQ(rest.frames, (std::vector<std::string>{payload(0, 2)}));
  EXPECT_EQ(rest.last, Next::End);
}

TEST_P(Delivery, TrackEndReachesTheViewerAndClosesEveryStream) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  SessionPair::write_group(pub.track, 0, 3);
  ASSERT_TRUE(pub.track.finish().ok());
  w.settle();
  GroupConsumer group;
  ASSERT_EQ(track.next(group), Next::Ready);
  EXPECT_EQ(drain_frames(group).frames.size(), 3u);
  EXPECT_EQ(track.next(group), Next::End);
  EXPECT_EQ(track.end_sequence(), 1u);
  // Paired close: both halves of every request stream ended, only SETUP streams are gone too.
  EXPECT_EQ(w.conns.client->live_streams(), 0u) << w.executor.describe_parked();
}

TEST_P(Delivery, ViewerFetchesACachedGroup) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  for (uint64_t g = 0; g < 3; ++g)
    SessionPair::write_group(pub.track, g, 6);
  auto fetched = w.viewer->fetch(Path("demo"), "video", 1);
  ASSERT_TRUE(fetched.ok());
  w.settle();
  session::FetchConsumer& c = fetched.value();
  EXPECT_EQ(c.sequence(), 1u);
  Drained d = drain_frames(c);
  EXPECT_EQ(d.last, Next::End);
  ASSERT_EQ(d.frames.size(), 6u);
  for (uint64_t f = 0; f < 6; ++f) {
    EXPECT_EQ(d.frames[f], payload(1, f));
    EXPECT_EQ(d.timestamps[f], 1000 + 33 * f);
  }
  EXPECT_EQ(w.viewer->counters().opened(session::StreamKind::Fetch), 1u);
  EXPECT_EQ(w.publisher->counters().accepted(session::StreamKind::Fetch), 1u);
  EXPECT_EQ(w.conns.client->live_streams(), 0u);
}

TEST_P(Delivery, FetchOfAFrameRangeStartsItsTimestampsFromZero) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  SessionPair::write_group(pub.track, 4, 10);
  session::FetchOptions range;
  range.frame_start = 3;
  range.frame_end = 5;
  auto fetched = w.viewer->fetch(Path("demo"), "video", 4, range);
  ASSERT_TRUE(fetched.ok());
  w.settle();
  Drained d = drain_frames(fetched.value());
  EXPECT_EQ(d.last, Next::End);
  EXPECT_EQ(d.frames, (std::vector<std::string>{payload(4, 3), payload(4, 4), payload(4, 5)}));
  EXPECT_EQ(d.timestamps, (std::vector<uint64_t>{4099, 4132, 4165}));
  EXPECT_EQ(fetched.value().frame_start(), 3u);
}

TEST_P(Delivery, FetchOfAGroupBeingWrittenStreamsItsFrames) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  GroupProducer group = SessionPair::write_group(pub.track, 0, 1, /*finish=*/false);
  auto fetched = w.viewer->fetch(Path("demo"), "video", 0);
  ASSERT_TRUE(fetched.ok());
  w.settle();
  Drained first = drain_frames(fetched.value());
  EXPECT_EQ(first.frames.size(), 1u);
  EXPECT_EQ(first.last, Next::Pending);
  ASSERT_TRUE(group.write_frame(33, text_bytes(payload(0, 1))).ok());
  ASSERT_TRUE(group.finish().ok());
  w.settle();
  Drained rest = drain_frames(fetched.value());
  EXPECT_EQ(rest.frames, (std::vector<std::string>{payload(0, 1)}));
  EXPECT_EQ(rest.last, Next::End);
}

TEST_P(Delivery, FetchOfAMissingGroupFailsWithoutClosingTheSession) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  auto missing_group = w.viewer->fetch(Path("demo"), "video", 9);
  auto missing_track = w.viewer->fetch(Path("demo"), "audio", 0);
  auto missing_broadcast = w.viewer->fetch(Path("nope"), "video", 0);
  w.settle();
  for (auto* f : {&missing_group, &missing_track, &missing_broadcast}) {
    ASSERT_TRUE(f->ok());
    FrameView frame;
    EXPECT_EQ(f->value().next(frame), Next::Aborted);
    EXPECT_EQ(f->value().error().code, 0x33u) << f->value().error().message;
    EXPECT_NE(f->value().error().message.find("reset by the peer"), std::string::npos);
  }
  EXPECT_FALSE(w.viewer->is_closed());
  EXPECT_EQ(w.conns.client->live_streams(), 0u);
}

TEST_P(Delivery, FollowerSeesAnnounceThenUnannounce) {
  SessionPair w(GetParam());
  auto early = w.publish("live/early");
  auto announced = w.viewer->announced(Path("live"));
  ASSERT_TRUE(announced.ok());
  AnnounceConsumer& ac = announced.value();
  w.settle();
  AnnounceEvent e;
  ASSERT_EQ(ac.next(e), Next::Ready);
  EXPECT_EQ(e.kind, AnnounceEvent::Kind::Announce);
  EXPECT_EQ(e.path.str(), "live/early");
  auto late = w.publish("live/late");
  auto elsewhere = w.publish("other/x");
  w.settle();
  ASSERT_EQ(ac.next(e), Next::Ready);
  EXPECT_EQ(e.kind, AnnounceEvent::Kind::Announce);
  EXPECT_EQ(e.path.str(), "live/late");
  EXPECT_EQ(ac.next(e), Next::Pending);  // "other/x" is outside the prefix
  ASSERT_TRUE(w.origin.unpublish(Path("live/early")).ok());
  w.settle();
  ASSERT_EQ(ac.next(e), Next::Ready);
  EXPECT_EQ(e.kind, AnnounceEvent::Kind::Unannounce);
  EXPECT_EQ(e.path.str(), "live/early");
  // A broadcast that goes away by closing is unannounced too.
  late.broadcast.close();
  w.settle();
  ASSERT_EQ(ac.next(e), Next::Ready);
  EXPECT_EQ(e.kind, AnnounceEvent::Kind::Unannounce);
  EXPECT_EQ(e.path.str(), "live/late");
  EXPECT_EQ(ac.next(e), Next::Pending);
}

TEST_P(Delivery, AnnouncedBroadcastCanBeSubscribed) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  auto announced = w.viewer->announced(Path(""));
  w.settle();
  AnnounceEvent e;
  ASSERT_EQ(announced.value().next(e), Next::Ready);
  ASSERT_EQ(e.path.str(), "demo");
  // The announced broadcast handle is the session's mirror: subscribing goes to the peer.
  TrackConsumer track = std::move(w.viewer->subscribe(e.path, "video").value());
  w.settle();
  SessionPair::write_group(pub.track, 0, 2);
  w.settle();
  GroupConsumer group;
  ASSERT_EQ(track.next(group), Next::Ready);
  EXPECT_EQ(drain_frames(group).frames.size(), 2u);
}

TEST_P(Delivery, LateViewerGetsTheLatestGroupFromItsFirstFrame) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  SessionPair::write_group(pub.track, 0, 4);
  SessionPair::write_group(pub.track, 1, 4);
  GroupProducer current = SessionPair::write_group(pub.track, 2, 3, /*finish=*/false);
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  GroupConsumer group;
  ASSERT_EQ(track.next(group), Next::Ready);
  EXPECT_EQ(group.sequence(), 2u);
  Drained d = drain_frames(group);
  EXPECT_EQ(d.frames, (std::vector<std::string>{payload(2, 0), payload(2, 1), payload(2, 2)}));
  ASSERT_TRUE(current.write_frame(2099, text_bytes(payload(2, 3))).ok());
  ASSERT_TRUE(current.finish().ok());
  SessionPair::write_group(pub.track, 3, 1);
  w.settle();
  EXPECT_EQ(drain_frames(group).frames, (std::vector<std::string>{payload(2, 3)}));
  ASSERT_EQ(track.next(group), Next::Ready);
  EXPECT_EQ(group.sequence(), 3u);
}

TEST_P(Delivery, TrackInfoDescribesTheTrack) {
  SessionPair w(GetParam());
  TrackInfo info;
  info.priority = 7;
  info.timescale = 90000;
  info.cache.max_age_ns = 2'000'000'000;
  auto pub = w.publish("demo", "video", info);
  auto reply = w.viewer->track_info(Path("demo"), "video");
  auto missing = w.viewer->track_info(Path("demo"), "nope");
  ASSERT_TRUE(reply.ok());
  w.settle();
  TrackInfo got;
  ASSERT_EQ(reply.value().get(got), Next::Ready);
  EXPECT_EQ(got.priority, 7);
  EXPECT_EQ(got.timescale, 90000u);
  EXPECT_EQ(got.cache.max_age_ns, 2'000'000'000u);
  EXPECT_EQ(missing.value().get(got), Next::Aborted);
  EXPECT_EQ(missing.value().error().code, 0x33u);
  // The subscription path uses the same info for the mirror track.
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  EXPECT_EQ(track.info().timescale, 90000u);
  EXPECT_EQ(w.conns.client->live_streams(), 1u);  // the subscription's stream
}

TEST_P(Delivery, SubscriptionToAnUnknownTrackIsRefused) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "nope").value());
  w.settle();
  EXPECT_EQ(track.status(), TrackStatus::Aborted);
  EXPECT_EQ(track.error().code, 0x33u) << track.error().message;
  EXPECT_FALSE(w.viewer->is_closed());
}

TEST_P(Delivery, TwoViewersOfOneTrackShareOneUpstreamSubscription) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer a = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  TrackPreferences urgent;
  urgent.priority = 9;
  TrackConsumer b = std::move(w.viewer->subscribe(Path("demo"), "video", urgent).value());
  w.settle();
  EXPECT_EQ(w.viewer->counters().opened(session::StreamKind::Subscribe), 1u);
  // The aggregate priority reached the publisher (SUBSCRIBE or SUBSCRIBE_UPDATE).
  EXPECT_EQ(pub.track.preferences().priority, 9);
  SessionPair::write_group(pub.track, 0, 2);
  w.settle();
  GroupConsumer ga, gb;
  ASSERT_EQ(a.next(ga), Next::Ready);
  ASSERT_EQ(b.next(gb), Next::Ready);
  EXPECT_EQ(drain_frames(ga).frames, drain_frames(gb).frames);
}

TEST_P(Delivery, DroppingTheLastConsumerCancelsTheSubscription) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  {
    TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
    w.settle();
    EXPECT_EQ(pub.track.consumer_count(), 1u);
  }
  w.settle();
  EXPECT_EQ(pub.track.consumer_count(), 0u);
  EXPECT_EQ(w.publisher->counters().resets_received, 1u);
  EXPECT_EQ(w.conns.client->live_streams(), 0u);
  // Subscribing again starts a new subscription.
  TrackConsumer again = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  SessionPair::write_group(pub.track, 0, 1);
  w.settle();
  GroupConsumer g;
  EXPECT_EQ(again.next(g), Next::Ready);
  EXPECT_EQ(w.viewer->counters().opened(session::StreamKind::Subscribe), 2u);
}

TEST_P(Delivery, SetupStreamsAreExchanged) {
  SessionPair w(GetParam());
  w.settle();
  for (auto* s : {w.viewer.get(), w.publisher.get()}) {
    EXPECT_EQ(s->counters().opened(session::StreamKind::Setup), 1u);
    EXPECT_EQ(s->counters().accepted(session::StreamKind::Setup), 1u);
    EXPECT_FALSE(s->is_closed());
  }
}

TEST_P(Delivery, GoawayStopsNewRequests) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  ASSERT_TRUE(w.publisher->goaway("moqt://elsewhere").ok());
  EXPECT_FALSE(w.publisher->goaway("").ok());  // only once
  w.settle();
  ASSERT_TRUE(w.viewer->peer_goaway().has_value());
  EXPECT_EQ(*w.viewer->peer_goaway(), "moqt://elsewhere");
  EXPECT_FALSE(w.viewer->fetch(Path("demo"), "video", 0).ok());
  EXPECT_FALSE(w.viewer->is_closed());
  // A client may not redirect.
  EXPECT_FALSE(w.viewer->goaway("moqt://x").ok());
}

TEST_P(Delivery, AuthIsOnlyOnSeven) {
  SessionPair w(GetParam());
  const std::vector<uint8_t> token = {1, 2, 3};
  auto reply = w.viewer->authenticate(token);
  if (GetParam() == Version::Lite06) {
    EXPECT_FALSE(reply.ok());
    return;
  }
  ASSERT_TRUE(reply.ok());
  w.settle();
  session::AuthGrant grant;
  ASSERT_EQ(reply.value().get(grant), Next::Ready);
  EXPECT_EQ(grant.subscribe, (std::vector<std::string>{"**"}));
}

INSTANTIATE_TEST_SUITE_P(Lite, Delivery, ::testing::Values(Version::Lite06, Version::Lite07Wip),
                         version_param_name);

}  // namespace
}  // namespace moq::test
