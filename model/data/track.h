// Track: a named sequence of groups with a bounded cache.
//
// A TrackProducer creates groups by sequence number; each new group enters the track's cache and
// becomes visible to every TrackConsumer at once (consumers read the group while it is written).
//
// Cache. Groups are kept in arrival order and bounded by CacheLimits: a count, a byte total, and
// an age. The age of a group is measured from the moment a newer group (higher sequence) first
// appeared, so max_age_ns = 0 keeps only the latest group (as moq-lite's Publisher Max Age 0).
// The latest group (highest sequence) is never evicted; a bound evicts the oldest arrival other
// than the latest (even when the latest arrived first, as with newest-first delivery). The clock is
// read once per created group (and by expire()), never per frame; the byte bound is checked on each
// write as an O(1) comparison. Eviction only drops the cache's reference: a consumer holding a
// group keeps reading it. Evicted groups return their storage to the track's pool once
// unreferenced.
//
// Consumers. A TrackConsumer yields each group once, in ARRIVAL order (the order the producer
// created them; for a live publisher that is sequence order, and it also delivers late,
// out-of-order groups from a relay's upstream). Where it starts:
//   - live (preferences.group_start unset): at the latest cached group, then every later arrival
//     whose sequence is not below that group's;
//   - from a floor (group_start = S): every cached group with sequence >= S, oldest arrival
//     first, then every later arrival with sequence >= S.
// Groups above preferences.group_end are skipped, and next() reports End once the track has a
// group at or beyond group_end and the consumer has caught up. A consumer that falls behind the
// cache skips what was evicted. Newest-first sending under congestion is the session's job
// (send order), not the cursor's.
//
// Preferences. Each consumer carries TrackPreferences; the producer reads their aggregate
// (PreferenceSummary), updated in O(log n) per join, leave or update. preferences_changed() is
// notified only when the aggregate actually changes; unused() when the last consumer leaves.
//
// End of a track. finish() records the exclusive end sequence (groups below it may still be
// created: stragglers); consumers drain the cache and then see End. abort(reason) clears the
// cache and every consumer sees Aborted with the reason at once. Dropping the TrackProducer of
// an unfinished track aborts it with data_error::kProducerDropped.
//
// Wake rules: groups() is notified on a new group, finish and abort; state_changed() on
// Pending -> Active, finish and abort; preferences_changed() and unused() as above.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/async/clock.h"
#include "model/async/executor.h"
#include "model/async/list.h"
#include "model/base/ref.h"
#include "model/base/result.h"
#include "model/base/ring.h"
#include "model/data/group.h"
#include "model/data/preferences.h"

namespace moq {

enum class TrackStatus : uint8_t {
  Pending,   // requested by a consumer, not yet accepted by a producer (see Broadcast)
  Active,    // groups may be created
  Finished,  // end sequence known; stragglers below it may still arrive
  Aborted,   // error() says why; the cache is empty
};

struct CacheLimits {
  uint32_t max_groups = 16;                 // groups kept (the latest is always kept)
  uint64_t max_bytes = uint64_t{64} << 20;  // payload bytes over the cached groups
  uint64_t max_age_ns = UINT64_MAX;         // how long a group stays once a newer group exists
};

// What the publisher states about a track (moq-lite TRACK_INFO; fixed for its life).
struct TrackInfo {
  uint8_t priority = 0;       // publisher priority: breaks ties between equal subscriber ones
  uint64_t timescale = 1000;  // frame timestamp units per second
  CacheLimits cache;          // cache.max_age_ns doubles as the publisher's max age
};

class TrackProducer;
class TrackConsumer;
class TrackRequest;
class BroadcastProducer;
class BroadcastConsumer;

namespace detail {

struct RequestTag;
class BroadcastState;

struct CacheEntry {
  Ref<GroupState> group;  // null: evicted out of order (a hole, popped when it reaches the front)
  uint64_t sequence = 0;
  uint64_t superseded_ns = 0;  // when a newer group appeared (non-latest entries only)
};

// Shared state of one track. Internal: use TrackProducer / TrackConsumer. Linked into its
// broadcast's request queue while a consumer's request for it waits for the producer side.
class TrackState : public Link<RequestTag>, public CacheAccount {
 public:
  TrackState(std::string name, Clock& clock, TrackStatus status, const TrackInfo& info);
  TrackState(const TrackState&) = delete;
  TrackState& operator=(const TrackState&) = delete;
  ~TrackState();

  void add_ref() { ++refs; }
  void release() {
    if (--refs == 0) delete this;
  }

  static constexpr size_t kNotFound = SIZE_MAX;
  // Index in the cache of the group with this sequence, or kNotFound.
  size_t find(uint64_t sequence) const;
  // The new group, referenced (it may already be evicted when it is a straggler).
  Result<Ref<GroupState>> create_group(uint64_t sequence);
  void activate(const TrackInfo& info);
  Status finish(uint64_t end);
  void abort(Error reason);
  void expire(uint64_t now_ns);
  // Evicts old groups while the cache is over its byte bound.
  void trim_bytes();
  bool has_latest() const { return has_latest_; }
  CacheEntry& latest_entry() { return cache[latest_arrival - base_arrival]; }

  void add_consumer(PreferenceSlots& slots, const TrackPreferences& prefs);
  void remove_consumer(PreferenceSlots& slots);
  void update_consumer(PreferenceSlots& slots, const TrackPreferences& prefs);

  uint32_t refs = 0;
  std::string name;
  Clock* clock;
  TrackStatus status;
  TrackInfo info;
  Error error;
  bool producer_taken = false;  // a TrackProducer was handed out
  uint64_t end_sequence = 0;    // exclusive end, once Finished

  GroupPool* pool;
  Ring<CacheEntry> cache;       // arrival order; arrival numbers base_arrival.. are contiguous
  uint32_t cached_count = 0;    // entries holding a group (not holes)
  uint64_t base_arrival = 0;    // arrival number of cache front
  uint64_t next_arrival = 0;    // arrival number the next group gets
  uint64_t latest_arrival = 0;  // arrival number of the highest sequence (when has_latest_)
  uint64_t latest_sequence = 0;
  uint32_t descents = 0;  // adjacent cache pairs whose sequence decreases; 0: sorted

  PreferenceAggregator prefs;
  BroadcastState* broadcast = nullptr;  // the broadcast listing it, while listed

  WaitList groups{"track groups"};
  WaitList state_changed{"track state"};
  WaitList preferences_changed{"track preferences"};
  WaitList unused{"track unused"};

 private:
  // Index of the oldest cached group other than the latest, or kNotFound.
  size_t oldest_evictable() const;
  // Evicts the oldest group other than the latest; false when only the latest is left.
  bool evict_oldest();
  void pop_front();
  void clear_cache();
  void preferences_moved(const PreferenceSummary& before);
  bool has_latest_ = false;
};

}  // namespace detail

// The writing end of a track. Move-only; there is one per track.
class TrackProducer {
 public:
  TrackProducer() = default;
  // A standalone track (not listed in a broadcast). The clock is read once per created group.
  static TrackProducer create(std::string name, Clock& clock, const TrackInfo& info = {});
  TrackProducer(TrackProducer&&) noexcept = default;
  TrackProducer& operator=(TrackProducer&& o) noexcept;
  TrackProducer(const TrackProducer&) = delete;
  TrackProducer& operator=(const TrackProducer&) = delete;
  // Aborts an unfinished track with data_error::kProducerDropped.
  ~TrackProducer();

  explicit operator bool() const { return static_cast<bool>(s_); }
  const std::string& name() const { return s_->name; }
  const TrackInfo& info() const { return s_->info; }
  TrackStatus status() const { return s_->status; }

  // A new group with this sequence, cached and visible to consumers at once. Fails when the
  // sequence is cached already (kDuplicate), when the track is aborted (kClosed), or when it is
  // finished and the sequence is not below the end (kClosed).
  Result<GroupProducer> create_group(uint64_t sequence);
  // A new group after the latest one (sequence 0 for the first).
  Result<GroupProducer> append_group();

  // Ends the track after the latest group (end = latest + 1, or 0 with no group).
  Status finish();
  // Ends the track with an explicit exclusive end, which must be above every cached sequence.
  Status finish_at(uint64_t end_sequence);
  // Ends the track with a reason every consumer sees; empties the cache. No effect once aborted.
  void abort(Error reason);

  // Evicts groups older than the cache age bound now (reads the clock). Creating a group does
  // this too; call it from a timer to trim an idle track.
  void expire();

  TrackConsumer consume(const TrackPreferences& prefs = {}) const;
  PreferenceSummary preferences() const { return s_->prefs.summary(); }
  uint32_t consumer_count() const { return s_->prefs.consumers(); }
  WaitList& preferences_changed() const { return s_->preferences_changed; }
  WaitList& unused() const { return s_->unused; }

  std::optional<uint64_t> latest_sequence() const;
  size_t cached_groups() const { return s_->cached_count; }
  uint64_t cached_bytes() const { return s_->cached_bytes; }
  // Idle group states kept by the track's pool (for tests of recycling).
  uint32_t pooled_groups() const { return s_->pool->idle(); }

 private:
  friend class BroadcastProducer;
  friend class TrackRequest;
  explicit TrackProducer(Ref<detail::TrackState> s) : s_(std::move(s)) {
    s_->producer_taken = true;
  }
  void detach();
  Ref<detail::TrackState> s_;
};

// A reader of a track: a cursor over its groups plus this reader's preferences. Move-only (its
// registration in the preference aggregate follows it); clone() makes an independent copy.
class TrackConsumer {
 public:
  TrackConsumer() = default;
  TrackConsumer(TrackConsumer&& o) noexcept;
  TrackConsumer& operator=(TrackConsumer&& o) noexcept;
  TrackConsumer(const TrackConsumer&) = delete;
  TrackConsumer& operator=(const TrackConsumer&) = delete;
  ~TrackConsumer();
  // Another consumer at the same position with the same preferences.
  TrackConsumer clone() const;

  explicit operator bool() const { return static_cast<bool>(s_); }
  const std::string& name() const { return s_->name; }
  TrackStatus status() const { return s_->status; }
  // The publisher's info; meaningful once status() is not Pending.
  const TrackInfo& info() const { return s_->info; }
  // Why the track aborted (status() Aborted).
  const Error& error() const { return s_->error; }
  // The exclusive end sequence once the track finished.
  std::optional<uint64_t> end_sequence() const;

  const TrackPreferences& preferences() const { return slots_.prefs; }
  // Replaces this consumer's preferences (SUBSCRIBE_UPDATE). A new floor raises the cursor's
  // minimum sequence; it does not rewind to groups already passed.
  void update(const TrackPreferences& prefs);
  // Starts over with new preferences, exactly as a consumer subscribed now with them would (the
  // cursor placed as the constructor places it), without looking the track up again: a request
  // that checked the track with default preferences keeps its consumer once it knows its own.
  void restart(const TrackPreferences& prefs);

  // The next group this consumer has not seen (see the header comment for the order). Pending:
  // wait on groups().
  Next next(GroupConsumer& out);
  // A cached group by sequence (FETCH), without moving the cursor.
  std::optional<GroupConsumer> get_group(uint64_t sequence) const;
  // For a FETCH get_group() missed: a group the producer side is asked for (a GroupRequest,
  // model/data/broadcast.h), when the track's broadcast serves group requests, the track is not
  // aborted, and the sequence is below its latest group (or it has none yet: a group above the
  // latest comes by subscription, not by FETCH). The group is this caller's alone; it is not
  // cached. nullopt otherwise.
  std::optional<GroupConsumer> request_group(uint64_t sequence, uint8_t priority) const;
  // The cached group with the highest sequence.
  std::optional<GroupConsumer> latest() const;
  std::optional<uint64_t> latest_sequence() const;

  WaitList& groups() const { return s_->groups; }
  WaitList& state_changed() const { return s_->state_changed; }

 private:
  friend class TrackProducer;
  friend class BroadcastConsumer;
  TrackConsumer(Ref<detail::TrackState> s, const TrackPreferences& prefs);
  void detach();
  void place_cursor();

  Ref<detail::TrackState> s_;
  uint64_t cursor_ = 0;   // next arrival number to look at
  uint64_t min_seq_ = 0;  // groups below this sequence are skipped
  detail::PreferenceSlots slots_;
};

}  // namespace moq
