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
// First step of the relay issue: one relay, announcements routed, subscriptions and fetches
// served through the origin, upstream subscriptions kept for linger_ns after their last viewer.
// Clusters, the group cache bound and the relay scenarios follow.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/async/executor.h"
#include "model/data/data.h"
#include "model/session/session.h"
#include "model/transport.h"

namespace moq::relay {

struct RelayConfig {
  // The Hop ID of every session the relay runs (moq-lite SETUP / ANNOUNCE_OK).
  uint64_t hop_id = 0x4e1a;
  // How long an upstream subscription outlives its last viewer (SessionConfig::linger_ns): a
  // viewer that comes back, or a moq-lite viewer's SUBSCRIBE after its TRACK, finds it open.
  uint64_t linger_ns = 2'000'000'000;
};

struct RelayCounters {
  uint64_t sessions_added = 0;
  uint64_t routes_published = 0;    // broadcasts a session announced, published in the origin
  uint64_t routes_withdrawn = 0;    // ... and withdrawn again
  uint64_t routes_conflicting = 0;  // announced on a path another session holds (not published)
};

class Relay {
 public:
  explicit Relay(Executor& executor, RelayConfig config = {});
  ~Relay();
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;

  // Runs a session over conn (the version is its ALPN) that serves the relay's origin and
  // routes what its peer announces. The relay owns the session until remove() or its end.
  Result<session::Session*> add(Connection& conn);
  // Closes the session and withdraws everything its peer announced.
  void remove(session::Session& session);

  // What the relay serves: every broadcast announced by one of its sessions' peers.
  OriginConsumer origin() const { return origin_.consume(); }
  size_t sessions() const { return peers_.size(); }
  const RelayCounters& counters() const { return counters_; }

 private:
  class Peer;
  void publish(Peer& peer, const AnnounceEvent& e);
  void withdraw(Peer& peer, const Path& path);

  Executor& executor_;
  RelayConfig config_;
  OriginProducer origin_ = OriginProducer::create();
  std::vector<std::unique_ptr<Peer>> peers_;  // in the order they were added
  RelayCounters counters_;
};

}  // namespace moq::relay
