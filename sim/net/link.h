// The seeded network model between two endpoints, on the virtual clock: how long bytes take from
// one end of a link to the other, and which datagrams it loses. Both simulated transports use it
// (sim/memory through net::Network, sim/quic through its Memnet), so a link means the same in
// each. Nothing reads a wall clock and every random choice comes from the seed: the same seed and
// the same traffic give the same arrivals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/base/result.h"

namespace moq::sim::net {

// A period during which the link loses everything sent (an outage), [start_ns, end_ns).
struct Blackhole {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

struct LinkConfig {
  uint64_t latency_ns = 0;     // one way
  uint64_t bandwidth_bps = 0;  // bits per second each direction carries; 0: unlimited
  uint64_t jitter_ns = 0;      // extra delay, uniform in [0, jitter_ns], never reordering
  // Datagrams (sim/memory) or packets (sim/quic) lost, duplicated: probabilities in [0, 1].
  // Streams are reliable: on sim/memory only datagrams are lost; on QUIC the packets carrying
  // streams are, and QUIC retransmits.
  double loss = 0;
  double duplicate = 0;  // sim/quic only: a packet arriving twice
  std::vector<Blackhole> blackholes;
  uint64_t seed = 1;

  // No delay and no loss of any kind: a transport may skip the model altogether.
  bool ideal() const;
  // An Error naming the field when a value is out of range.
  Status validate() const;
};

// splitmix64: small, fast, and every seed (0 included) gives a full-period sequence.
class SeededRandom {
 public:
  explicit SeededRandom(uint64_t seed) : state_(seed) {}
  uint64_t next();
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n] (0 when n is 0).
  uint64_t up_to(uint64_t n) { return n == 0 ? 0 : next() % (n + 1); }

 private:
  uint64_t state_;
};

// One direction of a link: each send asks it when the bytes arrive.
class LinkDirection {
 public:
  LinkDirection() : LinkDirection(LinkConfig{}, 0) {}
  // stream_id picks this direction's own random sequence from the config's seed (a network
  // numbers its directions), so that adding traffic on one link leaves the others' draws alone.
  // A config that is not ideal() must outlive the direction.
  LinkDirection(const LinkConfig& config, uint64_t stream_id);

  // When `bytes` sent at `now` arrive: the link puts them on the wire once what it is still
  // sending has gone (bandwidth), they travel latency plus jitter, and they never arrive before
  // something sent earlier in this direction.
  uint64_t arrival(uint64_t now, uint64_t bytes);
  // Whether a datagram sent at `now` is lost: inside a blackhole period, or by the loss draw.
  bool loses(uint64_t now);
  // Whether a packet arrives twice (the duplicate draw).
  bool duplicates();

 private:
  const LinkConfig* config_;
  SeededRandom random_;
  uint64_t busy_until_ = 0;    // when the link has put on the wire what it was given
  uint64_t last_arrival_ = 0;  // arrival of the latest send: later sends do not overtake it
};

}  // namespace moq::sim::net
