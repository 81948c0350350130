// The publisher role checked on the wire with a hand-driven subscriber: duplicate subscriptions
// per draft, REQUEST_UPDATE, requests after GOAWAY, refused PUBLISH and SUBSCRIBE_TRACKS, and a
// -22 subscriber that FINs right after its SUBSCRIBE.
#include <gtest/gtest.h>

#include "tests/session_ietf/raw_fixture.h"

namespace moq::session::testing {
namespace {

class PublisherWireTest : public RawPair {
 protected:
  void SetUp() override { start(/*publish=*/true, /*session_is_server=*/true); }

  w::Subscribe subscribe_message(uint64_t id) {
    w::Subscribe m;
    m.request_id = id;
    m.track_namespace.fields = {"live", "cam"};
    m.track_name = "video";
    w::LocationFilter f;
    f.type = w::LocationFilterType::AbsoluteStart;
    m.params.location_filter = f;  // -22 form; -18 below
    if (v() == w::IetfVersion::Draft18) {
      m.params.location_filter.reset();
      w::SubscriptionFilter sf;
      sf.type = w::SubscriptionFilterType::AbsoluteStart;
      m.params.subscription_filter = sf;
    }
    return m;
  }

  std::optional<w::ControlMessage> request(RawRequest& r, const w::ControlMessage& m) {
    std::visit([&](const auto& msg) { send_message(*r.stream.send, msg, v()); }, m);
    settle();
    return r.in.next(v());
  }

  static uint64_t error_code(const std::optional<w::ControlMessage>& m) {
    EXPECT_TRUE(m && std::holds_alternative<w::RequestError>(*m));
    return m && std::holds_alternative<w::RequestError>(*m)
               ? std::get<w::RequestError>(*m).error_code
               : UINT64_MAX;
  }
};

TEST_P(PublisherWireTest, SecondSubscriptionToATrack) {
  RawRequest a = peer->open_request();
  auto ok = request(a, subscribe_message(0));
  ASSERT_TRUE(ok && std::holds_alternative<w::SubscribeOk>(*ok));
  RawRequest b = peer->open_request();
  auto second = request(b, subscribe_message(2));
  ASSERT_TRUE(second);
  if (v() == w::IetfVersion::Draft18) {
    EXPECT_EQ(error_code(second), uint64_t(w::RequestErrorCode::DuplicateSubscription));
  } else {  // -22 allows several subscriptions per track, each with its own alias here
    ASSERT_TRUE(std::holds_alternative<w::SubscribeOk>(*second));
    EXPECT_NE(std::get<w::SubscribeOk>(*second).track_alias,
              std::get<w::SubscribeOk>(*ok).track_alias);
  }
  EXPECT_FALSE(session->is_closed());
}

TEST_P(PublisherWireTest, RequestUpdateOfPriorityIsAcceptedAndOfFilterEndsTheSubscription) {
  RawRequest a = peer->open_request();
  auto ok = request(a, subscribe_message(0));
  ASSERT_TRUE(ok && std::holds_alternative<w::SubscribeOk>(*ok));
  w::RequestUpdate u;
  u.request_id = 2;
  u.params.subscriber_priority = 3;
  auto reply = request(a, u);
  ASSERT_TRUE(reply);
  EXPECT_TRUE(std::holds_alternative<w::RequestOk>(*reply));
  u.request_id = 4;
  u.params = {};
  if (v() == w::IetfVersion::Draft18) {
    w::SubscriptionFilter f;
    f.type = w::SubscriptionFilterType::NextGroupStart;
    u.params.subscription_filter = f;
  } else {
    w::LocationFilter f;
    f.type = w::LocationFilterType::NextObject;
    u.params.location_filter = f;
  }
  EXPECT_EQ(error_code(request(a, u)), uint64_t(w::RequestErrorCode::NotSupported));
  auto done = a.in.next(v());
  ASSERT_TRUE(done && std::holds_alternative<w::PublishDone>(*done));
  EXPECT_EQ(std::get<w::PublishDone>(*done).status_code,
            uint64_t(w::PublishDoneStatus::UpdateFailed));
  a.in.pump();
  EXPECT_TRUE(a.in.fin());
  EXPECT_FALSE(session->is_closed());
}

TEST_P(PublisherWireTest, RequestsAfterGoawayAreRefusedWithGoingAway) {
  RawRequest a = peer->open_request();
  auto ok = request(a, subscribe_message(0));
  ASSERT_TRUE(ok && std::holds_alternative<w::SubscribeOk>(*ok));
  ASSERT_TRUE(session->goaway("moqt://next.example/room"));
  settle();
  auto g = control_in.next(v());
  ASSERT_TRUE(g && std::holds_alternative<w::GoAway>(*g));
  const w::GoAway& goaway = std::get<w::GoAway>(*g);
  EXPECT_EQ(goaway.new_session_uri, "moqt://next.example/room");
  if (v() == w::IetfVersion::Draft18) {
    EXPECT_EQ(goaway.request_id, std::optional<uint64_t>(2));  // the lowest ID not seen yet
  } else {
    EXPECT_FALSE(goaway.request_id);
  }
  RawRequest b = peer->open_request();
  w::TrackStatus ts;
  ts.request_id = 2;
  ts.track_namespace.fields = {"live", "cam"};
  ts.track_name = "video";
  EXPECT_EQ(error_code(request(b, ts)), uint64_t(w::RequestErrorCode::GoingAway));
  EXPECT_FALSE(session->is_closed());
}

TEST_P(PublisherWireTest, PublishIsRefusedAndItsDataStopped) {
  TearDown();
  session.reset();
  start(/*publish=*/false, /*session_is_server=*/true);
  RawRequest p = peer->open_request();
  w::Publish pub;
  pub.request_id = 0;
  pub.track_namespace.fields = {"push"};
  pub.track_name = "t";
  pub.track_alias = 9;
  auto data = peer->subgroup(9, 0, 1, false);
  EXPECT_EQ(error_code(request(p, pub)), uint64_t(w::RequestErrorCode::Uninterested));
  EXPECT_EQ(p.stream.send->stop_code(), uint64_t(w::StreamResetCode::Cancelled));
  settle();
  EXPECT_EQ(data->stop_code(), uint64_t(w::StreamResetCode::Cancelled));  // tombstoned alias
  RawRequest t = peer->open_request();
  w::SubscribeTracks st;
  st.request_id = 2;
  st.prefix.fields = {"live"};
  EXPECT_EQ(error_code(request(t, st)), uint64_t(w::RequestErrorCode::NotSupported));
  EXPECT_FALSE(session->is_closed());
}

INSTANTIATE_TEST_SUITE_P(Drafts, PublisherWireTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

// -22 only: a FIN on a request stream is a graceful "nothing more from me"
// (draft-ietf-moq-transport-22).
using EarlyFinTest = PublisherWireTest;

TEST_P(EarlyFinTest, SubscriberFinningRightAfterSubscribeStillGetsTheTrackThenPublishDone) {
  const size_t baseline = executor.live_tasks();
  RawRequest a = peer->open_request();
  send_message(*a.stream.send, subscribe_message(0), v());
  ASSERT_TRUE(a.stream.send->finish());
  settle();
  auto ok = a.in.next(v());
  ASSERT_TRUE(ok && std::holds_alternative<w::SubscribeOk>(*ok));
  GroupProducer g = std::move(track.create_group(0).value());
  ASSERT_TRUE(g.write_frame(0, Bytes::copy("x")));
  ASSERT_TRUE(g.finish());
  ASSERT_TRUE(track.finish());
  settle();
  EXPECT_EQ(peer->accept_unis().size(), 1u);  // the group's subgroup stream
  auto done = a.in.next(v());
  ASSERT_TRUE(done && std::holds_alternative<w::PublishDone>(*done));
  EXPECT_EQ(std::get<w::PublishDone>(*done).status_code,
            uint64_t(w::PublishDoneStatus::TrackEnded));
  EXPECT_EQ(std::get<w::PublishDone>(*done).stream_count, 1u);
  a.in.pump();
  EXPECT_TRUE(a.in.fin());
  // Both sides finished: the subscription's tasks (server and sender) ended.
  EXPECT_EQ(executor.live_tasks(), baseline) << executor.describe_parked();
  EXPECT_FALSE(session->is_closed());
}

INSTANTIATE_TEST_SUITE_P(Draft22, EarlyFinTest, ::testing::Values(Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
