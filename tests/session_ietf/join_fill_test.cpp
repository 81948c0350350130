// The publisher's side of joining the current group, checked on the wire with a hand-driven
// subscriber: -18 joining FETCH (Relative and Absolute, draft-ietf-moq-transport-18) and -22 fill
// (FILL_PARAMETERS, draft-ietf-moq-transport-22). The objects it returns end just before where the
// subscription starts, so every object arrives exactly once.
#include <gtest/gtest.h>

#include "tests/session_ietf/raw_fixture.h"

namespace moq::session::testing {
namespace {

using Loc = std::pair<uint64_t, uint64_t>;

struct FetchStream {
  uint64_t request_id = 0;
  std::vector<Loc> objects;
  bool fin = false;
};

struct UniBytes {
  std::vector<uint8_t> bytes;
  bool fin = false;
  bool fetch() const { return !bytes.empty() && bytes[0] == w::kFetchHeaderType; }
};

// Reads everything the peer's uni streams delivered so far.
std::vector<UniBytes> read_unis(std::vector<RecvStreamPtr>& unis) {
  std::vector<UniBytes> out;
  for (RecvStreamPtr& s : unis) {
    MessageStream in(s.get());
    in.pump();
    out.push_back(UniBytes{in.bytes(), in.fin()});
  }
  return out;
}

// Decodes a whole fetch stream with the codec.
FetchStream parse_fetch(const UniBytes& u, w::IetfVersion v) {
  FetchStream out;
  out.fin = u.fin;
  std::span<const uint8_t> b(u.bytes);
  const Decoded<uint64_t> header = w::decode_fetch_header(b);
  EXPECT_TRUE(header.ok());
  if (!header.ok()) return out;
  out.request_id = header.value;
  size_t pos = header.consumed;
  w::FetchStreamState st;
  while (pos < b.size()) {
    const Decoded<w::FetchObject> d = w::decode_fetch_object(b.subspan(pos), st, v);
    EXPECT_TRUE(d.ok()) << d.error.message;
    if (!d.ok()) break;
    out.objects.emplace_back(d.value.group_id, d.value.object_id);
    pos += d.consumed + d.value.payload_length;
  }
  return out;
}

// The one fetch stream among them.
FetchStream the_fetch(std::vector<RecvStreamPtr>& unis, w::IetfVersion v) {
  std::vector<UniBytes> all = read_unis(unis);
  size_t n = 0;
  FetchStream out;
  for (const UniBytes& u : all) {
    if (!u.fetch()) continue;
    ++n;
    out = parse_fetch(u, v);
  }
  EXPECT_EQ(n, 1u);
  return out;
}

std::vector<Loc> locations(std::initializer_list<std::pair<uint64_t, uint64_t>> groups) {
  std::vector<Loc> out;  // (group, object count) -> every location
  for (auto [g, n] : groups)
    for (uint64_t o = 0; o < n; ++o)
      out.emplace_back(g, o);
  return out;
}

class JoinFillTest : public RawPair {
 protected:
  void SetUp() override {
    start(/*publish=*/true, /*session_is_server=*/true);
    // Group 0 complete (3 objects), group 1 open with 4 objects.
    GroupProducer g0 = std::move(track.create_group(0).value());
    for (int i = 0; i < 3; ++i)
      ASSERT_TRUE(g0.write_frame(i, Bytes::copy("g0")));
    ASSERT_TRUE(g0.finish());
    open = std::move(track.create_group(1).value());
    for (int i = 0; i < 4; ++i)
      ASSERT_TRUE(open.write_frame(i, Bytes::copy("g1")));
    settle();
  }

  w::Subscribe subscribe_message(uint64_t id) {
    w::Subscribe m;
    m.request_id = id;
    m.track_namespace.fields = {"live", "cam"};
    m.track_name = "video";
    return m;
  }

  // Sends the SUBSCRIBE and reads its SUBSCRIBE_OK.
  w::SubscribeOk subscribe(RawRequest& r, const w::Subscribe& m) {
    send_message(*r.stream.send, m, v());
    settle();
    auto reply = r.in.next(v());
    EXPECT_TRUE(reply && std::holds_alternative<w::SubscribeOk>(*reply));
    return reply && std::holds_alternative<w::SubscribeOk>(*reply)
               ? std::get<w::SubscribeOk>(*reply)
               : w::SubscribeOk{};
  }

  GroupProducer open;
};

// -18 only: -22 replaced the joining FETCH with fill.
using JoiningFetchTest = JoinFillTest;

TEST_P(JoiningFetchTest, RelativeJoiningFetchEndsWhereTheSubscriptionStarts) {
  RawRequest sub = peer->open_request();
  w::Subscribe m = subscribe_message(0);
  w::SubscriptionFilter f;
  f.type = w::SubscriptionFilterType::LargestObject;
  m.params.subscription_filter = f;
  w::SubscribeOk ok = subscribe(sub, m);
  ASSERT_TRUE(ok.params.largest_object);
  EXPECT_EQ(*ok.params.largest_object, (w::Location{1, 3}));

  RawRequest join = peer->open_request();
  w::Fetch fetch;
  fetch.request_id = 2;
  fetch.fetch_type = w::FetchType::RelativeJoining;
  fetch.joining_request_id = 0;
  fetch.joining_start = 1;  // one group back
  send_message(*join.stream.send, fetch, v());
  settle();
  auto reply = join.in.next(v());
  ASSERT_TRUE(reply && std::holds_alternative<w::FetchOk>(*reply));
  // -18 End is "last + 1": the last object is {1, 3}.
  EXPECT_EQ(std::get<w::FetchOk>(*reply).end, (w::Location{1, 4}));
  join.in.pump();
  EXPECT_TRUE(join.in.fin());

  auto unis = peer->accept_unis();
  ASSERT_EQ(unis.size(), 2u);  // the fetch stream and group 1's subgroup stream
  std::vector<UniBytes> got = read_unis(unis);
  const size_t fetch_at = got[0].fetch() ? 0 : 1;
  ASSERT_TRUE(got[fetch_at].fetch());
  ASSERT_FALSE(got[1 - fetch_at].fetch());
  FetchStream fs = parse_fetch(got[fetch_at], v());
  EXPECT_EQ(fs.request_id, 2u);
  EXPECT_TRUE(fs.fin);
  EXPECT_EQ(fs.objects, locations({{0, 3}, {1, 4}}));

  // The subscription continues group 1 from object 4: nothing repeated.
  ASSERT_TRUE(open.write_frame(4, Bytes::copy("g1")));
  settle();
  MessageStream data(unis[1 - fetch_at].get());
  data.bytes() = got[1 - fetch_at].bytes;  // the header read before
  data.pump();
  const Decoded<w::SubgroupHeader> h = w::decode_subgroup_header(data.bytes());
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h.value.group_id, 1u);
  EXPECT_FALSE(h.value.first_object);  // starts in the middle of the group
  w::SubgroupStreamState st;
  const Decoded<w::SubgroupObject> obj = w::decode_subgroup_object(
      std::span<const uint8_t>(data.bytes()).subspan(h.consumed), h.value, st);
  ASSERT_TRUE(obj.ok());
  EXPECT_EQ(obj.value.object_id, 4u);
}

TEST_P(JoiningFetchTest, AbsoluteJoiningFetch) {
  RawRequest sub = peer->open_request();
  w::Subscribe m = subscribe_message(0);
  w::SubscriptionFilter f;
  f.type = w::SubscriptionFilterType::LargestObject;
  m.params.subscription_filter = f;
  subscribe(sub, m);
  RawRequest join = peer->open_request();
  w::Fetch fetch;
  fetch.request_id = 2;
  fetch.fetch_type = w::FetchType::AbsoluteJoining;
  fetch.joining_request_id = 0;
  fetch.joining_start = 1;  // from group 1
  send_message(*join.stream.send, fetch, v());
  settle();
  auto unis = peer->accept_unis();
  EXPECT_EQ(the_fetch(unis, v()).objects, locations({{1, 4}}));
}

TEST_P(JoiningFetchTest, UnknownJoiningRequestIdIsRefused) {
  RawRequest join = peer->open_request();
  w::Fetch fetch;
  fetch.request_id = 0;
  fetch.fetch_type = w::FetchType::RelativeJoining;
  fetch.joining_request_id = 8;
  send_message(*join.stream.send, fetch, v());
  settle();
  auto reply = join.in.next(v());
  ASSERT_TRUE(reply && std::holds_alternative<w::RequestError>(*reply));
  EXPECT_EQ(std::get<w::RequestError>(*reply).error_code,
            uint64_t(w::RequestErrorCode::InvalidJoiningRequestId));
  EXPECT_FALSE(session->is_closed());
}

// -22 only.
class FillTest : public JoinFillTest {
 protected:
  w::Subscribe next_object_with_fill(uint64_t id, uint64_t start_group) {
    w::Subscribe m = subscribe_message(id);
    w::LocationFilter next;
    next.type = w::LocationFilterType::NextObject;
    m.params.location_filter = next;
    w::LocationFilter back;
    back.type = w::LocationFilterType::RelativeStart;
    back.start_group = start_group;
    w::FillParameters fill;
    fill.location_filter = back;
    m.params.fill = fill;
    return m;
  }
};

TEST_P(FillTest, FillStreamCarriesTheSubscribesRequestIdAndNoFetchOk) {
  RawRequest sub = peer->open_request();
  w::SubscribeOk ok = subscribe(sub, next_object_with_fill(0, 2));  // the previous group on
  ASSERT_TRUE(ok.params.largest_object);
  auto unis = peer->accept_unis();
  ASSERT_EQ(unis.size(), 2u);  // the fill stream and group 1's subgroup stream (objects > 3)
  FetchStream fs = the_fetch(unis, v());
  EXPECT_EQ(fs.request_id, 0u);  // the SUBSCRIBE's own Request ID
  EXPECT_TRUE(fs.fin);
  EXPECT_EQ(fs.objects, locations({{0, 3}, {1, 4}}));
  // No FETCH_OK on the subscription's stream: only SUBSCRIBE_OK came.
  EXPECT_FALSE(sub.in.next(v()));
}

TEST_P(FillTest, CurrentGroupFillAndEmptyTrackOpensNoStream) {
  RawRequest sub = peer->open_request();
  subscribe(sub, next_object_with_fill(0, 1));
  auto unis = peer->accept_unis();
  EXPECT_EQ(the_fetch(unis, v()).objects, locations({{1, 4}}));

  TrackProducer empty = std::move(broadcast.create_track("empty").value());
  RawRequest sub2 = peer->open_request();
  w::Subscribe m = next_object_with_fill(2, 1);
  m.track_name = "empty";
  w::SubscribeOk ok = subscribe(sub2, m);
  EXPECT_FALSE(ok.params.largest_object);
  EXPECT_TRUE(peer->accept_unis().empty());  // an empty range opens no stream
}

INSTANTIATE_TEST_SUITE_P(Draft18, JoiningFetchTest, ::testing::Values(Version::Transport18),
                         version_label);
INSTANTIATE_TEST_SUITE_P(Draft22, FillTest, ::testing::Values(Version::Transport22), version_label);

}  // namespace
}  // namespace moq::session::testing
