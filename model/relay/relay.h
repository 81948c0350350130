// Relay: sessions of every implemented version on one shared origin (model/relay/README.md).
//
// Each session the relay serves is both a publisher's upstream and a viewer's downstream: the
// broadcasts its peer announces are published in the relay's origin (and withdrawn when the
// peer unannounces them or leaves), and every session serves the relay's origin to its peer. A
// viewer's request for a track reaches the publishing session through the origin, whose
// broadcast is that session's copy of the peer's broadcast: its first consumer makes the one
// upstream subscription, and every later viewer of the track shares it (model/session/core/
// peer_origin.h). The relay never looks inside a wire format; it speaks model/session only.
//
// Clusters: relays peered in a full mesh (add_peer on both ends of each pair's connection).
// A peer session is served only the broadcasts of this relay's own clients, and what a peer
// announces is published for this relay's clients only, never passed on to another peer: in a
// full mesh every relay hears each broadcast from the relay its publisher is on, so an
// announcement crosses one peer link and never circulates (split horizon).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/data/data.h"
#include "model/session/session.h"
#include "model/transport.h"

namespace moq::relay {

struct RelayConfig {
  // The Hop ID of every session the relay runs (moq-lite SETUP / ANNOUNCE_OK); distinct per
  // relay of a cluster.
  uint64_t hop_id = 0x4e1a;
  // How long an upstream subscription outlives its last viewer (SessionConfig::linger_ns): a
  // viewer that comes back, or a moq-lite viewer's SUBSCRIBE after its TRACK, finds it open.
  uint64_t linger_ns = 2'000'000'000;
  // What the relay keeps of each track it copies from upstream (groups and payload bytes; the
  // latest group is always kept; a shorter max age the publisher states wins). 16 MiB as in the
  // Rust relay. FETCHes and late joiners are served from it without asking upstream; a FETCH of
  // an older group it does not hold is forwarded upstream (not cached: README.md).
  CacheLimits cache{16, uint64_t{16} << 20, UINT64_MAX};
};

struct RelayCounters {
  uint64_t sessions_added = 0;      // clients and peers
  uint64_t routes_published = 0;    // broadcasts a session announced, published in the origin
  uint64_t routes_withdrawn = 0;    // ... and withdrawn again
  uint64_t routes_conflicting = 0;  // announced on a path another session held (waited)
};

class Relay {
 public:
  explicit Relay(Executor& executor, RelayConfig config = {});
  ~Relay();
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;

  // Runs a session over conn (the version is its ALPN) for a client, publisher or viewer: it
  // serves the relay's whole origin and routes what its peer announces. The relay owns the
  // session until remove() or its end.
  Result<session::Session*> add(Connection& conn);
  // Runs a session over conn for another relay of the cluster (either end of the connection):
  // it serves only the broadcasts of this relay's clients, and what it announces is routed to
  // this relay's clients only.
  Result<session::Session*> add_peer(Connection& conn);
  // Closes the session and withdraws everything its peer announced.
  void remove(session::Session& session);

  // What the relay serves its clients: every broadcast announced by one of its sessions' peers.
  OriginConsumer origin() const { return origin_.consume(); }
  size_t sessions() const { return peers_.size(); }
  const RelayCounters& counters() const { return counters_; }
  // Announcements waiting for a path another session holds (the first keeps a path; the next
  // takes it when it is withdrawn).
  size_t waiting_routes() const;
  // Subscriptions the relay's sessions have opened to their peers since they started: one per
  // track the relay copies while no subscription ends (the count a relay round asserts).
  uint64_t upstream_subscriptions() const;

 private:
  class Peer;
  struct Waiting {
    Peer* peer;
    BroadcastConsumer broadcast;
  };
  Result<session::Session*> run(Connection& conn, bool cluster_peer);
  void publish(Peer& peer, const AnnounceEvent& e);
  void route(Peer& peer, const Path& path, const BroadcastConsumer& broadcast);
  // The peer no longer announces path: it leaves the path's queue, or frees the path for the
  // first announcement waiting for it.
  void withdraw(Peer& peer, const Path& path);

  Executor& executor_;
  RelayConfig config_;
  OriginProducer origin_ = OriginProducer::create();    // every route: served to clients
  OriginProducer local_ = OriginProducer::create();     // the clients' routes: served to peers
  std::vector<std::unique_ptr<Peer>> peers_;            // in the order they were added
  std::map<std::string, std::deque<Waiting>> waiting_;  // per path, in announcement order
  RelayCounters counters_;
};

}  // namespace moq::relay
