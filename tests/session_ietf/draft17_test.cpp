// Our moq-transport-17 session as the server a @moq/lite client reaches (through a relay's
// WebSocket listener), against a hand-driven peer that behaves as the package does: it writes its
// SETUP only after ours arrived, publishes a namespace, answers our SUBSCRIBE with its own
// SUBSCRIBE_OK bytes, sends 0x18 subgroup streams, and ends the subscription with FIN alone. The
// peer's bytes are those of the package's ietf/*.js (tests/wire_ietf/draft17_test.cpp checks the
// codec against the same bytes).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "model/session/ietf/ietf_session.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"
#include "tests/session_ietf/fixture.h"
#include "tests/session_ietf/raw_peer.h"

namespace moq::session::testing {
namespace {

constexpr w::IetfVersion k17 = w::IetfVersion::Draft17;

std::string hex_of(std::span<const uint8_t> b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t c : b) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::vector<uint8_t> with_text(std::vector<uint8_t> head, std::string_view text,
                               std::vector<uint8_t> tail = {}) {
  head.insert(head.end(), text.begin(), text.end());
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

class Draft17Server : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::memory::PairConfig cfg;
    cfg.alpn = "moqt-17";
    auto pair = sim::memory::make_pair(executor, cfg);
    ASSERT_TRUE(pair) << pair.error().message;
    client_conn = std::move(pair->client);
    server_conn = std::move(pair->server);
    origin = OriginProducer::create();
    broadcast = BroadcastProducer::create(clock);
    ASSERT_TRUE(origin.publish(Path("live/cam"), broadcast.consume()));
    track = std::move(broadcast.create_track("video").value());
    SessionConfig config;
    config.publish = origin.consume();
    auto s = ietf::create_ietf_session(*server_conn, Version::Transport17, config);
    ASSERT_TRUE(s) << s.error().message;
    session = std::move(*s);
    peer = std::make_unique<RawPeer>(*client_conn, k17);
  }

  void settle() {
    RunReport r = executor.run_until_idle(1'000'000);
    ASSERT_FALSE(r.budget_exhausted) << r.detail;
  }

  // What the JS client does first: wait for the server's first uni stream, read SETUP there,
  // then send its own ("moq-lite-js") on its first uni stream.
  void handshake() {
    settle();
    auto unis = peer->accept_unis();
    ASSERT_EQ(unis.size(), 1u) << "the server opened no control stream by itself";
    session_control = std::move(unis[0]);
    control_in.reset(session_control.get());
    control_in.pump();
    ASSERT_GE(control_in.bytes().size(), 2u);
    EXPECT_EQ(hex_of(std::span<const uint8_t>(control_in.bytes()).first(2)), "af 00");
    auto setup = control_in.next(k17);
    ASSERT_TRUE(setup && std::holds_alternative<w::Setup>(*setup));
    auto u = client_conn->open_uni();
    ASSERT_TRUE(u && *u);
    js_control = std::move(*u);
    write_bytes(*js_control, with_text({0xaf, 0x00, 0x00, 0x0d, 0x07, 0x0b}, "moq-lite-js"));
    settle();
    ASSERT_FALSE(session->is_closed()) << session->error()->message;
  }

  // A JS subgroup stream: type 0x18, the alias, the group, priority 0, then each frame as Object
  // ID Delta 0, length, payload (an empty payload followed by status 0), then FIN.
  void js_group(uint64_t alias, uint64_t group, const std::vector<std::string>& frames) {
    std::vector<uint8_t> b = {0x18, uint8_t(alias), uint8_t(group), 0x00};
    for (const std::string& f : frames) {
      b.push_back(0x00);
      b.push_back(uint8_t(f.size()));
      b.insert(b.end(), f.begin(), f.end());
      if (f.empty()) b.push_back(0x00);
    }
    auto s = client_conn->open_uni();
    ASSERT_TRUE(s && *s);
    write_bytes(**s, b);
    ASSERT_TRUE((*s)->finish());
  }

  sim::VirtualClock clock;
  Executor executor{clock};
  std::unique_ptr<sim::memory::MemoryConnection> client_conn, server_conn;
  OriginProducer origin;
  BroadcastProducer broadcast;
  TrackProducer track;
  std::unique_ptr<Session> session;
  std::unique_ptr<RawPeer> peer;
  RecvStreamPtr session_control;
  MessageStream control_in;
  SendStreamPtr js_control;
};

TEST_F(Draft17Server, TheServerSendsSetupFirstAndNothingAfterIt) {
  handshake();
  // GOAWAY would close a JS session: goaway() refuses new requests without sending it.
  ASSERT_TRUE(session->goaway("moqt://elsewhere.example/"));
  settle();
  control_in.pump();
  EXPECT_TRUE(control_in.bytes().empty()) << hex_of(control_in.bytes());
  EXPECT_FALSE(control_in.fin());
  RawRequest late = peer->open_request();
  write_bytes(*late.stream.send, with_text({0x0d, 0x00, 0x0d, 0x00, 0x00, 0x01, 0x04}, "live",
                                           {0x03, 'c', 'a', 'm', 0x00}));
  settle();
  auto reply = late.in.next(k17);
  ASSERT_TRUE(reply && std::holds_alternative<w::RequestError>(*reply));
  EXPECT_EQ(std::get<w::RequestError>(*reply).error_code, uint64_t(w::RequestErrorCode::GoingAway));
  EXPECT_FALSE(session->is_closed());
}

TEST_F(Draft17Server, AJsPublisherIsSubscribedAndEndsItsTrackWithFin) {
  handshake();
  // bidi 0: PUBLISH_NAMESPACE request 0, delta 0, ["demo"], no parameters (the captured bytes).
  RawRequest pn = peer->open_request();
  write_bytes(*pn.stream.send,
              with_text({0x06, 0x00, 0x09, 0x00, 0x00, 0x01, 0x04}, "demo", {0x00}));
  settle();
  pn.in.pump();
  EXPECT_EQ(hex_of(pn.in.bytes()), "07 00 01 00");  // REQUEST_OK, as the JS expects it

  auto sub = session->subscribe(Path("demo"), "video");
  ASSERT_TRUE(sub) << sub.error().message;
  settle();
  std::optional<RawRequest> req = peer->accept_request();
  ASSERT_TRUE(req);
  req->in.pump();
  // Request ID, then the Required Request ID Delta 0.
  ASSERT_GE(req->in.bytes().size(), 5u);
  EXPECT_EQ(req->in.bytes()[0], 0x03);
  EXPECT_EQ(req->in.bytes()[4], 0x00);
  auto first = req->in.next(k17);
  ASSERT_TRUE(first && std::holds_alternative<w::Subscribe>(*first));
  const w::Subscribe& m = std::get<w::Subscribe>(*first);
  EXPECT_EQ(m.track_namespace.fields, std::vector<std::string>{"demo"});
  EXPECT_EQ(m.track_name, "video");
  // What subscribe.js accepts: FORWARD absent or 1, filter 1 or 2, GROUP_ORDER at most 2.
  EXPECT_TRUE(m.params.forward.value_or(true));
  ASSERT_TRUE(m.params.subscription_filter);
  EXPECT_LE(uint8_t(m.params.subscription_filter->type), 2);
  EXPECT_LE(uint8_t(m.params.group_order.value_or(w::GroupOrder::Descending)), 2);
  // The joining FETCH that follows a live SUBSCRIBE: the JS has no FETCH in -17 and aborts the
  // stream (connection.js: unexpected bidi type), which fails the join alone.
  std::optional<RawRequest> join = peer->accept_request();
  ASSERT_TRUE(join);
  auto fetch = join->in.next(k17);
  ASSERT_TRUE(fetch && std::holds_alternative<w::Fetch>(*fetch));
  EXPECT_EQ(std::get<w::Fetch>(*fetch).fetch_type, w::FetchType::RelativeJoining);
  ASSERT_TRUE(join->stream.send->reset(0));
  join->stream.recv->stop(0);
  settle();
  ASSERT_FALSE(session->is_closed()) << session->error()->message;

  // SUBSCRIBE_OK as the JS writes it: alias = our request ID, params {GROUP_ORDER = 2}.
  ASSERT_LT(m.request_id, 128u);
  const uint8_t alias = uint8_t(m.request_id);
  write_bytes(*req->stream.send, std::vector<uint8_t>{0x04, 0x00, 0x04, alias, 0x01, 0x22, 0x02});
  js_group(alias, 0, {"g0f0", "g0f1"});
  js_group(alias, 1, {"", "x"});
  settle();
  ASSERT_EQ(sub->status(), TrackStatus::Active);
  // The JS ends the subscription: FIN on the request stream and STOP_SENDING, no PUBLISH_DONE.
  ASSERT_TRUE(req->stream.send->finish());
  req->stream.recv->stop(0);
  settle();  // no timer: the JS closes its session right after, so the end cannot wait

  std::vector<std::vector<std::string>> groups;
  GroupConsumer g;
  while (sub->next(g) == Next::Ready) {
    std::vector<std::string> frames;
    Next last;
    for (const Bytes& f : IetfPair::read_all(g, &last))
      frames.emplace_back(f.view());
    EXPECT_EQ(last, Next::End) << "group " << g.sequence();
    groups.push_back(frames);
  }
  EXPECT_EQ(groups, (std::vector<std::vector<std::string>>{{"g0f0", "g0f1"}, {"", "x"}}));
  EXPECT_EQ(sub->status(), TrackStatus::Finished) << "a FIN is the JS track's clean end";
  EXPECT_FALSE(session->is_closed());
}

// moqbench subscribe asks for every group from 0, in order: under -17 that is filter 1
// (NextGroupStart) and GROUP_ORDER 1, both of which subscribe.js accepts, where -18 would send
// AbsoluteStart (3), which it aborts.
TEST_F(Draft17Server, ASubscriptionFromAFloorAsksForWhatTheJsAccepts) {
  handshake();
  TrackPreferences prefs;
  prefs.group_start = 0;
  prefs.ordered = true;
  auto sub = session->subscribe(Path("demo"), "video", prefs);
  ASSERT_TRUE(sub) << sub.error().message;
  settle();
  std::optional<RawRequest> req = peer->accept_request();
  ASSERT_TRUE(req);
  auto first = req->in.next(k17);
  ASSERT_TRUE(first && std::holds_alternative<w::Subscribe>(*first));
  const w::MessageParams& p = std::get<w::Subscribe>(*first).params;
  ASSERT_TRUE(p.subscription_filter);
  EXPECT_EQ(p.subscription_filter->type, w::SubscriptionFilterType::NextGroupStart);
  EXPECT_EQ(p.group_order, w::GroupOrder::Ascending);
  EXPECT_TRUE(p.forward.value_or(true));
  // Not live: no joining FETCH follows.
  EXPECT_FALSE(peer->accept_request());
}

TEST_F(Draft17Server, SubscribeNamespaceFromTheJsGetsNamespaces) {
  handshake();
  // subscribe_namespace.js: 0x11, request 0, delta 0, prefix ["live"], options 1, no params.
  RawRequest sn = peer->open_request();
  write_bytes(*sn.stream.send,
              with_text({0x11, 0x00, 0x0a, 0x00, 0x00, 0x01, 0x04}, "live", {0x01, 0x00}));
  settle();
  sn.in.pump();
  // REQUEST_OK, then NAMESPACE ["cam"] (the suffix under the prefix).
  EXPECT_EQ(hex_of(sn.in.bytes()), "07 00 01 00 08 00 05 01 03 63 61 6d");
  // Options 0 (PUBLISH pushes) are refused, not misread.
  RawRequest pushes = peer->open_request();
  write_bytes(*pushes.stream.send,
              with_text({0x11, 0x00, 0x0a, 0x02, 0x00, 0x01, 0x04}, "live", {0x00, 0x00}));
  settle();
  auto reply = pushes.in.next(k17);
  ASSERT_TRUE(reply && std::holds_alternative<w::RequestError>(*reply));
  EXPECT_EQ(std::get<w::RequestError>(*reply).error_code,
            uint64_t(w::RequestErrorCode::NotSupported));
  EXPECT_FALSE(session->is_closed());
}

TEST_F(Draft17Server, AJsSubscriberGetsObjectsWithoutTheFirstObjectBit) {
  handshake();
  // subscribe.js's SUBSCRIBE (request 0): FORWARD 1, priority 1, filter LargestObject, order 2.
  RawRequest req = peer->open_request();
  write_bytes(
      *req.stream.send,
      with_text(with_text({0x03, 0x00, 0x1c, 0x00, 0x00, 0x02, 0x04}, "live", {0x03}), "cam",
                {0x05, 'v', 'i', 'd', 'e', 'o', 0x04, 0x10, 0x01, 0x10, 0x01, 0x01, 0x01, 0x02,
                 0x01, 0x02}));
  settle();
  auto ok = req.in.next(k17);
  ASSERT_TRUE(ok && std::holds_alternative<w::SubscribeOk>(*ok))
      << (session->is_closed() ? session->error()->message : "");
  GroupProducer g = std::move(track.append_group().value());
  ASSERT_TRUE(g.write_frame(0, Bytes::copy(std::string_view("hello"))));
  ASSERT_TRUE(g.finish());
  settle();
  auto unis = peer->accept_unis();
  ASSERT_EQ(unis.size(), 1u);
  MessageStream data(unis[0].get());
  data.pump();
  ASSERT_FALSE(data.bytes().empty());
  // 0x38: END_OF_GROUP and DEFAULT_PRIORITY, subgroup 0, no FIRST_OBJECT bit (0x40).
  EXPECT_EQ(data.bytes()[0], 0x38);
  Decoded<w::SubgroupHeader> h = w::decode_subgroup_header(data.bytes(), k17);
  ASSERT_TRUE(h.ok()) << h.error.message;
  EXPECT_EQ(h.value.track_alias, std::get<w::SubscribeOk>(*ok).track_alias);
  EXPECT_EQ(hex_of(std::span<const uint8_t>(data.bytes()).subspan(h.consumed)),
            "00 05 68 65 6c 6c 6f");
  // The track ends: FIN alone on the request stream, no PUBLISH_DONE, which the JS would leave
  // unread and so never see the FIN.
  ASSERT_TRUE(track.finish());
  settle();
  req.in.pump();
  EXPECT_TRUE(req.in.bytes().empty()) << hex_of(req.in.bytes());
  EXPECT_TRUE(req.in.fin());
  EXPECT_FALSE(session->is_closed());
}

}  // namespace
}  // namespace moq::session::testing
