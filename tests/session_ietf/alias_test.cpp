// Track Alias races (research: "IETF data arriving before the response that binds its track
// alias"): subgroup data that precedes SUBSCRIBE_OK is held and delivered once the alias is
// bound; data for a cancelled subscription is stopped, never misrouted; data for an alias that
// never gets bound is dropped when its stream is reset.
#include <gtest/gtest.h>

#include "tests/session_ietf/raw_fixture.h"

namespace moq::session::testing {
namespace {

class AliasTest : public RawPair {
 protected:
  void SetUp() override { start(); }

  static std::vector<Bytes> frames_of(GroupConsumer& g, Next* last) {
    return IetfPair::read_all(g, last);
  }

  // A subscription from group 0 (no join), answered by hand.
  TrackConsumer subscribe_from_zero(const std::string& name = "video") {
    TrackPreferences prefs;
    prefs.group_start = 0;
    auto sub = session->subscribe(Path("live/cam"), name, prefs);
    EXPECT_TRUE(sub);
    settle();
    return std::move(*sub);
  }

  void send_ok(RawRequest& r, uint64_t alias) {
    w::SubscribeOk ok;
    ok.track_alias = alias;
    send_message(*r.stream.send, ok, v());
  }
};

TEST_P(AliasTest, SubgroupDataBeforeSubscribeOkIsHeldThenDelivered) {
  TrackConsumer sub = subscribe_from_zero();
  w::Subscribe msg;
  RawRequest req = take_subscribe(msg);
  EXPECT_EQ(msg.track_name, "video");
  // The publisher's objects overtake its SUBSCRIBE_OK.
  SendStreamPtr data = peer->subgroup(7, 0, 3, /*finish=*/true);
  SendStreamPtr data2 = peer->subgroup(7, 1, 2, /*finish=*/false);
  settle();
  EXPECT_EQ(sub.status(), TrackStatus::Pending);
  EXPECT_EQ(session->counters().frames_received, 0u);
  EXPECT_EQ(session->counters().accepted(StreamKind::Group), 2u);
  // Then the response binds alias 7: the held streams are parsed in order.
  send_ok(req, 7);
  settle();
  EXPECT_EQ(sub.status(), TrackStatus::Active);
  GroupConsumer g0, g1;
  ASSERT_EQ(sub.next(g0), Next::Ready);
  ASSERT_EQ(sub.next(g1), Next::Ready);
  Next last;
  auto f0 = frames_of(g0, &last);
  EXPECT_EQ(last, Next::End);
  ASSERT_EQ(f0.size(), 3u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(f0[i][0], 0x5a + i);
  EXPECT_EQ(g1.sequence(), 1u);
  EXPECT_EQ(frames_of(g1, &last).size(), 2u);
  EXPECT_EQ(last, Next::Pending);
  // More objects on the still-open stream flow straight through now.
  write_bytes(*data2, std::vector<uint8_t>{0x00, 0x03, 'x', 'y', 'z'});
  ASSERT_TRUE(data2->finish());
  settle();
  auto rest = frames_of(g1, &last);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].view(), "xyz");
  EXPECT_EQ(last, Next::End);
  EXPECT_FALSE(session->is_closed());
}

TEST_P(AliasTest, HeaderSplitAcrossChunksWhileParked) {
  TrackConsumer sub = subscribe_from_zero();
  w::Subscribe msg;
  RawRequest req = take_subscribe(msg);
  auto s = peer->subgroup(9, 4, 0, false);  // header only
  std::vector<uint8_t> obj = RawPeer::subgroup_bytes(9, 4, 2, 0x10);
  obj.erase(obj.begin(), obj.begin() + 3);  // drop the header (0x78, alias, group)
  for (uint8_t b : obj) {                   // one byte per chunk
    write_bytes(*s, std::vector<uint8_t>{b});
    settle();
  }
  ASSERT_TRUE(s->finish());
  send_ok(req, 9);
  settle();
  GroupConsumer g;
  ASSERT_EQ(sub.next(g), Next::Ready);
  Next last;
  auto frames = frames_of(g, &last);
  EXPECT_EQ(last, Next::End);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1].size(), 3u);
  EXPECT_EQ(frames[1][2], 0x11);
}

TEST_P(AliasTest, CancelledSubscriptionsInFlightDataIsStoppedNotMisrouted) {
  std::optional<TrackConsumer> sub = subscribe_from_zero();
  w::Subscribe msg;
  RawRequest req = take_subscribe(msg);
  send_ok(req, 3);
  auto s0 = peer->subgroup(3, 0, 2, true);
  settle();
  GroupConsumer g;
  ASSERT_EQ(sub->next(g), Next::Ready);
  // The viewer drops its consumer: the session cancels (reset + STOP_SENDING,
  // draft-ietf-moq-transport)...
  sub.reset();
  settle();
  req.in.pump();
  ReadResult r;
  {
    Bytes c;
    r = req.stream.recv->read(c);
  }
  EXPECT_EQ(r.status, ReadStatus::Reset);
  EXPECT_EQ(r.code, uint64_t(w::StreamResetCode::Cancelled));
  EXPECT_EQ(req.stream.send->stop_code(), uint64_t(w::StreamResetCode::Cancelled));
  // ... while the publisher still has data in flight for alias 3.
  auto late = peer->subgroup(3, 1, 2, false);
  // A new subscription to another track gets alias 4 and must see only its own data.
  TrackConsumer other = subscribe_from_zero("audio");
  w::Subscribe msg2;
  RawRequest req2 = take_subscribe(msg2);
  EXPECT_EQ(msg2.track_name, "audio");
  send_ok(req2, 4);
  auto mine = peer->subgroup(4, 0, 1, true, 0x70);
  settle();
  EXPECT_EQ(late->stop_code(), uint64_t(w::StreamResetCode::Cancelled));  // tombstone: stopped
  GroupConsumer og;
  ASSERT_EQ(other.next(og), Next::Ready);
  Next last;
  auto frames = frames_of(og, &last);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0][0], 0x70);
  EXPECT_EQ(other.next(og), Next::Pending);
  EXPECT_FALSE(session->is_closed());
}

TEST_P(AliasTest, StreamForAnAliasNeverBoundEndsWhenReset) {
  const size_t baseline = executor.live_tasks();
  auto s = peer->subgroup(42, 0, 1, false);
  settle();
  EXPECT_EQ(executor.live_tasks(), baseline + 1);  // its reader is parked, holding the data
  ASSERT_TRUE(s->reset(uint64_t(w::StreamResetCode::Cancelled)));
  settle();
  EXPECT_EQ(executor.live_tasks(), baseline);
  EXPECT_FALSE(session->is_closed());
}

TEST_P(AliasTest, ParkedStreamWithholdsCreditBeyondItsBoundButSeesAReset) {
  auto s = peer->subgroup(11, 0, 0, false);  // header only, alias never bound
  std::vector<uint8_t> big(1000, 0x00);
  size_t written = 0;
  for (int i = 0; i < 200; ++i) {  // 200 KB offered; the window is 1 MiB
    BufChain chain;
    chain.push(Bytes::copy(big));
    auto r = s->write(chain);
    ASSERT_TRUE(r);
    written += *r;
    settle();
  }
  EXPECT_EQ(written, 200'000u);
  // The parked reader holds at most 64 KiB; the rest stays unread in the transport.
  EXPECT_GE(server_conn->stats().max_queued_bytes, 200'000u - (64u << 10));
  ASSERT_TRUE(s->reset(uint64_t(w::StreamResetCode::Cancelled)));
  const size_t before = executor.live_tasks();
  settle();
  EXPECT_EQ(executor.live_tasks(), before - 1);  // the parked reader saw the reset and ended
  EXPECT_FALSE(session->is_closed());
}

TEST_P(AliasTest, SubscribeOkRebindingALiveAliasIsADuplicateTrackAlias) {
  TrackConsumer a = subscribe_from_zero("video");
  w::Subscribe m1;
  RawRequest r1 = take_subscribe(m1);
  send_ok(r1, 5);
  settle();
  TrackConsumer b = subscribe_from_zero("audio");
  w::Subscribe m2;
  RawRequest r2 = take_subscribe(m2);
  send_ok(r2, 5);
  settle();
  ASSERT_TRUE(session->is_closed());
  EXPECT_EQ(session->error()->code, uint64_t(w::SessionError::DuplicateTrackAlias));
  EXPECT_NE(session->error()->message.find("SUBSCRIBE_OK"), std::string::npos);
  EXPECT_EQ(a.status(), TrackStatus::Aborted);
  EXPECT_EQ(b.status(), TrackStatus::Aborted);
}

INSTANTIATE_TEST_SUITE_P(Drafts, AliasTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
