#include "model/data/preferences.h"

#include <utility>

namespace moq::detail {

void MaxHeap::insert(HeapSlot& s, uint64_t key) {
  s.key = key;
  items_.push_back(&s);
  s.index = static_cast<uint32_t>(items_.size() - 1);
  sift_up(s.index);
}

void MaxHeap::erase(HeapSlot& s) {
  const uint32_t i = s.index;
  HeapSlot* last = items_.back();
  items_.pop_back();
  s.index = HeapSlot::kNone;
  if (last == &s) return;
  place(i, last);
  sift_up(i);
  sift_down(last->index);
}

void MaxHeap::rekey(HeapSlot& s, uint64_t key) {
  const uint64_t old = s.key;
  s.key = key;
  if (key > old) {
    sift_up(s.index);
  } else if (key < old) {
    sift_down(s.index);
  }
}

void MaxHeap::relocate(HeapSlot& from, HeapSlot& to) {
  to.key = from.key;
  to.index = from.index;
  from.index = HeapSlot::kNone;
  if (to.index != HeapSlot::kNone) items_[to.index] = &to;
}

void MaxHeap::sift_up(uint32_t i) {
  HeapSlot* s = items_[i];
  while (i > 0) {
    const uint32_t parent = (i - 1) / 2;
    if (items_[parent]->key >= s->key) break;
    place(i, items_[parent]);
    i = parent;
  }
  place(i, s);
}

void MaxHeap::sift_down(uint32_t i) {
  HeapSlot* s = items_[i];
  const auto n = static_cast<uint32_t>(items_.size());
  for (;;) {
    uint32_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && items_[child + 1]->key > items_[child]->key) ++child;
    if (items_[child]->key <= s->key) break;
    place(i, items_[child]);
    i = child;
  }
  place(i, s);
}

PreferenceSummary PreferenceAggregator::summary() const {
  PreferenceSummary out;
  out.consumers = consumers_;
  if (consumers_ == 0) return out;
  out.priority = static_cast<uint8_t>(priority_.max());
  out.max_age_ms = max_age_.max();
  if (!start_.empty()) out.group_start = UINT64_MAX - start_.max();
  if (unbounded_ == 0) out.group_end = end_.max();
  out.ordered = ordered_ == consumers_;
  return out;
}

void PreferenceAggregator::add(PreferenceSlots& slots, const TrackPreferences& prefs) {
  slots.prefs = prefs;
  slots.registered = true;
  ++consumers_;
  priority_.insert(slots.priority, prefs.priority);
  max_age_.insert(slots.max_age, prefs.max_age_ms);
  if (prefs.group_start) start_.insert(slots.start, UINT64_MAX - *prefs.group_start);
  if (prefs.group_end) {
    end_.insert(slots.end, *prefs.group_end);
  } else {
    ++unbounded_;
  }
  if (prefs.ordered) ++ordered_;
}

void PreferenceAggregator::remove(PreferenceSlots& slots) {
  if (!slots.registered) return;
  slots.registered = false;
  --consumers_;
  priority_.erase(slots.priority);
  max_age_.erase(slots.max_age);
  if (slots.start.linked()) start_.erase(slots.start);
  if (slots.end.linked()) {
    end_.erase(slots.end);
  } else {
    --unbounded_;
  }
  if (slots.prefs.ordered) --ordered_;
}

void PreferenceAggregator::update(PreferenceSlots& slots, const TrackPreferences& prefs) {
  const TrackPreferences& old = slots.prefs;
  priority_.rekey(slots.priority, prefs.priority);
  max_age_.rekey(slots.max_age, prefs.max_age_ms);
  if (prefs.group_start && old.group_start) {
    start_.rekey(slots.start, UINT64_MAX - *prefs.group_start);
  } else if (prefs.group_start) {
    start_.insert(slots.start, UINT64_MAX - *prefs.group_start);
  } else if (old.group_start) {
    start_.erase(slots.start);
  }
  if (prefs.group_end && old.group_end) {
    end_.rekey(slots.end, *prefs.group_end);
  } else if (prefs.group_end) {
    end_.insert(slots.end, *prefs.group_end);
    --unbounded_;
  } else if (old.group_end) {
    end_.erase(slots.end);
    ++unbounded_;
  }
  ordered_ += static_cast<uint32_t>(prefs.ordered) - static_cast<uint32_t>(old.ordered);
  slots.prefs = prefs;
}

void PreferenceAggregator::relocate(PreferenceSlots& from, PreferenceSlots& to) {
  to.prefs = from.prefs;
  to.registered = std::exchange(from.registered, false);
  priority_.relocate(from.priority, to.priority);
  max_age_.relocate(from.max_age, to.max_age);
  start_.relocate(from.start, to.start);
  end_.relocate(from.end, to.end);
}

}  // namespace moq::detail
