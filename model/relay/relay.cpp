#include "model/relay/relay.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "model/session/create_session.h"

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
  // The paths this peer holds in the origin, and those it announced while another peer held
  // them (waiting in Relay::waiting_), ordered: teardown withdraws each once.
  std::set<std::string> held;
  std::set<std::string> waiting;

 private:
  void withdraw_all() {
    while (!held.empty())
      relay_.withdraw(*this, Path(*held.begin()));
    while (!waiting.empty())
      relay_.withdraw(*this, Path(*waiting.begin()));
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
  // Publishers may push tracks (moq-transport PUBLISH): each is routed like an announced
  // broadcast while it is pushed.
  config.accept_pushed_tracks = true;
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
  std::string path = e.path.str();
  if (peer.held.count(path) || peer.waiting.count(path)) return;
  // Two publishers of one path: the first keeps it (publishing the second would switch the
  // viewers of a route in use); the second's announcement is counted and waits, and takes the
  // path when every announcement before it is withdrawn.
  if (!origin_.publish(e.path, e.broadcast).ok()) {
    ++counters_.routes_conflicting;
    waiting_[path].push_back(Waiting{&peer, e.broadcast});
    peer.waiting.insert(std::move(path));
    return;
  }
  route(peer, e.path, e.broadcast);
}

void Relay::route(Peer& peer, const Path& path, const BroadcastConsumer& broadcast) {
  // A client's broadcast is offered to the cluster; a peer's is not passed on (split horizon).
  if (!peer.cluster_peer) (void)local_.publish(path, broadcast);
  peer.held.insert(path.str());
  ++counters_.routes_published;
}

void Relay::withdraw(Peer& peer, const Path& path) {
  // A copy: path may belong to an entry erased below.
  const std::string key = path.str();  // NOLINT(performance-unnecessary-copy-initialization)
  if (peer.waiting.erase(key)) {
    auto it = waiting_.find(key);
    std::deque<Waiting>& queue = it->second;
    queue.erase(std::find_if(queue.begin(), queue.end(),
                             [&](const Waiting& w) { return w.peer == &peer; }));
    if (queue.empty()) waiting_.erase(it);
    return;
  }
  if (peer.held.erase(key) == 0) return;
  (void)origin_.unpublish(path);
  if (!peer.cluster_peer) (void)local_.unpublish(path);
  ++counters_.routes_withdrawn;
  // The path is free: the oldest waiting announcement of it takes it.
  auto it = waiting_.find(key);
  if (it == waiting_.end()) return;
  std::deque<Waiting>& queue = it->second;
  while (!queue.empty()) {
    Waiting next = std::move(queue.front());
    queue.pop_front();
    next.peer->waiting.erase(key);
    if (origin_.publish(path, next.broadcast).ok()) {
      route(*next.peer, path, next.broadcast);
      break;
    }
  }
  if (queue.empty()) waiting_.erase(it);
}

size_t Relay::waiting_routes() const {
  size_t n = 0;
  for (const auto& [path, queue] : waiting_)
    n += queue.size();
  return n;
}

}  // namespace moq::relay
