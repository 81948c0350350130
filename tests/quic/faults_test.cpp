// Bad input and faults over QUIC end with an error that names the cause, never a hang or a
// crash: a wrong ALPN, an untrusted certificate, a peer that vanishes, a port with nothing
// listening, and a datagram of random bytes.
#include <gtest/gtest.h>

#include "sim/quic/udp.h"
#include "tests/quic/quic_fixture.h"

namespace moq::sim::quic::testing {
namespace {

using QuicFaults = QuicTest;

// Starts a client connection and runs until it is established or closed.
std::unique_ptr<QuicConnection> attempt(QuicTest& t, Executor& ex, QuicEndpoint& ep,
                                        const Address& to, const std::string& alpn,
                                        std::shared_ptr<TlsTrust> trust) {
  std::unique_ptr<QuicConnection> c = ok(ep.connect(to, alpn, std::move(trust)));
  Status st = ex.run_until([&] { return c->established() || c->close_error(); }, 5'000'000);
  EXPECT_TRUE(st.ok()) << st.error().message;
  (void)t;
  return c;
}

TEST_F(QuicFaults, AWrongAlpnIsRefusedNamingTheAlpn) {
  build();
  std::unique_ptr<QuicConnection> c =
      attempt(*this, executor_, *client_ep_, server_address(), "moq-nonsense-1", trust_server());
  ASSERT_TRUE(c->close_error());
  EXPECT_FALSE(c->established());
  EXPECT_EQ(c->close_error()->code, transport_error::kHandshakeFailed);
  EXPECT_NE(c->close_error()->message.find("alert 120"), std::string::npos)
      << c->close_error()->message;
  EXPECT_NE(c->close_error()->message.find("moq-nonsense-1"), std::string::npos)
      << c->close_error()->message;
  EXPECT_FALSE(server_ep_->accept()) << "the server accepted nothing";
}

TEST_F(QuicFaults, AnUntrustedCertificateIsRefusedSayingSo) {
  build();
  std::shared_ptr<TlsIdentity> other = ok(TlsIdentity::self_signed());
  std::unique_ptr<QuicConnection> c =
      attempt(*this, executor_, *client_ep_, server_address(), kAlpn,
              ok(TlsTrust::of_pem(other->certificate_pem())));
  ASSERT_TRUE(c->close_error());
  EXPECT_EQ(c->close_error()->code, transport_error::kHandshakeFailed);
  EXPECT_NE(c->close_error()->message.find("NOT trusted"), std::string::npos)
      << c->close_error()->message;
}

TEST_F(QuicFaults, APeerThatVanishesEndsInAnIdleTimeout) {
  QuicSettings s;
  s.idle_timeout_ns = 2'000'000'000;
  build(s, s);
  connect();
  net_->set_loss(1.0);
  run([&] { return client_->close_error().has_value(); });
  EXPECT_EQ(client_->close_error()->code, transport_error::kIdleTimeout);
  EXPECT_NE(client_->close_error()->message.find("idle timeout"), std::string::npos)
      << client_->close_error()->message;
  EXPECT_NE(client_->close_error()->message.find("2.0 s"), std::string::npos)
      << client_->close_error()->message;
}

TEST_F(QuicFaults, RandomBytesAreIgnoredAndTheConnectionGoesOn) {
  build();
  connect();
  DatagramSocket& stranger = net_->socket();
  SeededEntropy rng(99);
  for (int i = 0; i < 50; ++i) {
    uint8_t junk[1200];
    rng.fill(junk, sizeof junk);
    stranger.send_to(server_address(), {junk, 1 + static_cast<size_t>(i) * 23});
  }
  SendStreamPtr s = ok(client_->open_uni());
  write_all(*s, pattern(1000, 1));
  RecvStreamPtr r = next_uni(*server_);
  EXPECT_EQ(read_all(*r), pattern(1000, 1).view());
  const EndpointStats& st = server_ep_->stats();
  EXPECT_EQ(st.not_quic + st.unknown_id + st.refused_initial, 50u);
  EXPECT_FALSE(server_->close_error());
}

// ---- Real UDP on loopback ----

// A client that hears nothing gives up at its handshake timeout; the real-UDP cases configure a
// short one so that this path ends quickly too.
constexpr uint64_t kHandshakeTimeoutNs = 1'000'000'000;
// How late a loaded machine (sanitizers, two cores shared with a build) may run a due timer.
constexpr uint64_t kLoadedMachineSlackNs = 4'000'000'000;
// A dead port fails through its ICMP error at once or through the handshake timeout at the
// latest: waiting longer than that (and the slack) means a connection did not fail at all.
constexpr uint64_t kDeadPortDeadlineNs = kHandshakeTimeoutNs + kLoadedMachineSlackNs;

QuicSettings short_handshake() {
  QuicSettings s;
  s.handshake_timeout_ns = kHandshakeTimeoutNs;
  return s;
}

// The two ways a connection to nothing may fail, both naming where it went: the port's ICMP
// error, or silence until the handshake timeout (no ICMP error reached it).
void expect_failed_for_nothing_at(const QuicConnection& c, const Address& to) {
  ASSERT_TRUE(c.close_error());
  EXPECT_FALSE(c.established());
  const Error& e = *c.close_error();
  EXPECT_NE(e.message.find(to.to_string()), std::string::npos) << e.message;
  if (e.code == transport_error::kUnreachable) return;
  EXPECT_EQ(e.code, transport_error::kHandshakeFailed) << e.message;
  EXPECT_NE(e.message.find("no QUIC handshake"), std::string::npos) << e.message;
}

class QuicUdp : public ::testing::Test {
 protected:
  QuicUdp() : executor_(clock_), loop_(executor_) {}
  // A loopback port that was just free: bound, noted, closed.
  static Address dead_port() {
    std::unique_ptr<UdpSocket> probe = ok(UdpSocket::bind(Address::ipv4(0x7f000001, 0)));
    return probe->local_address();
  }
  // A socket on a free loopback port, served by the loop.
  std::unique_ptr<UdpSocket> bound_socket() {
    std::unique_ptr<UdpSocket> sock = ok(UdpSocket::bind(Address::ipv4(0x7f000001, 0)));
    loop_.add(*sock);
    return sock;
  }
  RealClock clock_;
  Executor executor_;
  UdpLoop loop_;
  SystemEntropy entropy_;
};

TEST_F(QuicUdp, APortWithNothingListeningFailsNamingTheAddress) {
  const Address dead = dead_port();
  std::unique_ptr<UdpSocket> sock = bound_socket();
  QuicEndpoint ep(executor_, *sock, entropy_, short_handshake());
  std::unique_ptr<QuicConnection> c = ok(ep.connect(dead, "moq-lite-06", ok(TlsTrust::anything())));
  Status st = loop_.run_until([&] { return c->close_error().has_value(); }, kDeadPortDeadlineNs,
                              "connecting to a dead port");
  ASSERT_TRUE(st.ok()) << st.error().message;
  expect_failed_for_nothing_at(*c, dead);
}

TEST_F(QuicUdp, ManyConnectionsToADeadPortAllFailAndNothingCrashes) {
  // Once the first ICMP error is queued, later sends on the socket fail with ECONNREFUSED inside
  // the connections' write loops; the error must be reported from the loop, not from the send.
  const Address dead = dead_port();
  std::unique_ptr<UdpSocket> sock = bound_socket();
  QuicEndpoint ep(executor_, *sock, entropy_, short_handshake());
  std::vector<std::unique_ptr<QuicConnection>> conns;
  conns.reserve(16);
  for (int i = 0; i < 16; ++i)
    conns.push_back(ok(ep.connect(dead, "moq-lite-06", ok(TlsTrust::anything()))));
  Status st = loop_.run_until(
      [&] {
        for (const auto& c : conns)
          if (!c->close_error()) return false;
        return true;
      },
      kDeadPortDeadlineNs, "connecting to a dead port");
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (const auto& c : conns)
    expect_failed_for_nothing_at(*c, dead);
}

TEST_F(QuicUdp, APeerThatNeverAnswersFailsAtTheHandshakeTimeout) {
  // A bound socket nobody reads: the port exists, so no ICMP error comes, and nothing answers.
  std::unique_ptr<UdpSocket> silent = ok(UdpSocket::bind(Address::ipv4(0x7f000001, 0)));
  std::unique_ptr<UdpSocket> sock = bound_socket();
  QuicEndpoint ep(executor_, *sock, entropy_, short_handshake());
  const uint64_t start = clock_.now_ns();
  std::unique_ptr<QuicConnection> c =
      ok(ep.connect(silent->local_address(), "moq-lite-06", ok(TlsTrust::anything())));
  Status st = loop_.run_until([&] { return c->close_error().has_value(); }, kDeadPortDeadlineNs,
                              "connecting to a silent peer");
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_GE(clock_.now_ns() - start, kHandshakeTimeoutNs) << "gave up before the timeout";
  EXPECT_EQ(c->close_error()->code, transport_error::kHandshakeFailed) << c->close_error()->message;
  const std::string within = silent->local_address().to_string() + " within " +
                             std::to_string(kHandshakeTimeoutNs / 1'000'000) + " ms";
  EXPECT_NE(c->close_error()->message.find(within), std::string::npos) << c->close_error()->message;
}

// Records what a socket reports.
struct Heard final : DatagramReceiver {
  void on_datagram(const Address&, std::span<const uint8_t>) override { ++datagrams; }
  void on_unreachable(const Address& to) override { unreachable.push_back(to); }
  int datagrams = 0;
  std::vector<Address> unreachable;
};

TEST_F(QuicUdp, AnIcmpErrorIsReportedAfterASendTookTheSocketsPendingError) {
  // On loopback the ICMP error arrives during the first sendto(); the second sendto() takes the
  // socket's pending error (ECONNREFUSED, nothing sent), so the error is left only in the queue
  // and the socket must read that queue on poll()'s POLLERR rather than wait for another error.
  const Address dead = dead_port();
  std::unique_ptr<UdpSocket> sock = bound_socket();
  Heard heard;
  sock->set_receiver(&heard);
  const uint8_t probe[1] = {0};
  // Loopback is exempt from the kernel's ICMP rate limits; a probe every 10 ms over the dead
  // port deadline still hears an error on a kernel that did limit it.
  const uint64_t end = clock_.now_ns() + kDeadPortDeadlineNs;
  while (heard.unreachable.empty() && clock_.now_ns() < end) {
    (void)sock->send_to(dead, probe);
    (void)sock->send_to(dead, probe);
    loop_.turn(10'000'000);
  }
  ASSERT_FALSE(heard.unreachable.empty())
      << "no ICMP error reported in " << kDeadPortDeadlineNs / 1'000'000 << " ms";
  EXPECT_EQ(heard.unreachable.front(), dead) << heard.unreachable.front().to_string();
  EXPECT_EQ(heard.datagrams, 0);
}

TEST_F(QuicUdp, StreamsCrossLoopbackInOneProcess) {
  std::unique_ptr<UdpSocket> server_sock = bound_socket();
  std::unique_ptr<UdpSocket> client_sock = bound_socket();
  std::shared_ptr<TlsIdentity> id = ok(TlsIdentity::self_signed());
  QuicEndpoint server_ep(executor_, *server_sock, entropy_);
  server_ep.listen(id, {"moq-lite-06"});
  QuicEndpoint client_ep(executor_, *client_sock, entropy_);
  std::unique_ptr<QuicConnection> client = ok(client_ep.connect(
      server_sock->local_address(), "moq-lite-06", ok(TlsTrust::of_pem(id->certificate_pem()))));
  std::unique_ptr<QuicConnection> server;
  ASSERT_TRUE(loop_
                  .run_until(
                      [&] {
                        if (!server) server = server_ep.accept();
                        return (server && client->established()) || client->close_error();
                      },
                      3'000'000'000, "handshake")
                  .ok());
  ASSERT_FALSE(client->close_error()) << client->close_error()->message;
  BidiStream b = ok(client->open_bidi());
  ASSERT_TRUE(b);
  const Bytes data = pattern(500'000, 8);
  BufChain chain;
  chain.push(data);
  BidiStream a;
  std::string got;
  bool finished = false;
  Status st = loop_.run_until(
      [&] {
        if (!chain.empty()) (void)b.send->write(chain);
        if (chain.empty() && !finished) finished = b.send->finish().ok();
        if (!a) a = ok(server->accept_bidi());
        if (!a) return false;
        for (;;) {
          Bytes chunk;
          ReadResult r = a.recv->read(chunk);
          if (r.status == ReadStatus::Data) {
            got.append(chunk.view());
            continue;
          }
          return r.status == ReadStatus::Fin;
        }
      },
      5'000'000'000, "transfer");
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(got, data.view());
  EXPECT_GT(client->wire_stats()->packets_sent, 300u);
}

}  // namespace
}  // namespace moq::sim::quic::testing
