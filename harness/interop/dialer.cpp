#include "harness/interop/dialer.h"

#include <sys/socket.h>

namespace moq::interop {

namespace q = sim::quic;

Dialer::Dialer(const RelayUrl& url, const std::vector<Version>& offer, std::ostream* log)
    : url_(url), log_(log), executor_(clock_), loop_(executor_) {
  for (Version v : offer)
    alpns_.emplace_back(version_alpn(v));
}

Dialer::~Dialer() {
  endpoint_.reset();
  if (socket_) loop_.remove(*socket_);
}

Result<std::unique_ptr<Dialer>> Dialer::create(const RelayUrl& url,
                                               const std::vector<Version>& offer,
                                               bool tls_disable_verify, std::ostream* log) {
  Result<std::shared_ptr<q::TlsTrust>> trust =
      tls_disable_verify ? q::TlsTrust::anything() : q::TlsTrust::system();
  if (!trust) return trust.error();
  return create(url, offer, std::move(*trust), log);
}

Result<std::unique_ptr<Dialer>> Dialer::create(const RelayUrl& url,
                                               const std::vector<Version>& offer,
                                               std::shared_ptr<q::TlsTrust> trust,
                                               std::ostream* log) {
  std::unique_ptr<Dialer> d(new Dialer(url, offer, log));
  const std::string host =
      url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
  Result<q::Address> relay = q::Address::parse(host + ":" + std::to_string(url.port), url.port);
  if (!relay) return Error{uint64_t(kExitUsage), "relay URL: " + relay.error().message};
  d->relay_ = *relay;
  d->trust_ = std::move(trust);
  const bool v6 = d->relay_.storage.ss_family == AF_INET6;
  Result<q::Address> local = q::Address::parse(v6 ? "[::]:0" : "0.0.0.0:0", 0);
  if (!local) return local.error();
  Result<std::unique_ptr<q::UdpSocket>> socket = q::UdpSocket::bind(*local);
  if (!socket) return socket.error();
  d->socket_ = std::move(*socket);
  d->loop_.add(*d->socket_);
  d->endpoint_ = std::make_unique<q::QuicEndpoint>(d->executor_, *d->socket_, d->entropy_);
  return d;
}

Result<std::unique_ptr<q::QuicConnection>> Dialer::connect(const std::string& who,
                                                           uint64_t deadline_ns) {
  Result<std::unique_ptr<q::QuicConnection>> c =
      endpoint_->connect(relay_, alpns_, trust_, url_.host);
  if (!c) return c.error();
  q::QuicConnection& conn = **c;
  Status st = wait_until([&] { return conn.established() || conn.close_error(); }, deadline_ns,
                         who + ": connecting to " + relay_.to_string());
  if (!st) return st.error();
  if (conn.close_error()) {
    std::string why = who + ": " + conn.close_error()->message;
    // The client trusts the system's CA store alone: say how to reach a relay it does not cover.
    if (conn.peer_certificate_rejected())
      why +=
          "; for a self-signed test relay use "
          "--tls-disable-verify (TLS_DISABLE_VERIFY=1), or add its CA to the system's store";
    return Error{0, why};
  }
  log(who + ": connected to " + relay_.to_string() + ", ALPN " + std::string(conn.alpn()));
  return c;
}

uint64_t Dialer::add_poller(Poller poller) {
  pollers_.emplace(next_poller_, std::move(poller));
  return next_poller_++;
}

void Dialer::sleep_until(uint64_t when_ns) {
  (void)wait_until([] { return false; }, when_ns, "sleep");
}

void Dialer::log(const std::string& line) const {
  if (log_) *log_ << "moq-test-client: " << line << "\n" << std::flush;
}

}  // namespace moq::interop
