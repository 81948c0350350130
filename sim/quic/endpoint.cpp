#include "sim/quic/endpoint.h"

#include <algorithm>

#include "sim/quic/cid.h"

namespace moq::sim::quic {

QuicEndpoint::QuicEndpoint(Executor& executor, DatagramSocket& socket, Entropy& entropy,
                           QuicSettings settings)
    : executor_(&executor), socket_(&socket), entropy_(&entropy), settings_(settings) {
  socket_->set_receiver(this);
}

QuicEndpoint::~QuicEndpoint() {
  socket_->set_receiver(nullptr);
  handshaking_.clear();
  ready_.clear();
  // Connections the application still holds keep working as closed connections.
  for (QuicConnection* c : all_) {
    c->close(0, "endpoint dropped");
    c->release_ngtcp2();
    c->endpoint_ = nullptr;
  }
}

void QuicEndpoint::listen(std::shared_ptr<TlsIdentity> identity, std::vector<std::string> alpns) {
  identity_ = std::move(identity);
  alpns_ = std::move(alpns);
}

Result<std::unique_ptr<QuicConnection>> QuicEndpoint::connect(const Address& server,
                                                              const std::string& alpn,
                                                              std::shared_ptr<TlsTrust> trust,
                                                              const std::string& host) {
  return connect(server, std::vector<std::string>{alpn}, std::move(trust), host);
}

Result<std::unique_ptr<QuicConnection>> QuicEndpoint::connect(const Address& server,
                                                              std::vector<std::string> alpns,
                                                              std::shared_ptr<TlsTrust> trust,
                                                              const std::string& host) {
  if (!trust) return Error{0, "connect: no TLS trust given"};
  if (alpns.empty()) return Error{0, "connect: no ALPN to offer"};
  std::unique_ptr<QuicConnection> c(new QuicConnection(*this, server, true, settings_));
  all_.push_back(c.get());
  Status st = c->start_client(std::move(alpns), std::move(trust), host);
  if (!st.ok()) return st.error();
  for (const std::string& id : c->source_ids())
    route(id, c.get());
  return c;
}

std::unique_ptr<QuicConnection> QuicEndpoint::accept() {
  if (ready_.empty()) return nullptr;
  std::unique_ptr<QuicConnection> c = std::move(ready_.front());
  ready_.erase(ready_.begin());
  return c;
}

bool QuicEndpoint::busy(bool unacked) const {
  for (const QuicConnection* c : all_)
    if (c->has_unsent() || (unacked && c->has_unacked())) return true;
  return false;
}

uint64_t QuicEndpoint::next_timer() const {
  uint64_t next = UINT64_MAX;
  for (const QuicConnection* c : all_)
    next = std::min(next, c->next_timer());
  return next;
}

void QuicEndpoint::route(const std::string& cid, QuicConnection* c) {
  routes_[cid] = c;
}
void QuicEndpoint::unroute(const std::string& cid) {
  routes_.erase(cid);
}

void QuicEndpoint::forget(QuicConnection* c) {
  for (auto it = routes_.begin(); it != routes_.end();)
    it = it->second == c ? routes_.erase(it) : std::next(it);
  all_.erase(std::remove(all_.begin(), all_.end(), c), all_.end());
}

void QuicEndpoint::handshake_done(QuicConnection* c) {
  auto it = std::find_if(handshaking_.begin(), handshaking_.end(),
                         [c](const std::unique_ptr<QuicConnection>& p) { return p.get() == c; });
  if (it == handshaking_.end()) return;
  ready_.push_back(std::move(*it));
  handshaking_.erase(it);
  ++stats_.accepted;
  incoming_.notify_all();
}

void QuicEndpoint::on_unreachable(const Address& to) {
  // Copy first: a connection that gives up may change all_.
  std::vector<QuicConnection*> hit;
  for (QuicConnection* c : all_)
    if (c->remote() == to) hit.push_back(c);
  for (QuicConnection* c : hit)
    c->on_unreachable();
}

void QuicEndpoint::on_datagram(const Address& from, std::span<const uint8_t> data) {
  ngtcp2_version_cid vc;
  int rv = ngtcp2_pkt_decode_version_cid(&vc, data.data(), data.size(), kCidLen);
  if (rv != 0 && rv != NGTCP2_ERR_VERSION_NEGOTIATION) {
    ++stats_.not_quic;
    log("ignored a datagram of " + std::to_string(data.size()) + " bytes from " + from.to_string() +
        ": not a QUIC packet");
    return;
  }
  auto it = routes_.find(std::string_view(reinterpret_cast<const char*>(vc.dcid), vc.dcidlen));
  if (it != routes_.end()) {
    it->second->receive(data);
    return;
  }
  if (vc.version == 0) {  // a short header for no connection of ours
    ++stats_.unknown_id;
    return;
  }
  accept_initial(from, data);
}

void QuicEndpoint::accept_initial(const Address& from, std::span<const uint8_t> data) {
  // Server connections whose handshake failed are dropped once their closing period is over:
  // here, where new ones arrive, rather than on every datagram.
  std::erase_if(handshaking_,
                [](const std::unique_ptr<QuicConnection>& c) { return c->conn_ == nullptr; });
  ngtcp2_pkt_hd hd;
  if (!identity_ || ngtcp2_accept(&hd, data.data(), data.size()) != 0) {
    ++stats_.refused_initial;
    log("ignored a packet from " + from.to_string() +
        (identity_ ? ": not a QUIC Initial we accept" : ": this endpoint does not listen"));
    return;
  }
  std::unique_ptr<QuicConnection> c(new QuicConnection(*this, from, false, settings_));
  all_.push_back(c.get());
  Status st = c->start_server(hd, identity_, alpns_);
  if (!st.ok()) {
    ++stats_.refused_initial;
    log("refused a connection from " + from.to_string() + ": " + st.error().message);
    return;
  }
  QuicConnection* raw = c.get();
  route(cid_key(hd.dcid), raw);
  for (const std::string& id : raw->source_ids())
    route(id, raw);
  handshaking_.push_back(std::move(c));
  raw->receive(data);
}

}  // namespace moq::sim::quic
