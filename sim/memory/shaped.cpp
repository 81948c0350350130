// What a shaped network (PairConfig::network, Core::shaped) adds to the core's slow paths: when
// written bytes arrive, and reads of only what arrived. Datagrams are shaped in place
// (Core::send_datagram / recv_datagram), as their queue is a side's, not a channel's.
#include <algorithm>

#include "sim/memory/core.h"

namespace moq::sim::memory::detail {

void Core::sent(Channel& c, uint64_t n) {
  const uint64_t now = executor->now_ns();
  const uint64_t due = link[c.from].arrival(now, n);
  c.arrivals.push_back({due, n});
  if (due > now) {
    cfg.network->wake_at(due, c.readable, this);
  } else {
    c.readable.notify_all();
  }
}

// Flow-control credit still returns at once: the network delays the bytes, not the credit.
ReadResult Core::read_shaped(Channel& c, Bytes& chunk, size_t max) {
  const uint64_t now = executor->now_ns();
  while (!c.arrivals.empty() && c.arrivals.front().due <= now)
    c.arrived += c.arrivals.pop_front().bytes;
  if (c.arrived == 0) {
    // Bytes on the way: the reader is woken when they arrive (sent()).
    if (!c.arrivals.empty()) {
      chunk.reset();
      return {ReadStatus::WouldBlock};
    }
    return read_without_data(c, chunk);
  }
  c.arrived -= hand_out(c, chunk, static_cast<size_t>(std::min<uint64_t>(max, c.arrived)));
  return {ReadStatus::Data};
}

}  // namespace moq::sim::memory::detail
