// `moqbench relay` as a QUIC server on a free loopback port: a publisher and a viewer of each
// implemented version connect to it over real QUIC, a group crosses it, every session is logged
// with -v, and SIGTERM shuts it down cleanly (exit 0).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <regex>

#include "model/data/data.h"
#include "model/session/create_session.h"
#include "model/session/session.h"
#include "sim/quic/endpoint.h"
#include "sim/quic/udp.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary of this build"
#endif

namespace moq::sim::quic::testing {
namespace {

using moq::harness::testing::RunningProcess;
using ::testing::HasSubstr;

// A client of the relay: its own socket and endpoint, one connection, one session.
struct Client {
  Client(Executor& ex, UdpLoop& loop, Entropy& entropy)
      : loop(&loop),
        socket(std::move(*UdpSocket::bind(Address::ipv4(0x7f000001, 0)))),
        endpoint(ex, *socket, entropy) {
    loop.add(*socket);
  }
  ~Client() {
    session.reset();
    conn.reset();
    loop->remove(*socket);
  }
  UdpLoop* loop;
  std::unique_ptr<UdpSocket> socket;
  QuicEndpoint endpoint;
  std::unique_ptr<QuicConnection> conn;
  std::unique_ptr<session::Session> session;
};

class RelayServerTest : public ::testing::Test {
 protected:
  RelayServerTest() : executor_(clock_), loop_(executor_) {}

  // Connects a client speaking version to the relay and starts its session.
  std::unique_ptr<Client> connect(session::Version version, session::SessionConfig config) {
    auto c = std::make_unique<Client>(executor_, loop_, entropy_);
    Result<std::unique_ptr<QuicConnection>> conn = c->endpoint.connect(
        relay_, std::string(session::version_alpn(version)), TlsTrust::anything().value());
    EXPECT_TRUE(conn) << conn.error().message;
    if (!conn) return nullptr;
    c->conn = std::move(*conn);
    Status st = loop_.run_until([&] { return c->conn->established() || c->conn->close_error(); },
                                3'000'000'000, "connecting to the relay");
    EXPECT_TRUE(st.ok()) << st.error().message;
    EXPECT_FALSE(c->conn->close_error()) << c->conn->close_error()->message;
    Result<std::unique_ptr<session::Session>> s =
        session::create_session(*c->conn, version, std::move(config));
    EXPECT_TRUE(s) << s.error().message;
    if (s) c->session = std::move(*s);
    return c;
  }

  void wait(uint64_t ns) {
    const uint64_t until = executor_.now_ns() + ns;
    (void)loop_.run_until([&] { return executor_.now_ns() >= until; }, ns + 1'000'000'000, "wait");
  }

  RealClock clock_;
  Executor executor_;
  UdpLoop loop_;
  SystemEntropy entropy_;
  Address relay_;
};

TEST_F(RelayServerTest, EveryVersionPublishesAndViewsThroughItAndSigtermStopsIt) {
  RunningProcess relay({MOQBENCH, "relay", "--listen", "127.0.0.1:0", "-v"});
  const std::string banner = relay.wait_for_stderr_line("listening on", std::chrono::seconds(10));
  ASSERT_FALSE(banner.empty()) << relay.stderr_so_far();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(banner, m, std::regex("listening on 127\\.0\\.0\\.1:([0-9]+)")))
      << banner;
  relay_ = Address::ipv4(0x7f000001, static_cast<uint16_t>(std::stoi(m[1])));
  EXPECT_THAT(banner, HasSubstr("moq-lite-06"));
  EXPECT_THAT(banner, HasSubstr("moqt-22"));

  size_t sessions = 0;
  for (session::Version version : session::implemented_versions()) {
    SCOPED_TRACE(std::string(session::version_alpn(version)));
    const Path path("bench/" + std::string(session::version_alpn(version)));
    OriginProducer origin = OriginProducer::create();
    BroadcastProducer broadcast = BroadcastProducer::create(clock_);
    Result<TrackProducer> track = broadcast.create_track("video", TrackInfo{});
    ASSERT_TRUE(track);
    ASSERT_TRUE(origin.publish(path, broadcast.consume()));
    session::SessionConfig serve;
    serve.publish = origin.consume();
    std::unique_ptr<Client> publisher = connect(version, std::move(serve));
    ASSERT_TRUE(publisher && publisher->session);
    wait(100'000'000);  // the announcement reaches the relay
    std::unique_ptr<Client> viewer = connect(version, {});
    ASSERT_TRUE(viewer && viewer->session);
    Result<TrackConsumer> sub = viewer->session->subscribe(path, "video");
    ASSERT_TRUE(sub) << sub.error().message;
    wait(100'000'000);  // the subscription reaches the publisher through the relay
    Result<GroupProducer> group = track->append_group();
    ASSERT_TRUE(group);
    for (uint64_t f = 0; f < 4; ++f)
      ASSERT_TRUE(group->write_frame(f, Bytes::copy("frame " + std::to_string(f))));
    ASSERT_TRUE(group->finish());
    GroupConsumer got;
    std::vector<std::string> frames;
    Status st = loop_.run_until(
        [&] {
          if (!got && sub->next(got) != Next::Ready) return false;
          FrameView frame;
          for (;;) {
            const Next n = got.next(frame);
            if (n == Next::Ready) {
              frames.emplace_back(frame.payload().view());
              continue;
            }
            return n == Next::End;
          }
        },
        3'000'000'000, "the group through the relay");
    ASSERT_TRUE(st.ok()) << st.error().message << "\n" << relay.stderr_so_far();
    EXPECT_EQ(frames, (std::vector<std::string>{"frame 0", "frame 1", "frame 2", "frame 3"}));
    sessions += 2;
    viewer->session.reset();
    publisher->session.reset();
  }

  relay.signal(SIGTERM);
  moq::harness::testing::ProcessResult r = relay.wait();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("session from 127.0.0.1:"));
  EXPECT_THAT(r.err,
              HasSubstr("stopped by signal; " + std::to_string(sessions) + " sessions served"));
}

TEST_F(RelayServerTest, BadArgumentsAreRefusedNamingThem) {
  moq::harness::testing::ProcessResult r =
      moq::harness::testing::run_process({MOQBENCH, "relay", "--listen", "127.0.0.1:99999"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--listen"));
  r = moq::harness::testing::run_process({MOQBENCH, "relay", "--cert", "/nonexistent.pem"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--cert and --key go together"));
  r = moq::harness::testing::run_process(
      {MOQBENCH, "relay", "--cert", "/nonexistent.pem", "--key", "/nonexistent.key"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent.pem"));
}

}  // namespace
}  // namespace moq::sim::quic::testing
