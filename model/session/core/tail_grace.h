// The tail of a subscription: once the publisher has said how many data streams it opened for it
// (moq-lite-07 SUBSCRIBE_END's Stream Count, moq-transport PUBLISH_DONE's), the subscriber waits
// for that many to show their headers before it ends. A stream reset before its header arrived
// never shows one (a reset may overtake the stream's bytes), so the wait also ends after a grace
// period: moq-lite-07 asks for one; moq-transport says the subscriber waits "about the delivery
// timeouts" (draft-ietf-moq-transport, PUBLISH_DONE), and we take the same second when none was
// set.
#pragma once

#include <cstdint>

#include "model/async/executor.h"

namespace moq::session::core {

class TailGrace {
 public:
  static constexpr uint64_t kGraceNs = 1'000'000'000;

  explicit TailGrace(Task& task) : timer_(task) {}

  // True once every stream arrived, or once the grace period since the first call ran out (the
  // first call arms the task's timer, which wakes it then).
  bool over(bool all_arrived) {
    if (all_arrived) return true;
    if (!started_) {
      started_ = true;
      timer_.arm_after(kGraceNs);
      return false;
    }
    return !timer_.armed();
  }
  void reset() {
    timer_.cancel();
    started_ = false;
  }

 private:
  Timer timer_;
  bool started_ = false;
};

}  // namespace moq::session::core
