// Peer input that breaks the protocol closes the session with PROTOCOL_VIOLATION (or the
// specific session code) and an error naming the message; the peer sees the same code.
#include <gtest/gtest.h>

#include "tests/session_ietf/raw_fixture.h"

namespace moq::session::testing {
namespace {

class ErrorsTest : public RawPair {
 protected:
  void SetUp() override { start(/*publish=*/true); }

  void expect_closed_with(uint64_t code, const std::string& names) {
    settle();
    ASSERT_TRUE(session->is_closed());
    ASSERT_TRUE(session->error());
    EXPECT_EQ(session->error()->code, code) << session->error()->message;
    EXPECT_NE(session->error()->message.find(names), std::string::npos)
        << session->error()->message;
    EXPECT_EQ(session->counters().protocol_errors, 1u);
    // The peer learns the code and the reason.
    ASSERT_TRUE(server_conn->close_error());
    EXPECT_EQ(server_conn->close_error()->code, code);
    EXPECT_EQ(server_conn->close_error()->message, session->error()->message);
  }
};

TEST_P(ErrorsTest, MalformedSubscribeClosesWithProtocolViolationNamingIt) {
  RawRequest r = peer->open_request();
  // SUBSCRIBE, Length 2: Request ID 1, then a namespace of 5 fields that is not there.
  write_bytes(*r.stream.send, std::vector<uint8_t>{0x03, 0x00, 0x02, 0x01, 0x05});
  expect_closed_with(w::kProtocolViolation, "SUBSCRIBE");
}

TEST_P(ErrorsTest, BodyLongerThanItsFieldsIsAViolation) {
  RawRequest r = peer->open_request();
  w::TrackStatus ts;
  ts.request_id = 1;
  ts.track_namespace.fields = {"live", "cam"};
  ts.track_name = "video";
  std::vector<uint8_t> bytes = frame_message(ts, v());
  bytes.push_back(0x00);  // one byte too many...
  bytes[2] += 1;          // ...that the Length covers
  write_bytes(*r.stream.send, bytes);
  expect_closed_with(w::kProtocolViolation, "TRACK_STATUS");
}

TEST_P(ErrorsTest, UnknownMessageTypeOnTheControlStream) {
  write_bytes(peer->control(), std::vector<uint8_t>{0x3f, 0x00, 0x00});
  expect_closed_with(w::kProtocolViolation, "message type");
}

TEST_P(ErrorsTest, MessageOtherThanGoawayAfterSetupOnTheControlStream) {
  send_message(peer->control(), w::RequestOk{}, v());
  expect_closed_with(w::kProtocolViolation, "REQUEST_OK");
}

TEST_P(ErrorsTest, SecondGoawayIsAViolation) {
  w::GoAway g;
  if (w::goaway_has_request_id(v())) g.request_id = 0;
  send_message(peer->control(), g, v());
  settle();
  EXPECT_FALSE(session->is_closed());
  EXPECT_EQ(session->peer_goaway(), std::optional<std::string>(""));
  send_message(peer->control(), g, v());
  expect_closed_with(w::kProtocolViolation, "GOAWAY");
}

TEST_P(ErrorsTest, ClosingTheControlStreamIsAViolation) {
  ASSERT_TRUE(peer->control().finish());
  expect_closed_with(w::kProtocolViolation, "control stream");
}

TEST_P(ErrorsTest, ResponseAsTheFirstMessageOfARequestStream) {
  RawRequest r = peer->open_request();
  w::SubscribeOk ok;
  send_message(*r.stream.send, ok, v());
  expect_closed_with(w::kProtocolViolation, "SUBSCRIBE_OK");
}

TEST_P(ErrorsTest, RequestIdWithTheWrongParity) {
  RawRequest r = peer->open_request();
  w::TrackStatus ts;
  ts.request_id = 2;  // the peer is the server: its IDs are odd
  ts.track_namespace.fields = {"live", "cam"};
  ts.track_name = "video";
  send_message(*r.stream.send, ts, v());
  expect_closed_with(uint64_t(w::SessionError::InvalidRequestId), "TRACK_STATUS");
}

TEST_P(ErrorsTest, RepeatedRequestId) {
  w::TrackStatus ts;
  ts.request_id = 1;
  ts.track_namespace.fields = {"live", "cam"};
  ts.track_name = "video";
  RawRequest a = peer->open_request();
  send_message(*a.stream.send, ts, v());
  settle();
  EXPECT_FALSE(session->is_closed());
  RawRequest b = peer->open_request();
  send_message(*b.stream.send, ts, v());
  expect_closed_with(uint64_t(w::SessionError::InvalidRequestId), "was used before");
}

TEST_P(ErrorsTest, UnknownUniStreamType) {
  auto s = server_conn->open_uni();
  ASSERT_TRUE(s && *s);
  write_bytes(**s, std::vector<uint8_t>{0x01});
  expect_closed_with(w::kProtocolViolation, "stream type");
}

TEST_P(ErrorsTest, MalformedSubgroupObject) {
  // A subgroup stream whose object says "End of Group" and then carries another object.
  auto s = server_conn->open_uni();
  ASSERT_TRUE(s && *s);
  TrackPreferences prefs;
  prefs.group_start = 0;
  auto sub = session->subscribe(Path("live/cam"), "video", prefs);
  settle();
  w::Subscribe msg;
  RawRequest req = take_subscribe(msg);
  w::SubscribeOk ok;
  ok.track_alias = 1;
  send_message(*req.stream.send, ok, v());
  write_bytes(**s, std::vector<uint8_t>{0x78, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x01, 0x41});
  expect_closed_with(w::kProtocolViolation, "subgroup object");
  EXPECT_EQ(sub->status(), TrackStatus::Aborted);
}

TEST_P(ErrorsTest, FinInTheMiddleOfAnObject) {
  TrackPreferences prefs;
  prefs.group_start = 0;
  auto sub = session->subscribe(Path("live/cam"), "video", prefs);
  settle();
  w::Subscribe msg;
  RawRequest req = take_subscribe(msg);
  w::SubscribeOk ok;
  ok.track_alias = 1;
  send_message(*req.stream.send, ok, v());
  auto s = server_conn->open_uni();
  ASSERT_TRUE(s && *s);
  write_bytes(**s, std::vector<uint8_t>{0x78, 0x01, 0x00, 0x00, 0x05, 'a', 'b'});
  ASSERT_TRUE((*s)->finish());
  expect_closed_with(w::kProtocolViolation, "middle of an object");
}

TEST_P(ErrorsTest, FetchHeaderForARequestNeverMade) {
  auto s = server_conn->open_uni();
  ASSERT_TRUE(s && *s);
  write_bytes(**s, std::vector<uint8_t>{0x05, 0x40, 0x20});  // FETCH_HEADER, Request ID 32
  expect_closed_with(w::kProtocolViolation, "FETCH_HEADER");
}

INSTANTIATE_TEST_SUITE_P(Drafts, ErrorsTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

// -22 only: range filters do not exist in -18.
using Draft22ErrorsTest = ErrorsTest;

TEST_P(Draft22ErrorsTest, RangeFilterWithoutMaxFilterRangesIsAViolation) {
  RawRequest r = peer->open_request();
  w::Subscribe m;
  m.request_id = 1;
  m.track_namespace.fields = {"live", "cam"};
  m.track_name = "video";
  auto f = w::make_range_filter(w::ParamType::ObjectIdFilter, 0, 0,
                                std::vector<w::AbsoluteRange>{{0, 3}});
  ASSERT_TRUE(f);
  m.params.range_filters.push_back(*f);
  send_message(*r.stream.send, m, v());
  expect_closed_with(w::kProtocolViolation, "MAX_FILTER_RANGES");
}

INSTANTIATE_TEST_SUITE_P(Draft22, Draft22ErrorsTest, ::testing::Values(Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
