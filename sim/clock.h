// Virtual time: starts at zero and moves only when the executor advances it to the next timer.
#pragma once

#include "model/async/clock.h"

namespace moq::sim {

class VirtualClock final : public Clock {
 public:
  uint64_t now_ns() const override { return now_; }
  bool advance_to(uint64_t t_ns) override {
    if (t_ns > now_) now_ = t_ns;
    return true;
  }

 private:
  uint64_t now_ = 0;
};

}  // namespace moq::sim
