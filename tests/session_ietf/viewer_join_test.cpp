// A live subscription joins the current group (-18 joining FETCH, -22 fill); here the publisher
// is driven by hand so that both the join's fetch stream and the subgroup stream of the joined
// group arrive before SUBSCRIBE_OK. The viewer holds both, then writes the group in object order.
#include <gtest/gtest.h>

#include "tests/session_ietf/raw_fixture.h"

namespace moq::session::testing {
namespace {

class ViewerJoinTest : public RawPair {
 protected:
  void SetUp() override { start(); }

  static std::string object_text(uint64_t id) { return "o" + std::to_string(id); }

  // A subgroup stream of group 5 carrying objects [first, last].
  void send_subgroup(uint64_t alias, uint64_t first, uint64_t last) {
    w::SubgroupHeader h;
    h.track_alias = alias;
    h.group_id = 5;
    h.default_priority = true;
    h.end_of_group = true;
    h.first_object = first == 0;
    std::vector<uint8_t> bytes(w::kMaxSubgroupHeaderSize);
    bytes.resize(w::encode_subgroup_header(h, bytes.data()));
    w::SubgroupStreamState st;
    for (uint64_t id = first; id <= last; ++id) {
      const std::string text = object_text(id);
      uint8_t hdr[w::kMaxSubgroupObjectHeaderSize];
      const size_t n =
          w::encode_subgroup_object(st, h, id, {}, text.size(), w::ObjectStatus::Normal, hdr);
      bytes.insert(bytes.end(), hdr, hdr + n);
      bytes.insert(bytes.end(), text.begin(), text.end());
    }
    auto s = server_conn->open_uni();
    ASSERT_TRUE(s && *s);
    write_bytes(**s, bytes);
    ASSERT_TRUE((*s)->finish());
  }

  // A fetch stream for request_id carrying objects [0, last] of group 5.
  void send_fetch_stream(uint64_t request_id, uint64_t last) {
    std::vector<uint8_t> bytes(w::kMaxFetchHeaderSize);
    bytes.resize(w::encode_fetch_header(request_id, bytes.data()));
    w::FetchStreamState st;
    for (uint64_t id = 0; id <= last; ++id) {
      const std::string text = object_text(id);
      w::FetchObject o;
      o.group_id = 5;
      o.object_id = id;
      o.publisher_priority = 0x80;
      o.payload_length = text.size();
      uint8_t hdr[w::kMaxFetchObjectHeaderSize];
      const size_t n = w::encode_fetch_object(st, o, v(), hdr);
      bytes.insert(bytes.end(), hdr, hdr + n);
      bytes.insert(bytes.end(), text.begin(), text.end());
    }
    auto s = server_conn->open_uni();
    ASSERT_TRUE(s && *s);
    write_bytes(**s, bytes);
    ASSERT_TRUE((*s)->finish());
  }
};

TEST_P(ViewerJoinTest, JoinAndSubgroupDataBeforeSubscribeOkMakeOneGroupInOrder) {
  auto sub = session->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(sub);
  settle();
  w::Subscribe m;
  RawRequest req = take_subscribe(m);
  std::optional<RawRequest> join;
  uint64_t join_id = m.request_id;  // -22: the fill stream carries the SUBSCRIBE's ID
  if (GetParam() == Version::Transport18) {
    ASSERT_TRUE(m.params.subscription_filter);
    EXPECT_EQ(m.params.subscription_filter->type, w::SubscriptionFilterType::LargestObject);
    w::Fetch f;
    join = take_request(f);
    EXPECT_EQ(f.fetch_type, w::FetchType::RelativeJoining);
    EXPECT_EQ(f.joining_request_id, m.request_id);
    EXPECT_EQ(f.joining_start, 0u);
    join_id = f.request_id;
  } else {
    ASSERT_TRUE(m.params.location_filter);
    EXPECT_EQ(m.params.location_filter->type, w::LocationFilterType::NextObject);
    ASSERT_TRUE(m.params.fill && m.params.fill->location_filter);
    EXPECT_EQ(m.params.fill->location_filter->type, w::LocationFilterType::RelativeStart);
    EXPECT_EQ(m.params.fill->location_filter->start_group, 1u);
  }
  // Everything about group 5 overtakes the SUBSCRIBE_OK.
  send_subgroup(2, 3, 4);
  send_fetch_stream(join_id, 2);
  settle();
  EXPECT_EQ(sub->status(), TrackStatus::Pending);
  w::SubscribeOk ok;
  ok.track_alias = 2;
  ok.params.largest_object = w::Location{5, 2};
  send_message(*req.stream.send, ok, v());
  if (join) {
    w::FetchOk fok;
    fok.end = w::Location{5, 3};  // -18: last + 1
    send_message(*join->stream.send, fok, v());
    ASSERT_TRUE(join->stream.send->finish());
  }
  settle();
  ASSERT_EQ(sub->status(), TrackStatus::Active);
  GroupConsumer g;
  ASSERT_EQ(sub->next(g), Next::Ready);
  EXPECT_EQ(g.sequence(), 5u);
  Next last;
  std::vector<Bytes> frames = IetfPair::read_all(g, &last);
  EXPECT_EQ(last, Next::End);
  ASSERT_EQ(frames.size(), 5u);
  for (uint64_t i = 0; i < 5; ++i)
    EXPECT_EQ(frames[i].view(), object_text(i));
  EXPECT_FALSE(session->is_closed());
}

TEST_P(ViewerJoinTest, FailedJoinAbortsOnlyTheJoinedGroup) {
  auto sub = session->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(sub);
  settle();
  w::Subscribe m;
  RawRequest req = take_subscribe(m);
  std::optional<RawRequest> join;
  if (GetParam() == Version::Transport18) {
    w::Fetch f;
    join = take_request(f);
  }
  w::SubscribeOk ok;
  ok.track_alias = 2;
  ok.params.largest_object = w::Location{5, 2};
  send_message(*req.stream.send, ok, v());
  if (join) {  // -18: the joining FETCH is refused
    w::RequestError e;
    e.error_code = uint64_t(w::RequestErrorCode::InvalidRange);
    send_message(*join->stream.send, e, v());
    ASSERT_TRUE(join->stream.send->finish());
  } else {  // -22: the fill stream is reset after its header
    auto s = server_conn->open_uni();
    ASSERT_TRUE(s && *s);
    uint8_t h[w::kMaxFetchHeaderSize];
    write_bytes(**s, std::span<const uint8_t>(h, w::encode_fetch_header(m.request_id, h)));
    settle();
    ASSERT_TRUE((*s)->reset(uint64_t(w::StreamResetCode::InternalError)));
  }
  send_subgroup(2, 3, 4);
  settle();
  // Group 5 cannot be completed (no object of its first part arrived): it is never created, and
  // its subgroup stream is stopped. The next group is delivered.
  auto next = server_conn->open_uni();
  ASSERT_TRUE(next && *next);
  write_bytes(**next, RawPeer::subgroup_bytes(2, 6, 2, 0x30));
  ASSERT_TRUE((*next)->finish());
  settle();
  GroupConsumer g;
  ASSERT_EQ(sub->next(g), Next::Ready);
  EXPECT_EQ(g.sequence(), 6u);
  Next last;
  EXPECT_EQ(IetfPair::read_all(g, &last).size(), 2u);
  EXPECT_EQ(last, Next::End);
  EXPECT_FALSE(session->is_closed());
}

INSTANTIATE_TEST_SUITE_P(Drafts, ViewerJoinTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
