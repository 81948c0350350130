// Reads the stack's own per-round counts for a case: streams opened and bytes written over every
// watched connection (both endpoints of each pair), and executor polls.
#pragma once

#include <vector>

#include "harness/runner/case.h"
#include "model/async/executor.h"
#include "model/transport.h"

namespace moq::harness {

class StackProbe {
 public:
  explicit StackProbe(const Executor* executor = nullptr) : executor_(executor) {}
  void set_executor(const Executor* executor) { executor_ = executor; }
  // Counts this endpoint too. Watch both endpoints of a pair: each counts what it opened and sent.
  void watch(const Connection& connection) { connections_.push_back(&connection); }
  // Stops counting a connection that is going away (a viewer that leaves mid-case).
  void unwatch(const Connection& connection) { std::erase(connections_, &connection); }
  void clear() { connections_.clear(); }

  StackCounts read() const {
    StackCounts c;
    for (const Connection* conn : connections_) {
      const ConnectionStats& s = conn->stats();
      c.streams_opened += s.uni_opened + s.bidi_opened;
      c.wire_bytes += s.bytes_sent;
      if (const WireStats* w = conn->wire_stats()) {
        c.on_wire = true;
        c.packets += w->packets_sent;
        c.udp_bytes += w->udp_bytes_sent;
      }
    }
    if (executor_) c.tasks_run = executor_->polls();
    return c;
  }

 private:
  const Executor* executor_;
  std::vector<const Connection*> connections_;
};

}  // namespace moq::harness
