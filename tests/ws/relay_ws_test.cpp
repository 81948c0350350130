// moqbench relay --ws from the outside: the real binary on free loopback ports, moqbench's own
// WebSocket clients (sim/ws/ws_client.h) publishing and viewing through it, peers that misbehave
// (no known subprotocol, a malformed QMux frame, data past flow control, a client that vanishes
// mid-stream) each closed with a reason while a well-behaved viewer keeps getting frames, the
// command line's bad values, a port in use, and SIGINT during a session.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <regex>

#include "model/data/data.h"
#include "model/session/create_session.h"
#include "model/session/session.h"
#include "sim/ws/ws_client.h"
#include "tests/harness/subprocess.h"
#include "tests/ws/raw_ws_client.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary of this build"
#endif

namespace moq::sim::ws::testing {
namespace {

using moq::harness::testing::ProcessResult;
using moq::harness::testing::run_process;
using moq::harness::testing::RunningProcess;
using ::testing::HasSubstr;

constexpr uint64_t kSecond = 1'000'000'000;

// A moq session over one WebSocket client.
struct MoqClient {
  ~MoqClient() {
    session.reset();  // before the connection it runs on
    ws.reset();
  }
  std::unique_ptr<WsClient> ws;
  std::unique_ptr<session::Session> session;
};

// One track published through the relay and viewed back.
struct Track {
  OriginProducer origin = OriginProducer::create();
  BroadcastProducer broadcast;
  TrackProducer producer;
  TrackConsumer viewer;
  uint64_t next_group = 0;
};

class RelayWsTest : public ::testing::Test {
 protected:
  RelayWsTest() : executor_(clock_), loop_(executor_) {}

  // Starts the relay with extra arguments; false (and a failure) when no banner came.
  bool start_relay(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {MOQBENCH, "relay",       "--listen", "127.0.0.1:0",
                                     "--ws",   "127.0.0.1:0", "-v"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    relay_ = std::make_unique<RunningProcess>(argv);
    const std::string banner =
        relay_->wait_for_stderr_line("listening on", std::chrono::seconds(10));
    std::smatch m;
    if (!std::regex_search(banner, m, std::regex("WebSocket on 127\\.0\\.0\\.1:([0-9]+)"))) {
      ADD_FAILURE() << "no WebSocket address in the banner: " << relay_->stderr_so_far();
      return false;
    }
    port_ = static_cast<uint16_t>(std::stoi(m[1]));
    url_ = "ws://127.0.0.1:" + m[1].str() + "/";
    return true;
  }

  std::unique_ptr<MoqClient> connect(session::Version version, session::SessionConfig config) {
    auto c = std::make_unique<MoqClient>();
    auto ws = WsClient::connect(executor_, loop_, url_,
                                {std::string(session::version_alpn(version))}, 3 * kSecond);
    EXPECT_TRUE(ws) << ws.error().message;
    if (!ws) return nullptr;
    c->ws = std::move(*ws);
    auto s = session::create_session(c->ws->connection(), version, std::move(config));
    EXPECT_TRUE(s) << s.error().message;
    if (!s) return nullptr;
    c->session = std::move(*s);
    return c;
  }

  // Serves the sockets for ns (turns that wait no longer than what is left).
  void wait(uint64_t ns) {
    const uint64_t until = executor_.now_ns() + ns;
    for (uint64_t now = executor_.now_ns(); now < until; now = executor_.now_ns())
      loop_.turn(until - now);
  }

  // A publisher and a viewer of version on path; the viewer's subscription is live on return.
  void publish_and_view(session::Version version, const Path& path, Track& t,
                        std::unique_ptr<MoqClient>& publisher, std::unique_ptr<MoqClient>& viewer) {
    t.broadcast = BroadcastProducer::create(clock_);
    Result<TrackProducer> track = t.broadcast.create_track("video", TrackInfo{});
    ASSERT_TRUE(track);
    t.producer = std::move(*track);
    ASSERT_TRUE(t.origin.publish(path, t.broadcast.consume()));
    session::SessionConfig serve;
    serve.publish = t.origin.consume();
    publisher = connect(version, std::move(serve));
    ASSERT_TRUE(publisher && publisher->session);
    wait(100'000'000);  // the announcement reaches the relay
    viewer = connect(version, {});
    ASSERT_TRUE(viewer && viewer->session);
    Result<TrackConsumer> sub = viewer->session->subscribe(path, "video");
    ASSERT_TRUE(sub) << sub.error().message;
    t.viewer = std::move(*sub);
    wait(100'000'000);  // the subscription reaches the publisher through the relay
  }

  // Publishes one group of these frames and checks that the viewer gets exactly them, in order.
  void group_crosses(Track& t, const std::vector<std::string>& frames) {
    Result<GroupProducer> group = t.producer.append_group();
    ASSERT_TRUE(group);
    for (uint64_t f = 0; f < frames.size(); ++f)
      ASSERT_TRUE(group->write_frame(f, Bytes::copy(frames[f])));
    ASSERT_TRUE(group->finish());
    const uint64_t want = t.next_group++;
    GroupConsumer got;
    std::vector<std::string> seen;
    Status st = loop_.run_until(
        [&] {
          while (!got || got.sequence() < want) {
            got = GroupConsumer();
            if (t.viewer.next(got) != Next::Ready) return false;
          }
          FrameView frame;
          for (;;) {
            const Next n = got.next(frame);
            if (n != Next::Ready) return n == Next::End;
            std::string& payload = seen.emplace_back();
            for (const Bytes& chunk : frame.chunks)  // a large frame arrives in several chunks
              payload += chunk.view();
          }
        },
        3 * kSecond, "a group through the relay");
    ASSERT_TRUE(st.ok()) << st.error().message << "\n" << relay_->stderr_so_far();
    EXPECT_EQ(got.sequence(), want);
    ASSERT_EQ(seen.size(), frames.size());
    for (size_t f = 0; f < frames.size(); ++f)
      EXPECT_TRUE(seen[f] == frames[f])
          << "frame " << f << ": " << seen[f].size() << " bytes, " << frames[f].size() << " sent";
  }

  // The well-behaved pair a bad-peer test checks on.
  void start_witness() {
    publish_and_view(session::Version::Lite06, Path("witness"), witness_, witness_pub_,
                     witness_view_);
    group_crosses(witness_, {"before"});
  }

  quic::RealClock clock_;
  Executor executor_;
  quic::UdpLoop loop_;
  std::unique_ptr<RunningProcess> relay_;
  uint16_t port_ = 0;
  std::string url_;
  Track witness_;
  std::unique_ptr<MoqClient> witness_pub_, witness_view_;
};

TEST_F(RelayWsTest, LiteAndTransportSessionsCarryFramesOfEverySizeAndSigintCountsThem) {
  ASSERT_TRUE(start_relay());
  const std::string big(20000, 'b');  // more than one QMux frame's payload
  size_t sessions = 0;
  for (session::Version version : {session::Version::Lite06, session::Version::Transport18}) {
    SCOPED_TRACE(std::string(session::version_alpn(version)));
    Track t;
    std::unique_ptr<MoqClient> pub, view;
    publish_and_view(version, Path("bench/" + std::string(session::version_alpn(version))), t, pub,
                     view);
    ASSERT_EQ(pub->ws->connection().alpn(), session::version_alpn(version));
    group_crosses(t, {"", "1", big});
    group_crosses(t, {big, "", big});
    sessions += 2;
    if (version == session::Version::Transport18) {
      // SIGINT while these two sessions are open: each hears the relay's close.
      relay_->signal(SIGINT);
      // Both clients answer the relay's WebSocket close, so that it need not wait for them.
      Status st = loop_.run_until([&] { return view->ws->finished() && pub->ws->finished(); },
                                  3 * kSecond, "the relay's close");
      ASSERT_TRUE(st.ok()) << st.error().message;
      EXPECT_EQ(view->ws->connection().close_error()->message, "relay shutting down");
    }
  }
  ProcessResult r = relay_->wait();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("(WebSocket qmux-00.moq-lite-06) opened"));
  EXPECT_THAT(r.err, HasSubstr("(WebSocket qmux-00.moqt-18) opened"));
  EXPECT_THAT(r.err,
              HasSubstr("stopped by signal; " + std::to_string(sessions) + " sessions served"));
}

TEST_F(RelayWsTest, BadPeersAreClosedWithAReasonAndTheOthersKeepBeingServed) {
  // A small window, so that a peer can run past it in one write.
  ASSERT_TRUE(start_relay({"--test-ws-window", "16384"}));
  start_witness();

  {
    SCOPED_TRACE("no known subprotocol");
    RawWsClient raw(port_);
    ASSERT_TRUE(raw.connected());
    const std::string answer = raw.upgrade("qmux-00, webtransport, qmux-00.moqt-99");
    EXPECT_THAT(answer, HasSubstr("HTTP/1.1 400"));
    EXPECT_THAT(answer, HasSubstr("offered qmux-00, webtransport, qmux-00.moqt-99; supported "
                                  "qmux-00.moq-lite-06"));
    group_crosses(witness_, {"after refusal"});
  }
  {
    SCOPED_TRACE("a malformed QMux frame");
    RawWsClient raw(port_);
    ASSERT_THAT(raw.upgrade("qmux-00.moq-lite-06"), HasSubstr("101"));
    raw.send_binary(js_transport_parameters());
    raw.send_binary(unhex("0a 02"));  // STREAM with LEN, cut after its stream id
    std::string qmux;
    std::optional<RawWsClient::Message> close = raw.read_until_close(&qmux);
    ASSERT_TRUE(close);
    // CONNECTION_CLOSE (0x1c) with FRAME_ENCODING_ERROR (0x07), then the WebSocket close 1002.
    EXPECT_THAT(qmux, HasSubstr(unhex("1c 07 00")));
    EXPECT_THAT(qmux, HasSubstr("STREAM"));
    EXPECT_EQ(close->payload.substr(0, 2), unhex("03 ea"));
    EXPECT_THAT(close->payload, HasSubstr("STREAM"));
    group_crosses(witness_, {"after a malformed frame"});
  }
  {
    SCOPED_TRACE("past flow control");
    RawWsClient raw(port_);
    ASSERT_THAT(raw.upgrade("qmux-00.moq-lite-06"), HasSubstr("101"));
    raw.send_binary(js_transport_parameters());
    const std::string chunk(8000, 'x');
    const std::string frames[3] = {stream_frame(2, chunk), stream_frame(2, chunk),
                                   stream_frame(2, chunk)};
    raw.send_binaries(frames, 3);
    std::string qmux;
    std::optional<RawWsClient::Message> close = raw.read_until_close(&qmux);
    ASSERT_TRUE(close);
    EXPECT_THAT(qmux, HasSubstr(unhex("1c 03")));  // FLOW_CONTROL_ERROR
    EXPECT_THAT(close->payload, HasSubstr("over its limit of 16384"));
    group_crosses(witness_, {"after flow control"});
  }
  {
    SCOPED_TRACE("vanishes mid-stream");
    RawWsClient raw(port_);
    ASSERT_THAT(raw.upgrade("qmux-00.moq-lite-06"), HasSubstr("101"));
    raw.send_binary(js_transport_parameters());
    // A bidi stream's first bytes and part of a message, then TCP goes without a close.
    raw.send_binary(stream_frame(0, unhex("02 20 00 01")));
    ASSERT_TRUE(raw.read_message());  // the relay's transport parameters: it is serving us
    raw.vanish();
    ASSERT_TRUE(relay_->wait_for_stderr("(WebSocket) closed: WebSocket from 127.0.0.1:",
                                        std::chrono::seconds(5)))
        << relay_->stderr_so_far();
    group_crosses(witness_, {"after a vanished peer"});
  }
  relay_->signal(SIGTERM);
  ProcessResult r = relay_->wait();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("refused a WebSocket from 127.0.0.1:"));
  EXPECT_THAT(r.err, HasSubstr("no supported WebSocket subprotocol"));
  EXPECT_THAT(r.err, HasSubstr("QMux protocol error 0x7 from the peer"));
  EXPECT_THAT(r.err, HasSubstr("QMux protocol error 0x3 from the peer"));
  EXPECT_THAT(r.err, HasSubstr("ended: TCP read: Connection reset by peer"));
}

TEST_F(RelayWsTest, BadWsValuesAndAPortInUseAreExit2NamingThem) {
  ProcessResult r =
      run_process({MOQBENCH, "relay", "--listen", "127.0.0.1:0", "--ws", "127.0.0.1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--ws '127.0.0.1': give HOST:PORT"));
  // (No host name to resolve: a test must not wait on DNS.)
  r = run_process({MOQBENCH, "relay", "--listen", "127.0.0.1:0", "--ws", "127.0.0.1:http"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("the port must be a number"));
  r = run_process({MOQBENCH, "relay", "--listen", "127.0.0.1:0", "--ws", ""});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--ws: an empty address"));

  // A port someone already listens on.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(0x7f000001);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const std::string taken = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  r = run_process({MOQBENCH, "relay", "--listen", "127.0.0.1:0", "--ws", taken});
  ::close(fd);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--ws: listening on TCP " + taken + ": Address already in use"));
}

}  // namespace
}  // namespace moq::sim::ws::testing
