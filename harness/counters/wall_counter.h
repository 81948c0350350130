// Wall-clock time of a region, from the steady clock. Only the harness reads clocks; the stack
// never does. Wall time is noisy and never a gate: it is reported next to the exact counts.
#pragma once

#include <chrono>
#include <cstdint>

namespace moq::counters {

class WallCounter {
 public:
  void start() { start_ = std::chrono::steady_clock::now(); }
  // Nanoseconds since the last start().
  uint64_t elapsed_ns() const {
    auto d = std::chrono::steady_clock::now() - start_;
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace moq::counters
