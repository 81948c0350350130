// Letting old groups go: a publisher resets the stream of a group that has gone stale while its
// open stream still holds bytes the transport has not taken (draft-lcurley-moq-lite-06, Subscriber
// Max Age; moq-transport SUBGROUP_DELIVERY_TIMEOUT). Under congestion the newest group is sent
// first, so an older group waits for credit; once it is stale, the bytes it still owes are only a
// cost.
//
// Choices (both families alike):
//  - A group's age counts from the moment a newer group of the subscription is served (its
//    supersession), on the session's clock: the live group never ages. moq-lite's draft measures
//    age in media timestamps; moq-transport's delivery timeout counts from each object's
//    arrival. Neither is known to a data model that carries no media clock, and both agree that
//    the newest group must not be dropped.
//  - Staleness is checked each time a newer group is served, so a bound of 0 drops a stalled
//    group at once, and a larger bound is applied at the first new group after it ran out (at
//    most one group interval late; no timer per group on the hot path).
//  - A group whose bytes have all been taken by the transport is left to finish: resetting it
//    would save nothing. So is one whose stream is not open yet: groups written in a burst are
//    served together, and their senders have not run when the next one is served.
#pragma once

#include <cstdint>

#include "model/async/list.h"

namespace moq::session::core {

inline constexpr uint64_t kNoStaleBound = UINT64_MAX;

// A bound in milliseconds from the wire, in ns; kNoStaleBound when too large to count.
constexpr uint64_t stale_bound_ns(uint64_t ms) {
  constexpr uint64_t kNsPerMs = 1'000'000;
  return ms < kNoStaleBound / kNsPerMs ? ms * kNsPerMs : kNoStaleBound;
}

// Per group sender: when it was superseded.
class Staleness {
 public:
  // True when the group, superseded now or earlier, has been so for bound_ns.
  bool expired(uint64_t now_ns, uint64_t bound_ns) {
    if (superseded_ns_ == kNever) superseded_ns_ = now_ns;
    return now_ns - superseded_ns_ >= bound_ns;
  }
  void clear() { superseded_ns_ = kNever; }

 private:
  static constexpr uint64_t kNever = UINT64_MAX;
  uint64_t superseded_ns_ = kNever;
};

// Resets (sender.drop_stale()) every sender of a group older than `newest` that still owes bytes
// and has been stale for bound_ns. Sender: sequence(), unsent(), staleness(), drop_stale().
template <class Sender, class Tag>
void drop_stale_senders(IntrusiveList<Sender, Tag>& senders, uint64_t newest, uint64_t now_ns,
                        uint64_t bound_ns) {
  if (bound_ns == kNoStaleBound) return;
  senders.for_each([&](Sender& s) {
    if (s.sequence() < newest && s.unsent() && s.staleness().expired(now_ns, bound_ns))
      s.drop_stale();
  });
}

}  // namespace moq::session::core
