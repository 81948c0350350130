// The ws world's carrier over loopback TCP, in one process: a WsListener and WsClients on one
// UdpLoop. The client gets its QMux connection once the server's transport parameters arrived,
// stream bytes cross both ways as one frame per message, closes reach the other side with their
// reason, and a refused client hears the server's reason. (A peer that vanishes without a close
// is tested against moqbench relay --ws: relay_ws_test.cpp.)
#include <gtest/gtest.h>

#include <string>

#include "sim/ws/ws_client.h"
#include "sim/ws/ws_listener.h"

namespace moq::sim::ws {
namespace {

constexpr uint64_t kSecond = 1'000'000'000;

class WsCarrierTest : public ::testing::Test {
 protected:
  WsCarrierTest() : executor_(clock_), loop_(executor_) {
    WsCarrierSettings settings;
    settings.alpns = {"moq-lite-06", "moqt-18"};
    auto l = WsListener::listen(executor_, loop_, Address::ipv4(0x7f000001, 0), settings,
                                [this](const std::string& line) { log_ += line + "\n"; });
    EXPECT_TRUE(l) << l.error().message;
    listener_ = std::move(*l);
    url_ = "ws://127.0.0.1:" + std::to_string(listener_->address().port()) + "/moq";
  }

  // The server side of the next connection.
  std::unique_ptr<WsCarrier> accept() {
    std::unique_ptr<WsCarrier> c;
    Status st = loop_.run_until([&] { return (c = listener_->accept()) != nullptr; }, 3 * kSecond,
                                "accepting");
    EXPECT_TRUE(st.ok()) << st.error().message;
    return c;
  }

  // Reads everything the stream has until its FIN.
  std::string read_to_fin(RecvStream& s) {
    std::string got;
    Status st = loop_.run_until(
        [&] {
          for (;;) {
            Bytes chunk;
            const ReadResult r = s.read(chunk);
            if (r.status == ReadStatus::Data) {
              got += chunk.view();
              continue;
            }
            return r.status == ReadStatus::Fin;
          }
        },
        3 * kSecond, "reading a stream");
    EXPECT_TRUE(st.ok()) << st.error().message;
    return got;
  }

  quic::RealClock clock_;
  Executor executor_;
  quic::UdpLoop loop_;
  std::unique_ptr<WsListener> listener_;
  std::string url_;
  std::string log_;
};

TEST_F(WsCarrierTest, TheClientGetsTheServersChoiceAndStreamsCrossBothWays) {
  auto client = WsClient::connect(executor_, loop_, url_, {"moqt-18", "moq-lite-06"}, 3 * kSecond);
  ASSERT_TRUE(client) << client.error().message;
  EXPECT_EQ((*client)->subprotocol(), "qmux-00.moq-lite-06");
  EXPECT_EQ((*client)->connection().alpn(), "moq-lite-06");
  EXPECT_TRUE((*client)->qmux().established());
  std::unique_ptr<WsCarrier> server = accept();
  ASSERT_TRUE(server);
  EXPECT_EQ(server->connection()->alpn(), "moq-lite-06");
  EXPECT_FALSE(server->connection()->is_client());

  // Larger than one frame's payload, so it crosses as several messages.
  const std::string payload(40000, 'p');
  Result<BidiStream> bidi = (*client)->connection().open_bidi();
  ASSERT_TRUE(bidi && *bidi);
  BufChain data;
  data.push(Bytes::copy(payload));
  Status st = loop_.run_until(
      [&] {
        (void)bidi->send->write(data);
        return data.empty();
      },
      3 * kSecond, "writing");
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_TRUE(bidi->send->finish());
  Result<BidiStream> accepted = BidiStream{};
  st = loop_.run_until(
      [&] {
        accepted = server->connection()->accept_bidi();
        return !accepted || *accepted;
      },
      3 * kSecond, "accepting the stream");
  ASSERT_TRUE(st.ok() && accepted) << st.error().message;
  EXPECT_EQ(read_to_fin(*accepted->recv), payload);
  BufChain reply;
  reply.push(Bytes::copy("reply"));
  ASSERT_EQ(*accepted->send->write(reply), 5u);
  ASSERT_TRUE(accepted->send->finish());
  EXPECT_EQ(read_to_fin(*bidi->recv), "reply");
  EXPECT_GT((*client)->qmux().wire().frames_received, 3u);
}

TEST_F(WsCarrierTest, AnApplicationCloseReachesThePeerAndBothEndsFinish) {
  auto client = WsClient::connect(executor_, loop_, url_, {"moqt-18"}, 3 * kSecond);
  ASSERT_TRUE(client) << client.error().message;
  std::unique_ptr<WsCarrier> server = accept();
  ASSERT_TRUE(server);
  server->connection()->close(7, "done here");
  Status st = loop_.run_until([&] { return server->finished() && (*client)->finished(); },
                              3 * kSecond, "closing");
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_TRUE((*client)->connection().close_error());
  EXPECT_EQ((*client)->connection().close_error()->code, 7u);
  EXPECT_EQ((*client)->connection().close_error()->message, "done here");
  EXPECT_NE(server->end_reason().find("(WebSocket close code 1000)"), std::string::npos)
      << server->end_reason();
}

TEST_F(WsCarrierTest, DroppingTheClientClosesItsConnectionAtTheServer) {
  auto client = WsClient::connect(executor_, loop_, url_, {"moqt-18"}, 3 * kSecond);
  ASSERT_TRUE(client) << client.error().message;
  std::unique_ptr<WsCarrier> server = accept();
  ASSERT_TRUE(server);
  client->reset();
  Status st = loop_.run_until([&] { return server->finished(); }, 3 * kSecond, "the server");
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_TRUE(server->connection()->close_error());
  EXPECT_EQ(server->connection()->close_error()->message, "connection dropped");
}

TEST_F(WsCarrierTest, ARefusedClientHearsTheServersReason) {
  auto client = WsClient::connect(executor_, loop_, url_, {"moqt-17"}, 3 * kSecond);
  ASSERT_FALSE(client);
  EXPECT_NE(client.error().message.find("HTTP 400"), std::string::npos) << client.error().message;
  EXPECT_NE(client.error().message.find("offered qmux-00.moqt-17"), std::string::npos)
      << client.error().message;
  Status st = loop_.run_until(
      [&] { return !listener_->accept() && log_.find("refused") != std::string::npos; },
      3 * kSecond, "the server's log line");
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_NE(log_.find("refused a WebSocket from 127.0.0.1:"), std::string::npos) << log_;
  EXPECT_NE(log_.find("no supported WebSocket subprotocol"), std::string::npos) << log_;
}

TEST(WsListenerTimeout, AConnectionThatNeverUpgradesIsDroppedWithAReason) {
  quic::RealClock clock;
  Executor executor(clock);
  quic::UdpLoop loop(executor);
  WsCarrierSettings settings;
  settings.alpns = {"moqt-18"};
  settings.handshake_timeout_ns = 50'000'000;
  std::string log;
  auto l = WsListener::listen(executor, loop, Address::ipv4(0x7f000001, 0), settings,
                              [&](const std::string& line) { log += line + "\n"; });
  ASSERT_TRUE(l) << l.error().message;
  // A TCP connection that sends nothing at all.
  auto silent = TcpConnection::connect(loop, (*l)->address());
  ASSERT_TRUE(silent) << silent.error().message;
  Status st = loop.run_until(
      [&] {
        EXPECT_FALSE((*l)->accept());
        return !log.empty();
      },
      3 * kSecond, "the listener dropping it");
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_NE(log.find("refused a WebSocket from 127.0.0.1:"), std::string::npos) << log;
  EXPECT_NE(log.find("no upgrade in time"), std::string::npos) << log;
}

TEST_F(WsCarrierTest, AServerThatNeverAnswersIsATimeoutNamingTheUrl) {
  // A TCP listener that takes connections (its backlog) and never says a word.
  auto mute = TcpListener::listen(loop_, Address::ipv4(0x7f000001, 0));
  ASSERT_TRUE(mute) << mute.error().message;
  const std::string url = "ws://127.0.0.1:" + std::to_string((*mute)->local_address().port());
  auto c = WsClient::connect(executor_, loop_, url, {"moqt-18"}, 200'000'000);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("WebSocket connect to " + url + ": no answer within 200 ms"),
            std::string::npos)
      << c.error().message;
}

TEST_F(WsCarrierTest, NothingListeningAndBadUrlsFailNamingTheUrl) {
  const std::string dead = "ws://127.0.0.1:1/";
  auto c = WsClient::connect(executor_, loop_, dead, {"moqt-18"}, 3 * kSecond);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find(dead), std::string::npos) << c.error().message;
  EXPECT_NE(c.error().message.find("refused"), std::string::npos) << c.error().message;
  for (const std::string bad : {"wss://127.0.0.1:1/", "http://127.0.0.1:1/", "ws:///x"}) {
    c = WsClient::connect(executor_, loop_, bad, {"moqt-18"}, kSecond);
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find(bad), std::string::npos) << c.error().message;
  }
}

}  // namespace
}  // namespace moq::sim::ws
