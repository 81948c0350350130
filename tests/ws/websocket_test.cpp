// The WebSocket adapter (sim/ws/websocket.h) in memory: the upgrade and the subprotocol choice
// against clients written by hand (the ws package's comma list, Node's ", " list, a refusal and
// its reason, permessage-deflate declined) and against the adapter's own client (binary messages
// both ways, text ignored, close codes and reasons).
#include "sim/ws/websocket.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/ws/subprotocol.h"

namespace moq::sim::ws {
namespace {

const std::vector<std::string> kAlpns = {"moq-lite-06", "moqt-18"};

// One end's events, recorded.
struct Recorder {
  std::string out;  // bytes to send
  std::string opened;
  std::vector<std::string> messages;
  int closes = 0;
  uint16_t close_code = 0;
  std::string close_reason;

  WebSocketEvents events() {
    WebSocketEvents e;
    e.on_open = [this](const std::string& p) { opened = p; };
    e.on_binary = [this](const uint8_t* d, size_t n) {
      messages.emplace_back(reinterpret_cast<const char*>(d), n);
    };
    e.on_closed = [this](uint16_t code, const std::string& reason) {
      ++closes;
      close_code = code;
      close_reason = reason;
    };
    e.on_output = [this](const uint8_t* d, size_t n) {
      out.append(reinterpret_cast<const char*>(d), n);
    };
    return e;
  }
};

std::unique_ptr<WebSocket> make_server(Recorder& r) {
  return WebSocket::server(
      [](const std::vector<std::string>& offered, std::string& out) {
        return choose_subprotocol(offered, kAlpns, out);
      },
      r.events());
}

void feed(WebSocket& ws, std::string& bytes) {
  const std::string b = std::move(bytes);
  bytes.clear();
  ws.receive(reinterpret_cast<const uint8_t*>(b.data()), b.size());
}

std::string upgrade_request(const std::string& protocols, const std::string& extra = "") {
  return "GET /moq?x=1 HTTP/1.1\r\nHost: 127.0.0.1:4443\r\nUpgrade: websocket\r\n"
         "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
         "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: " +
         protocols + "\r\n" + extra + "\r\n";
}

std::string header_value(const std::string& response, const std::string& name) {
  const size_t at = response.find("\r\n" + name + ": ");
  if (at == std::string::npos) return "";
  const size_t from = at + name.size() + 4;
  return response.substr(from, response.find("\r\n", from) - from);
}

TEST(WsAdapter, TheWsPackagesCommaListGetsTheServersChoiceAndNoExtension) {
  Recorder r;
  auto server = make_server(r);
  std::string req = upgrade_request(
      "qmux-00,webtransport,qmux-00.moqt-18,webtransport.moqt-18,qmux-00.moq-lite-06,"
      "webtransport.moq-lite-06",
      "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n");
  feed(*server, req);
  EXPECT_EQ(r.out.substr(0, 12), "HTTP/1.1 101") << r.out;
  EXPECT_EQ(header_value(r.out, "Sec-WebSocket-Protocol"), "qmux-00.moq-lite-06") << r.out;
  // The RFC's sample key gives the RFC's sample accept value.
  EXPECT_EQ(header_value(r.out, "Sec-WebSocket-Accept"), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  EXPECT_EQ(r.out.find("Sec-WebSocket-Extensions"), std::string::npos) << r.out;
  EXPECT_EQ(r.opened, "qmux-00.moq-lite-06");
  EXPECT_EQ(server->state(), WebSocket::State::Open);
}

TEST(WsAdapter, NodesCommaSpaceListIsReadToo) {
  Recorder r;
  auto server = make_server(r);
  std::string req = upgrade_request("qmux-00, webtransport, qmux-00.moqt-18, webtransport.moqt-18");
  feed(*server, req);
  EXPECT_EQ(header_value(r.out, "Sec-WebSocket-Protocol"), "qmux-00.moqt-18") << r.out;
  EXPECT_EQ(r.opened, "qmux-00.moqt-18");
}

TEST(WsAdapter, NoKnownSubprotocolIsAnHttp400NamingWhatWasOfferedAndSupported) {
  for (const std::string offer : {"qmux-00, webtransport", "qmux-00.moqt-17", "webtransport"}) {
    Recorder r;
    auto server = make_server(r);
    std::string req = upgrade_request(offer);
    feed(*server, req);
    EXPECT_EQ(r.out.substr(0, 12), "HTTP/1.1 400") << r.out;
    EXPECT_NE(r.out.find("no supported WebSocket subprotocol: offered " + offer), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("supported qmux-00.moq-lite-06, qmux-00.moqt-18"), std::string::npos)
        << r.out;
    EXPECT_EQ(r.opened, "");
    EXPECT_EQ(r.closes, 1);
    EXPECT_NE(r.close_reason.find("handshake refused: no supported"), std::string::npos)
        << r.close_reason;
  }
}

TEST(WsAdapter, AnUpgradeWithoutSubprotocolsIsRefused) {
  Recorder r;
  auto server = make_server(r);
  std::string req =
      "GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  feed(*server, req);
  EXPECT_EQ(r.out.substr(0, 12), "HTTP/1.1 400") << r.out;
  EXPECT_NE(r.out.find("offered none"), std::string::npos) << r.out;
}

// A client and a server joined in memory.
struct Pair {
  Recorder cr, sr;
  std::unique_ptr<WebSocket> client, server;
  explicit Pair(const std::vector<std::string>& offer) {
    server = make_server(sr);
    std::string why;
    client = WebSocket::client("ws://127.0.0.1:4443/moq", offer, cr.events(), why);
    EXPECT_TRUE(client) << why;
    pump();
  }
  // Moves bytes both ways until neither end has any.
  void pump() {
    while (!cr.out.empty() || !sr.out.empty()) {
      if (!cr.out.empty()) feed(*server, cr.out);
      if (!sr.out.empty()) feed(*client, sr.out);
    }
  }
};

TEST(WsAdapter, ClientOffersInOrderAndBothEndsSeeTheServersChoice) {
  Pair p({"qmux-00.moqt-18", "qmux-00.moq-lite-06"});
  EXPECT_EQ(p.cr.opened, "qmux-00.moq-lite-06");
  EXPECT_EQ(p.sr.opened, "qmux-00.moq-lite-06");
  EXPECT_EQ(p.client->state(), WebSocket::State::Open);
}

TEST(WsAdapter, BinaryMessagesKeepTheirBoundariesBothWays) {
  Pair p({"qmux-00.moqt-18"});
  const std::string big(70000, 'x');
  const std::vector<std::string> sent = {std::string("\x0a\x00\x01\x04", 4), "", big,
                                         std::string(1, '\0')};
  for (const std::string& m : sent) {
    ASSERT_TRUE(p.client->send_binary(reinterpret_cast<const uint8_t*>(m.data()), m.size()));
    ASSERT_TRUE(p.server->send_binary(reinterpret_cast<const uint8_t*>(m.data()), m.size()));
  }
  p.pump();
  EXPECT_EQ(p.sr.messages, sent);
  EXPECT_EQ(p.cr.messages, sent);
}

TEST(WsAdapter, CloseCarriesItsCodeAndReasonToThePeer) {
  Pair p({"qmux-00.moqt-18"});
  p.server->close(1002, "frame 0x1f: unknown frame type");
  p.pump();
  // The server ends TCP after the close handshake (RFC 6455 section 7.1.1); the client waits.
  EXPECT_EQ(p.cr.closes, 0);
  p.client->receive_eof("the peer closed the TCP connection");
  EXPECT_EQ(p.cr.closes, 1);
  EXPECT_EQ(p.cr.close_code, 1002);
  EXPECT_EQ(p.cr.close_reason, "closed by the peer: frame 0x1f: unknown frame type");
  EXPECT_EQ(p.sr.closes, 1);
  EXPECT_EQ(p.server->state(), WebSocket::State::Closed);
  EXPECT_FALSE(p.server->send_binary(reinterpret_cast<const uint8_t*>("a"), 1));
}

TEST(WsAdapter, EofEndsTheConnectionWithItsReason) {
  Pair p({"qmux-00.moqt-18"});
  p.server->receive_eof("the peer closed the TCP connection");
  EXPECT_EQ(p.sr.closes, 1);
  EXPECT_EQ(p.sr.close_code, 1006);
  EXPECT_NE(p.sr.close_reason.find("the peer closed the TCP connection"), std::string::npos)
      << p.sr.close_reason;
}

TEST(WsAdapter, ClientRefusedGetsTheServersReason) {
  Recorder sr, cr;
  auto server = make_server(sr);
  std::string why;
  auto client = WebSocket::client("ws://127.0.0.1:1/", {"qmux-00.moqt-17"}, cr.events(), why);
  ASSERT_TRUE(client) << why;
  feed(*server, cr.out);
  feed(*client, sr.out);
  client->receive_eof("the peer closed the TCP connection");
  EXPECT_EQ(cr.opened, "");
  EXPECT_EQ(cr.closes, 1);
  EXPECT_NE(cr.close_reason.find("HTTP 400"), std::string::npos) << cr.close_reason;
  EXPECT_NE(cr.close_reason.find("offered qmux-00.moqt-17"), std::string::npos) << cr.close_reason;
}

TEST(WsAdapter, TextMessagesAreIgnored) {
  // A server-side text frame sent by hand: FIN + opcode 1, unmasked, "hi"; then a binary "ok".
  Pair p({"qmux-00.moqt-18"});
  const std::string frames = std::string("\x81\x02hi", 4) + std::string("\x82\x02ok", 4);
  p.client->receive(reinterpret_cast<const uint8_t*>(frames.data()), frames.size());
  ASSERT_EQ(p.cr.messages.size(), 1u);
  EXPECT_EQ(p.cr.messages[0], "ok");
}

TEST(WsAdapter, BadUrlsAreRefusedByName) {
  Recorder r;
  std::string why;
  EXPECT_FALSE(WebSocket::client("wss://127.0.0.1/", {"qmux-00.moqt-18"}, r.events(), why));
  EXPECT_NE(why.find("wss://"), std::string::npos) << why;
  EXPECT_FALSE(WebSocket::client("not a url", {"qmux-00.moqt-18"}, r.events(), why));
  EXPECT_NE(why.find("not a url"), std::string::npos) << why;
}

}  // namespace
}  // namespace moq::sim::ws
