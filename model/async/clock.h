// Time for the stack comes only from a Clock: virtual in the simulated worlds (sim/clock.h),
// real for QUIC. Nanoseconds since an arbitrary epoch.
#pragma once

#include <cstdint>

namespace moq {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual uint64_t now_ns() const = 0;
  // Jumps to t (a virtual clock) and returns true; a real clock cannot and returns false.
  virtual bool advance_to(uint64_t t_ns) = 0;
};

}  // namespace moq
