// Simulated links for QUIC on the virtual clock (the quic-sim world): datagrams between the
// sockets of one Memnet arrive when the link model (sim/net/link.h: latency, bandwidth, jitter;
// loss, duplication and blackhole periods) says, one LinkDirection per pair of sockets and
// direction, through the executor's timers. Nothing reads a wall clock and nothing is unseeded,
// so the same build and arguments give the same packets, the same timings and the same counts.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "model/async/executor.h"
#include "sim/net/link.h"
#include "sim/quic/datagram.h"

namespace moq::sim::quic {

// The links of a Memnet: every pair of sockets, each way (loss: use 0..0.33 for QUIC to finish).
struct MemnetConfig : net::LinkConfig {
  MemnetConfig() { latency_ns = 500'000; }
};

struct MemnetStats {
  uint64_t delivered = 0;
  uint64_t dropped = 0;        // by the loss model (loss and blackholes)
  uint64_t duplicated = 0;     // sent twice by the duplication model
  uint64_t undeliverable = 0;  // to an address with no socket
};

class Memnet {
 public:
  Memnet(Executor& executor, net::LinkConfig config = MemnetConfig());
  ~Memnet();
  Memnet(const Memnet&) = delete;
  Memnet& operator=(const Memnet&) = delete;

  // A socket at 10.0.0.N:443 (N counts from 1); it lives as long as the Memnet.
  DatagramSocket& socket();
  const MemnetStats& stats() const { return stats_; }
  // Datagrams on the way.
  size_t in_flight() const { return in_flight_.size(); }
  // When the next datagram on the way arrives (UINT64_MAX: none).
  uint64_t next_due() const { return in_flight_.empty() ? UINT64_MAX : in_flight_.front()->due; }
  // Changes the loss from now on (1: a peer that vanishes without a word).
  void set_loss(double loss) { config_.loss = loss; }
  const net::LinkConfig& config() const { return config_; }

 private:
  class Socket;
  class Delivery;
  struct Packet {
    uint64_t due = 0;
    uint64_t order = 0;  // ties in due: first sent, first delivered
    Address from, to;
    std::vector<uint8_t> data;
  };
  friend class Socket;
  void send(const Address& from, const Address& to, std::span<const uint8_t> data);
  void schedule(uint64_t due, const Address& from, const Address& to,
                std::span<const uint8_t> data);
  Poll deliver();
  Socket* find(const Address& to) const;
  static uint32_t index_of(const Address& a);  // N of 10.0.0.N:443, 0 for any other address
  net::LinkDirection& direction(const Address& from, const Address& to);

  Executor* executor_;
  net::LinkConfig config_;
  std::vector<std::unique_ptr<Socket>> sockets_;
  // One direction of the link per (from, to) socket index pair, made on first use.
  std::map<std::pair<uint32_t, uint32_t>, net::LinkDirection> directions_;
  std::vector<std::unique_ptr<Packet>> in_flight_;  // a min-heap by (due, order)
  uint64_t sent_ = 0;
  std::vector<std::unique_ptr<Packet>> spare_;  // recycled packet buffers
  std::unique_ptr<Delivery> delivery_;
  MemnetStats stats_;
};

}  // namespace moq::sim::quic
