// Linger: how long a subscription to the peer outlives its last consumer
// (SessionConfig::linger_ns). A relay's viewers come and go, and a moq-lite viewer's TRACK
// request leaves before its SUBSCRIBE arrives: cancelling the upstream subscription at once
// would only have it opened again. With 0 (the default) a subscription is cancelled as soon as
// nobody wants it, as before.
#pragma once

#include <cstdint>
#include <optional>

#include "model/async/executor.h"

namespace moq::session::core {

class Linger {
 public:
  explicit Linger(Task& task) : timer_(task) {}

  // True when a subscription with `consumers` consumers should be cancelled now: none is left
  // and the linger has run out. While it lingers, the task's timer wakes it at the deadline; a
  // consumer that comes back in time ends the linger.
  bool expired(uint32_t consumers, uint64_t linger_ns, uint64_t now_ns) {
    if (consumers > 0) [[likely]] {
      if (until_) reset();
      return false;
    }
    if (linger_ns == 0) return true;
    if (!until_) {
      until_ = now_ns + linger_ns;
      timer_.arm_at(*until_);
      return false;
    }
    return now_ns >= *until_;
  }
  // Whether a linger is running (the last consumer left and the deadline is armed). A caller
  // checks consumers > 0 && !running() first, the common case, before it reads the clock.
  bool running() const { return until_.has_value(); }
  void reset() {
    timer_.cancel();
    until_.reset();
  }

 private:
  Timer timer_;
  std::optional<uint64_t> until_;
};

}  // namespace moq::session::core
