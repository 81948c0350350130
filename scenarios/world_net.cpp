#include "scenarios/world_net.h"

#include <algorithm>
#include <vector>

#include "scenarios/bench_util.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"
#include "sim/net/network.h"
#include "sim/qmux/pipe.h"
#if MOQ_QUIC
#include "sim/quic/endpoint.h"
#include "sim/quic/memnet.h"
#include "sim/quic/udp.h"
#endif

namespace moq::scenarios {

namespace {

constexpr const char* kTransportNames[] = {"memory", "quic-sim", "quic", "qmux"};
// quic-sim's links take this long on their own (one way), before the axes add theirs.
constexpr uint64_t kQuicSimLatencyNs = 500'000;

class MemoryNet final : public WorldNet {
 public:
  MemoryNet(Executor& executor, const sim::net::LinkConfig& link) : WorldNet(executor) {
    if (!link.ideal()) network_ = std::make_unique<sim::net::Network>(executor, link);
  }
  Result<Link> connect(const std::string& alpn, LinkLimits limits) override {
    sim::memory::PairConfig pair;
    pair.alpn = alpn;
    pair.max_bidi = limits.max_bidi;
    pair.conn_window = limits.conn_window;
    pair.network = network_.get();
    Result<sim::memory::ConnectionPair> p = sim::memory::make_pair(*executor_, pair);
    if (!p) return p.error();
    return Link{std::move(p->client), std::move(p->server)};
  }
  size_t own_tasks() const override { return network_ ? 1 : 0; }
  // Quiet: no runnable task and nothing on the way; time moves to each arrival meanwhile.
  Status settle(const char* what, uint64_t step_budget) override {
    for (;;) {
      if (Status st = moq::scenarios::settle(*executor_, what, step_budget); !st) return st;
      if (!network_ || network_->in_flight() == 0) return {};
      executor_->clock().advance_to(network_->next_due());
    }
  }

 private:
  std::unique_ptr<sim::net::Network> network_;
};

// QMux-00 frames on an in-memory byte pipe (sim/qmux/pipe.h): its delivery tasks run on the
// executor, so quiet is an idle executor, as on memory.
class QmuxNet final : public WorldNet {
 public:
  explicit QmuxNet(Executor& executor) : WorldNet(executor) {}
  Result<Link> connect(const std::string& alpn, LinkLimits limits) override {
    sim::qmux::QmuxSettings settings;
    settings.alpn = alpn;
    settings.max_bidi = limits.max_bidi;
    settings.conn_window = limits.conn_window;
    Result<sim::qmux::QmuxPair> p = sim::qmux::make_pipe_pair(*executor_, settings);
    if (!p) return p.error();
    return Link{std::move(p->client), std::move(p->server)};
  }
  Status settle(const char* what, uint64_t step_budget) override {
    return moq::scenarios::settle(*executor_, what, step_budget);
  }
};

#if MOQ_QUIC
namespace q = sim::quic;
namespace net = sim::net;

// What both QUIC worlds share: one certificate, one endpoint pair per link.
class QuicNetBase : public WorldNet {
 protected:
  explicit QuicNetBase(Executor& executor) : WorldNet(executor) {}

  Status ensure_tls() {
    if (identity_) return {};
    Result<std::shared_ptr<q::TlsIdentity>> id = q::TlsIdentity::self_signed();
    if (!id) return id.error();
    Result<std::shared_ptr<q::TlsTrust>> trust = q::TlsTrust::of_pem((*id)->certificate_pem());
    if (!trust) return trust.error();
    identity_ = *id;
    trust_ = *trust;
    return {};
  }

  // Endpoints on the two sockets, a client connection from one to the other, and the wait
  // (run_until) for both ends to be established.
  template <class RunUntil>
  Result<Link> connect_over(q::DatagramSocket& client_socket, q::DatagramSocket& server_socket,
                            q::Entropy& entropy, const std::string& alpn, LinkLimits limits,
                            q::QuicSettings settings, RunUntil&& run_until) {
    if (Status st = ensure_tls(); !st) return st.error();
    settings.max_bidi = limits.max_bidi;
    settings.conn_window = limits.conn_window;
    endpoints_.push_back(
        std::make_unique<q::QuicEndpoint>(*executor_, server_socket, entropy, settings));
    q::QuicEndpoint& server = *endpoints_.back();
    server.listen(identity_, {alpn});
    endpoints_.push_back(
        std::make_unique<q::QuicEndpoint>(*executor_, client_socket, entropy, settings));
    Result<std::unique_ptr<q::QuicConnection>> client =
        endpoints_.back()->connect(server_socket.local_address(), alpn, trust_);
    if (!client) return client.error();
    std::unique_ptr<q::QuicConnection> accepted;
    q::QuicConnection& c = **client;
    Status st = run_until([&] {
      if (!accepted) accepted = server.accept();
      return (accepted && c.established()) || c.close_error().has_value();
    });
    if (!st) return Error{0, "QUIC handshake: " + st.error().message};
    if (c.close_error()) return Error{0, "QUIC handshake: " + c.close_error()->message};
    return Link{std::move(*client), std::move(accepted)};
  }

  // Some connection has stream data or datagrams to send (or, with unacked, bytes in flight).
  bool sending(bool unacked) const {
    for (const std::unique_ptr<q::QuicEndpoint>& ep : endpoints_)
      if (ep->busy(unacked)) return true;
    return false;
  }

  std::shared_ptr<q::TlsIdentity> identity_;
  std::shared_ptr<q::TlsTrust> trust_;
  std::vector<std::unique_ptr<q::QuicEndpoint>> endpoints_;
};

class QuicSimNet final : public QuicNetBase {
 public:
  QuicSimNet(Executor& executor, const sim::net::LinkConfig& link)
      : QuicNetBase(executor), net_(executor, link) {}
  // The endpoints (the base's) use this class's links and entropy: they go first.
  ~QuicSimNet() override { endpoints_.clear(); }
  Result<Link> connect(const std::string& alpn, LinkLimits limits) override {
    q::DatagramSocket& client = net_.socket();
    q::DatagramSocket& server = net_.socket();
    return connect_over(client, server, entropy_, alpn, limits, {},
                        [&](auto&& done) { return executor_->run_until(done, kRoundStepBudget); });
  }
  // Quiet: no runnable task, no datagram on the way, nothing left to send. Time moves to the next
  // timer while not quiet (a delivery, a pacing or loss timer); acknowledgements still due are
  // sent when their timers fire in a later settle. A wait of over a second means nothing can
  // move (idle timeouts are 30 s away): a stuck network is an error, not a long sleep.
  //
  // On a link that loses packets (or duplicates them, or has blackholes), a lost packet is sent
  // again only when its loss timer fires: quiet then also needs every packet acknowledged, and
  // time moves to the network's own next event only (a delivery or a QUIC timer, never a
  // session's timer such as a relay's linger, which would change what the scenario measures),
  // for at most ten seconds ahead, as loss timers back off (ngtcp2 may count bytes in flight with
  // no loss timer armed: with nothing unsent and no timer due, the network is quiet).
  Status settle(const char* what, uint64_t step_budget) override {
    const net::LinkConfig& link = net_.config();
    const bool lossy = link.loss > 0 || link.duplicate > 0 || !link.blackholes.empty();
    for (;;) {
      if (Status st = moq::scenarios::settle(*executor_, what, step_budget); !st) return st;
      const bool unsent = net_.in_flight() != 0 || sending(false);
      if (!unsent && !(lossy && sending(true))) return {};
      const uint64_t now = executor_->now_ns();
      const uint64_t next = lossy ? network_next_event() : executor_->next_deadline();
      const uint64_t longest_wait = lossy ? 10'000'000'000 : 1'000'000'000;
      const bool soon = next != UINT64_MAX && next <= now + longest_wait;
      // Only unacknowledged packets and no loss timer armed: nothing more will be sent.
      if (!unsent && !soon) return {};
      if (!soon)
        return Error{0, std::string(what) +
                            ": quic-sim: data waits to be sent but no timer is due "
                            "soon enough (" +
                            executor_->describe_parked() + ")"};
      executor_->clock().advance_to(next);
    }
  }

 private:
  uint64_t network_next_event() const {
    uint64_t next = net_.next_due();
    for (const std::unique_ptr<q::QuicEndpoint>& ep : endpoints_)
      next = std::min(next, ep->next_timer());
    return next;
  }

  q::Memnet net_;
  q::SeededEntropy entropy_{0x6d6f7162656e6368};  // "moqbench"
};

class UdpNet final : public QuicNetBase {
 public:
  explicit UdpNet(Executor& executor) : QuicNetBase(executor), loop_(executor) {}
  ~UdpNet() override {
    endpoints_.clear();
    sockets_.clear();
  }
  Result<Link> connect(const std::string& alpn, LinkLimits limits) override {
    q::UdpSocket* ends[2];
    for (q::UdpSocket*& end : ends) {
      Result<std::unique_ptr<q::UdpSocket>> s = q::UdpSocket::bind(q::Address::ipv4(0x7f000001, 0));
      if (!s) return s.error();
      sockets_.push_back(std::move(*s));
      end = sockets_.back().get();
      loop_.add(*end);
    }
    // Settling waits for every acknowledgement (see settle): 1 ms keeps a round from spending
    // QUIC's default 25 ms of real time on the last one.
    q::QuicSettings settings;
    settings.max_ack_delay_ns = 1'000'000;
    return connect_over(*ends[0], *ends[1], entropy_, alpn, limits, settings, [&](auto&& done) {
      return loop_.run_until(done, 5'000'000'000, "connecting");
    });
  }
  // Quiet: no runnable task, nothing unsent and no packet unacknowledged (packets inside the
  // kernel cannot be seen, so an acknowledgement is the proof that they arrived).
  Status settle(const char* what, uint64_t) override {
    return loop_.run_until([&] { return !sending(true); }, 10'000'000'000, what);
  }
  // Real time cannot jump: wait it out, serving the sockets and timers meanwhile.
  Status pass_time(uint64_t ns, uint64_t) override {
    const uint64_t until = executor_->now_ns() + ns;
    return loop_.run_until([&] { return executor_->now_ns() >= until; }, ns + 1'000'000'000,
                           "passing time");
  }

 private:
  q::UdpLoop loop_;
  q::SystemEntropy entropy_;
  std::vector<std::unique_ptr<q::UdpSocket>> sockets_;
};

#endif  // MOQ_QUIC

}  // namespace

Status WorldNet::pass_time(uint64_t ns, uint64_t step_budget) {
  Executor& ex = executor();
  RunReport r = ex.advance_to(ex.now_ns() + ns, step_budget);
  if (r.budget_exhausted) return Error{0, "passing time: step budget exhausted: " + r.detail};
  return {};
}

std::vector<harness::AxisSpec> with_network_axes(std::vector<harness::AxisSpec> axes) {
  std::vector<harness::AxisSpec> network = {
      harness::AxisSpec::choice(
          "transport",
          "what carries the sessions: memory (sim/memory), quic-sim (QUIC over simulated links, "
          "exact counts), quic (QUIC over loopback UDP, real clock) or qmux (QMux-00 frames on an "
          "in-memory byte pipe, exact counts)",
          {"memory", "quic-sim", "quic", "qmux"}),
      harness::AxisSpec::integer("latency_ms", "one-way latency of every link (ms)", 0, 0, 10'000),
      harness::AxisSpec::integer("bandwidth_kbps",
                                 "bandwidth of every link each way (kbit/s; 0: unlimited)", 0, 0,
                                 100'000'000),
      harness::AxisSpec::integer(
          "loss_pct", "datagrams lost (memory) or packets lost (quic-sim), in percent", 0, 0, 50),
      harness::AxisSpec::integer("seed", "seed of the network model's random draws", 1, 0,
                                 INT32_MAX)};
  for (harness::AxisSpec& axis : network) {
    axis.id_when_default = false;
    axes.push_back(std::move(axis));
  }
  return axes;
}

Result<Transport> transport_of(const harness::CaseSpec& spec) {
  const std::string& name = spec.text("transport");
  if (name.empty()) return Transport::Memory;  // a scenario without the axis
  for (size_t i = 0; i < std::size(kTransportNames); ++i) {
    if (name != kTransportNames[i]) continue;
#if !MOQ_QUIC
    if (i == 1 || i == 2)
      return Error{0, "transport=" + name +
                          " needs the QUIC backend: this build has MOQ_QUIC=OFF (use "
                          "transport=memory)"};
#endif
    return static_cast<Transport>(i);
  }
  return Error{0, "transport '" + name + "' is not one of memory, quic-sim, quic, qmux"};
}

std::unique_ptr<Clock> make_world_clock([[maybe_unused]] Transport transport) {
#if MOQ_QUIC
  if (transport == Transport::Quic) return std::make_unique<q::RealClock>();
#endif
  return std::make_unique<sim::VirtualClock>();
}

Result<sim::net::LinkConfig> link_of(const harness::CaseSpec& spec, Transport transport) {
  sim::net::LinkConfig link;
  link.latency_ns = static_cast<uint64_t>(spec.integer("latency_ms")) * 1'000'000;
  link.bandwidth_bps = static_cast<uint64_t>(spec.integer("bandwidth_kbps")) * 1000;
  link.loss = static_cast<double>(spec.integer("loss_pct")) / 100;
  link.seed = static_cast<uint64_t>(spec.integer("seed"));
  if ((transport == Transport::Quic || transport == Transport::Qmux) && !link.ideal()) {
    std::string modelled;
    for (const char* axis : {"latency_ms", "bandwidth_kbps", "loss_pct"}) {
      if (spec.integer(axis) == 0) continue;
      modelled += (modelled.empty() ? "" : ", ") + std::string(axis) + "=" +
                  std::to_string(spec.integer(axis));
    }
    return Error{0, std::string(transport == Transport::Quic
                                    ? "transport=quic runs on real sockets"
                                    : "transport=qmux runs on an in-memory byte pipe") +
                        " with no link model, so " + modelled +
                        " needs transport=memory or transport=quic-sim"};
  }
  if (Status st = link.validate(); !st) return st.error();
  if (transport == Transport::QuicSim) link.latency_ns += kQuicSimLatencyNs;
  return link;
}

std::unique_ptr<WorldNet> make_world_net([[maybe_unused]] Transport transport, Executor& executor,
                                         const sim::net::LinkConfig& link) {
  if (transport == Transport::Qmux) return std::make_unique<QmuxNet>(executor);
#if MOQ_QUIC
  if (transport == Transport::QuicSim) return std::make_unique<QuicSimNet>(executor, link);
  if (transport == Transport::Quic) return std::make_unique<UdpNet>(executor);
#endif
  return std::make_unique<MemoryNet>(executor, link);
}

}  // namespace moq::scenarios
