// The network under a world's in-memory connections (sim/memory, PairConfig::network): the link
// model of each connection made through it (one LinkDirection per direction, link.h) and the
// wake-ups of what is on the way: a reader whose bytes arrive later is woken at their arrival,
// by one task for the whole network, on the executor's timers.
//
// A world settles by running the executor, then, while in_flight() is not zero, moving the
// virtual clock to next_due() and running again.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/async/executor.h"
#include "sim/net/link.h"

namespace moq::sim::net {

class Network {
 public:
  Network(Executor& executor, LinkConfig config);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  const LinkConfig& config() const { return config_; }
  Executor& executor() const { return *executor_; }
  // The two directions of a new connection (client to server first), each with its own random
  // sequence drawn from the seed and the connection's number.
  std::array<LinkDirection, 2> connect();

  // Notifies `list` at virtual time `due`. owner names what the list lives in, for forget().
  void wake_at(uint64_t due, WaitList& list, const void* owner);
  // Drops the wake-ups of an owner that goes away.
  void forget(const void* owner);

  // Wake-ups still to come, and the earliest (UINT64_MAX when none).
  size_t in_flight() const { return heap_.size(); }
  uint64_t next_due() const { return heap_.empty() ? UINT64_MAX : heap_.front().due; }

 private:
  class Delivery;
  struct Wakeup {
    uint64_t due;
    uint64_t order;  // ties in due: first scheduled, first woken
    WaitList* list;
    const void* owner;
  };
  static bool later(const Wakeup& a, const Wakeup& b);  // the heap's order: earliest on top
  Poll deliver();
  void arm();

  Executor* executor_;
  LinkConfig config_;
  uint64_t connections_ = 0;
  uint64_t scheduled_ = 0;
  std::vector<Wakeup> heap_;  // min-heap by (due, order)
  std::unique_ptr<Delivery> delivery_;
};

}  // namespace moq::sim::net
