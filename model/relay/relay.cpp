#include "model/relay/relay.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace moq::relay {

// One session of the relay and the task that routes its peer's announcements into the origin.
class Relay::Peer final : public Task {
 public:
  Peer(Relay& relay, std::unique_ptr<session::Session> session, bool cluster_peer)
      : Task(relay.executor_, "relay peer"),
        cluster_peer(cluster_peer),
        relay_(relay),
        session_(std::move(session)) {
    // Everything the peer announces, whatever its prefix: the relay routes all of it.
    Result<AnnounceConsumer> a = session_->announced(Path());
    if (a) announced_ = std::move(*a);
    wake();
  }
  ~Peer() override { withdraw_all(); }

  session::Session& session() { return *session_; }

  Poll poll() override {
    if (!announced_) return Poll::Done;  // the session could not ask (it closed at once)
    for (;;) {
      AnnounceEvent e;
      switch (announced_.next(e)) {
        case Next::Ready:
          if (e.kind == AnnounceEvent::Kind::Announce) {
            relay_.publish(*this, e);
          } else {
            relay_.withdraw(*this, e.path);
          }
          continue;
        case Next::Pending:
          waiter_.wait(announced_.events());
          return Poll::Pending;
        case Next::End:
        case Next::Aborted:
          // A peer that publishes nothing refuses the request; one that leaves ends it. Either
          // way what it announced goes (the session itself stays until it is removed).
          withdraw_all();
          return Poll::Done;
      }
    }
  }

  // Another relay of the cluster (Relay::add_peer), not a client.
  const bool cluster_peer;
  // The paths this peer holds in the origin, ordered (teardown withdraws each once).
  std::set<std::string> held;

 private:
  void withdraw_all() {
    while (!held.empty())
      relay_.withdraw(*this, Path(*held.begin()));
  }

  Relay& relay_;
  std::unique_ptr<session::Session> session_;
  AnnounceConsumer announced_;
  Waiter waiter_{*this};
};

Relay::Relay(Executor& executor, RelayConfig config) : executor_(executor), config_(config) {}

Relay::~Relay() {
  // Sessions first (each withdraws its routes), then the origins end what viewers still hold.
  peers_.clear();
  origin_.close(Error{0, "relay closed"});
  local_.close(Error{0, "relay closed"});
}

Result<session::Session*> Relay::add(Connection& conn) {
  return run(conn, false);
}

Result<session::Session*> Relay::add_peer(Connection& conn) {
  return run(conn, true);
}

Result<session::Session*> Relay::run(Connection& conn, bool cluster_peer) {
  session::SessionConfig config;
  config.publish = cluster_peer ? local_.consume() : origin_.consume();
  config.hop_id = config_.hop_id;
  config.linger_ns = config_.linger_ns;
  config.peer_track_cache = config_.cache;
  // Hidden broadcasts are routed through the cluster; each viewer's own request decides whether
  // it sees them (moq-lite-07).
  config.announce_hidden = true;
  Result<std::unique_ptr<session::Session>> s = session::create_session(conn, std::move(config));
  if (!s) return s.error();
  peers_.push_back(std::make_unique<Peer>(*this, std::move(*s), cluster_peer));
  ++counters_.sessions_added;
  return &peers_.back()->session();
}

uint64_t Relay::upstream_subscriptions() const {
  uint64_t n = 0;
  for (const std::unique_ptr<Peer>& p : peers_)
    n += p->session().counters().opened(session::StreamKind::Subscribe);
  return n;
}

void Relay::remove(session::Session& session) {
  auto it = std::find_if(peers_.begin(), peers_.end(),
                         [&](const std::unique_ptr<Peer>& p) { return &p->session() == &session; });
  if (it == peers_.end()) return;
  session.close(0, "removed from the relay");
  peers_.erase(it);  // the peer withdraws what it held
}

void Relay::publish(Peer& peer, const AnnounceEvent& e) {
  // Two publishers of one path: the first keeps it; the second's announcement is counted and
  // not published (it would replace a route viewers are using). When the first withdraws, the
  // path is free for the next announcement.
  if (!origin_.publish(e.path, e.broadcast).ok()) {
    ++counters_.routes_conflicting;
    return;
  }
  // A client's broadcast is offered to the cluster; a peer's is not passed on (split horizon).
  if (!peer.cluster_peer) (void)local_.publish(e.path, e.broadcast);
  peer.held.insert(e.path.str());
  ++counters_.routes_published;
}

void Relay::withdraw(Peer& peer, const Path& path) {
  if (peer.held.erase(path.str()) == 0) return;  // a conflicting route was never published
  (void)origin_.unpublish(path);
  if (!peer.cluster_peer) (void)local_.unpublish(path);
  ++counters_.routes_withdrawn;
}

}  // namespace moq::relay
