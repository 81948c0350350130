// Subscriber preferences of a track and their aggregate.
//
// Every TrackConsumer carries TrackPreferences (what a SUBSCRIBE / SUBSCRIBE_UPDATE asks for).
// The track keeps the aggregate over its consumers, which is what a producer (a session serving
// the track upstream, a relay) needs to forward one upstream subscription for many downstream
// ones. The aggregate is maintained incrementally: a join, leave or update costs O(log n) (one
// indexed binary heap per ordered field, plus counters); nothing is rescanned.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace moq {

struct TrackPreferences {
  uint8_t priority = 0;     // higher is more important (sent first)
  uint64_t max_age_ms = 0;  // staleness bound for non-latest groups; 0: only the live edge
  // Absolute first group wanted; nullopt: live (start at the latest group).
  std::optional<uint64_t> group_start;
  // Last group wanted, inclusive; nullopt: unbounded.
  std::optional<uint64_t> group_end;
  bool ordered = false;  // deliver groups in sequence order rather than newest first

  bool operator==(const TrackPreferences&) const = default;
};

// The aggregate of every consumer's preferences. With no consumers every field has its default.
struct PreferenceSummary {
  uint32_t consumers = 0;
  uint8_t priority = 0;     // max over consumers
  uint64_t max_age_ms = 0;  // max over consumers
  // Earliest floor among consumers that set one; nullopt when none does (all live).
  std::optional<uint64_t> group_start;
  // Latest end among consumers; nullopt when any consumer is unbounded (or there are none).
  std::optional<uint64_t> group_end;
  bool ordered = false;  // true when every consumer asks for ordered delivery

  bool operator==(const PreferenceSummary&) const = default;
};

namespace detail {

// A position in a MaxHeap, embedded in the object it ranks.
struct HeapSlot {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint64_t key = 0;
  uint32_t index = kNone;
  bool linked() const { return index != kNone; }
};

// An indexed binary max-heap of slots: insert, erase, re-key and relocate in O(log n) (O(1) to
// relocate), max in O(1). The vector keeps its capacity when consumers come and go.
class MaxHeap {
 public:
  bool empty() const { return items_.empty(); }
  uint64_t max() const { return items_[0]->key; }
  void insert(HeapSlot& s, uint64_t key);
  void erase(HeapSlot& s);
  void rekey(HeapSlot& s, uint64_t key);
  // The slot moved in memory (its owner was moved): point the heap at the new address.
  void relocate(HeapSlot& from, HeapSlot& to);

 private:
  void sift_up(uint32_t i);
  void sift_down(uint32_t i);
  void place(uint32_t i, HeapSlot* s) {
    items_[i] = s;
    s->index = i;
  }
  std::vector<HeapSlot*> items_;
};

// One consumer's registration in a PreferenceAggregator.
struct PreferenceSlots {
  TrackPreferences prefs;
  HeapSlot priority, max_age, start, end;
  bool registered = false;
};

class PreferenceAggregator {
 public:
  uint32_t consumers() const { return consumers_; }
  PreferenceSummary summary() const;
  void add(PreferenceSlots& slots, const TrackPreferences& prefs);
  void remove(PreferenceSlots& slots);
  void update(PreferenceSlots& slots, const TrackPreferences& prefs);
  void relocate(PreferenceSlots& from, PreferenceSlots& to);

 private:
  MaxHeap priority_, max_age_;
  MaxHeap start_;  // keys are inverted (UINT64_MAX - start) so the max is the earliest floor
  MaxHeap end_;    // bounded ends only
  uint32_t consumers_ = 0;
  uint32_t unbounded_ = 0;
  uint32_t ordered_ = 0;
};

}  // namespace detail
}  // namespace moq
