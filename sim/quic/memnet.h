// Simulated links for QUIC on the virtual clock (the quic-sim world): datagrams between the
// sockets of one Memnet arrive after a fixed one-way delay, through the executor's timers, with
// optional seeded random loss. Nothing reads a wall clock and nothing is unseeded, so the same
// build and arguments give the same packets, the same timings and the same counts.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/async/executor.h"
#include "model/base/ring.h"
#include "sim/quic/datagram.h"

namespace moq::sim::quic {

struct MemnetConfig {
  uint64_t delay_ns = 500'000;  // one way
  double loss = 0;              // probability that a datagram is dropped (seeded: use 0..0.33)
  uint64_t seed = 1;
};

struct MemnetStats {
  uint64_t delivered = 0;
  uint64_t dropped = 0;        // by the loss model
  uint64_t undeliverable = 0;  // to an address with no socket
};

class Memnet {
 public:
  Memnet(Executor& executor, MemnetConfig config = {});
  ~Memnet();
  Memnet(const Memnet&) = delete;
  Memnet& operator=(const Memnet&) = delete;

  // A socket at 10.0.0.N:443 (N counts from 1); it lives as long as the Memnet.
  DatagramSocket& socket();
  const MemnetStats& stats() const { return stats_; }
  // Datagrams on the way.
  size_t in_flight() const { return in_flight_.size(); }
  // Changes the loss from now on (1: a peer that vanishes without a word).
  void set_loss(double loss) { config_.loss = loss; }

 private:
  class Socket;
  class Delivery;
  struct Packet {
    uint64_t due = 0;
    Address from, to;
    std::vector<uint8_t> data;
  };
  friend class Socket;
  void send(const Address& from, const Address& to, std::span<const uint8_t> data);
  Poll deliver();
  Socket* find(const Address& to) const;

  Executor* executor_;
  MemnetConfig config_;
  SeededEntropy loss_rng_;
  std::vector<std::unique_ptr<Socket>> sockets_;
  Ring<std::unique_ptr<Packet>> in_flight_;     // in due order: the delay is fixed
  std::vector<std::unique_ptr<Packet>> spare_;  // recycled packet buffers
  std::unique_ptr<Delivery> delivery_;
  MemnetStats stats_;
};

}  // namespace moq::sim::quic
