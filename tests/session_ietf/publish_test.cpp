// What a relay needs to take a publisher's PUBLISH and a subscriber that comes first: a pushed
// track (SessionConfig::accept_pushed_tracks) is answered REQUEST_OK, announced, readable like a
// subscribed one and ended by PUBLISH_DONE; a SUBSCRIBE with RENDEZVOUS_TIMEOUT waits that long
// for its broadcast. Checked on the wire with a hand-driven peer, both drafts.
#include <gtest/gtest.h>

#include "tests/session_ietf/raw_fixture.h"

namespace moq::session::testing {
namespace {

class PublishTest : public RawPair {
 protected:
  w::Publish publish_message(uint64_t id, uint64_t alias, const char* name = "t") {
    w::Publish m;
    m.request_id = id;
    m.track_namespace.fields = {"push", "cam"};
    m.track_name = name;
    m.track_alias = alias;
    return m;
  }
  std::optional<w::ControlMessage> request(RawRequest& r, const w::ControlMessage& m) {
    std::visit([&](const auto& msg) { send_message(*r.stream.send, msg, v()); }, m);
    settle();
    return r.in.next(v());
  }
  static std::string name_of(const std::optional<w::ControlMessage>& m, w::IetfVersion v) {
    return m ? w::control_name(*m, v) : "nothing";
  }
};

TEST_P(PublishTest, APushedTrackIsTakenAnnouncedReadAndEndedByPublishDone) {
  accept_pushed_tracks = true;
  start(/*publish=*/false, /*session_is_server=*/true);
  const size_t baseline = executor.live_tasks();
  Result<AnnounceConsumer> announced = session->announced(Path("push"));
  ASSERT_TRUE(announced);
  RawRequest p = peer->open_request();
  auto ok = request(p, publish_message(0, 9));
  ASSERT_TRUE(ok && std::holds_alternative<w::RequestOk>(*ok)) << name_of(ok, v());
  AnnounceEvent ev;
  ASSERT_EQ(announced->next(ev), Next::Ready);
  EXPECT_EQ(ev.kind, AnnounceEvent::Kind::Announce);
  EXPECT_EQ(ev.path, Path("push/cam"));

  Result<TrackConsumer> sub = session->subscribe(Path("push/cam"), "t");
  ASSERT_TRUE(sub) << sub.error().message;
  EXPECT_EQ(sub->status(), TrackStatus::Active);  // the pushed track, not a new SUBSCRIBE
  settle();
  while (std::optional<RawRequest> r = peer->accept_request()) {  // announced()'s request
    auto first = r->in.next(v());
    EXPECT_FALSE(first && std::holds_alternative<w::Subscribe>(*first))
        << "the session subscribed to a track it was pushed";
  }
  SendStreamPtr data = peer->subgroup(9, 0, 2, true);
  settle();
  GroupConsumer g;
  ASSERT_EQ(sub->next(g), Next::Ready);
  EXPECT_EQ(g.sequence(), 0u);
  EXPECT_EQ(g.frame_count(), 2u);

  w::PublishDone done;
  done.status_code = uint64_t(w::PublishDoneStatus::TrackEnded);
  done.stream_count = 1;
  send_message(*p.stream.send, done, v());
  ASSERT_TRUE(p.stream.send->finish());
  settle();
  EXPECT_EQ(sub->next(g), Next::End);
  EXPECT_EQ(sub->status(), TrackStatus::Finished);
  ASSERT_EQ(announced->next(ev), Next::Ready);
  EXPECT_EQ(ev.kind, AnnounceEvent::Kind::Unannounce);
  p.in.pump();
  EXPECT_TRUE(p.in.fin()) << "the session finishes its side after PUBLISH_DONE";
  EXPECT_EQ(executor.live_tasks(), baseline) << executor.describe_parked();
  EXPECT_FALSE(session->is_closed());
}

TEST_P(PublishTest, ASecondPushOfTheSameTrackIsRefusedAndTheFirstGoesOn) {
  accept_pushed_tracks = true;
  start(/*publish=*/false, /*session_is_server=*/true);
  RawRequest a = peer->open_request();
  auto ok = request(a, publish_message(0, 9));
  ASSERT_TRUE(ok && std::holds_alternative<w::RequestOk>(*ok)) << name_of(ok, v());
  RawRequest b = peer->open_request();
  auto refused = request(b, publish_message(2, 10));
  ASSERT_TRUE(refused && std::holds_alternative<w::RequestError>(*refused))
      << name_of(refused, v());
  EXPECT_EQ(std::get<w::RequestError>(*refused).error_code,
            uint64_t(w::RequestErrorCode::Uninterested));
  EXPECT_EQ(b.stream.send->stop_code(), uint64_t(w::StreamResetCode::Cancelled));
  Result<TrackConsumer> sub = session->subscribe(Path("push/cam"), "t");
  ASSERT_TRUE(sub);
  SendStreamPtr data = peer->subgroup(9, 0, 1, true);
  settle();
  GroupConsumer g;
  EXPECT_EQ(sub->next(g), Next::Ready);
  EXPECT_FALSE(session->is_closed());
}

TEST_P(PublishTest, APushOnAnAliasInUseClosesTheSession) {
  accept_pushed_tracks = true;
  start(/*publish=*/false, /*session_is_server=*/true);
  RawRequest a = peer->open_request();
  auto ok = request(a, publish_message(0, 9));
  ASSERT_TRUE(ok && std::holds_alternative<w::RequestOk>(*ok));
  RawRequest b = peer->open_request();
  (void)request(b, publish_message(2, 9, "other"));
  ASSERT_TRUE(session->is_closed());
  EXPECT_EQ(session->error()->code, uint64_t(w::SessionError::DuplicateTrackAlias));
  EXPECT_NE(session->error()->message.find("PUBLISH"), std::string::npos)
      << session->error()->message;
}

class RendezvousTest : public PublishTest {
 protected:
  void SetUp() override { start(/*publish=*/true, /*session_is_server=*/true); }
  w::Subscribe subscribe_later(std::optional<uint64_t> rendezvous_ms) {
    w::Subscribe m;
    m.request_id = 0;
    m.track_namespace.fields = {"later", "cam"};
    m.track_name = "video";
    if (v() == w::IetfVersion::Draft18) {
      w::SubscriptionFilter f;
      f.type = w::SubscriptionFilterType::LargestObject;
      m.params.subscription_filter = f;
    } else {
      w::LocationFilter f;
      f.type = w::LocationFilterType::NextObject;
      m.params.location_filter = f;
    }
    m.params.rendezvous_timeout = rendezvous_ms;
    return m;
  }
  void advance_ms(uint64_t ms) {
    executor.advance_to(clock.now_ns() + ms * 1'000'000);
    settle();
  }
};

TEST_P(RendezvousTest, ASubscribeWaitsForItsBroadcastToBePublished) {
  RawRequest r = peer->open_request();
  EXPECT_FALSE(request(r, subscribe_later(500))) << "answered before the broadcast exists";
  advance_ms(300);
  EXPECT_FALSE(r.in.next(v()));
  BroadcastProducer later = BroadcastProducer::create(clock);
  TrackProducer video = std::move(later.create_track("video").value());
  ASSERT_TRUE(origin.publish(Path("later/cam"), later.consume()));
  settle();
  auto ok = r.in.next(v());
  ASSERT_TRUE(ok && std::holds_alternative<w::SubscribeOk>(*ok)) << name_of(ok, v());
  EXPECT_FALSE(session->is_closed());
}

TEST_P(RendezvousTest, ASubscribeIsRefusedOnceItsRendezvousTimeoutPasses) {
  RawRequest r = peer->open_request();
  EXPECT_FALSE(request(r, subscribe_later(500)));
  advance_ms(499);
  EXPECT_FALSE(r.in.next(v()));
  advance_ms(1);
  auto refused = r.in.next(v());
  ASSERT_TRUE(refused && std::holds_alternative<w::RequestError>(*refused))
      << name_of(refused, v());
  EXPECT_EQ(std::get<w::RequestError>(*refused).error_code,
            uint64_t(w::RequestErrorCode::DoesNotExist));
}

TEST_P(RendezvousTest, WithoutRendezvousTimeoutASubscribeIsRefusedAtOnce) {
  RawRequest r = peer->open_request();
  auto refused = request(r, subscribe_later(std::nullopt));
  ASSERT_TRUE(refused && std::holds_alternative<w::RequestError>(*refused))
      << name_of(refused, v());
}

TEST_P(RendezvousTest, AWaitingSubscribeCancelledByTheSubscriberEndsItsTask) {
  const size_t baseline = executor.live_tasks();
  RawRequest r = peer->open_request();
  EXPECT_FALSE(request(r, subscribe_later(500)));
  ASSERT_TRUE(r.stream.send->reset(uint64_t(w::StreamResetCode::Cancelled)));
  settle();
  EXPECT_EQ(executor.live_tasks(), baseline) << executor.describe_parked();
}

INSTANTIATE_TEST_SUITE_P(Drafts, PublishTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);
INSTANTIATE_TEST_SUITE_P(Drafts, RendezvousTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
