#include "model/data/track.h"

#include <algorithm>
#include <string>
#include <utility>

#include "model/data/broadcast.h"
#include "model/data/errors.h"

namespace moq {
namespace detail {

namespace {
// Idle group states a track keeps for reuse. Steady state needs about one per group in flight
// between creation and eviction; more would only hold memory.
constexpr uint32_t kPooledGroups = 8;

const char* status_name(TrackStatus s) {
  switch (s) {
    case TrackStatus::Pending:
      return "pending";
    case TrackStatus::Active:
      return "active";
    case TrackStatus::Finished:
      return "finished";
    case TrackStatus::Aborted:
      return "aborted";
  }
  return "unknown";
}
}  // namespace

void cache_over_budget(CacheAccount& account) {
  static_cast<TrackState&>(account).trim_bytes();
}

TrackState::TrackState(std::string name, Clock& clock, TrackStatus status, const TrackInfo& info)
    : name(std::move(name)),
      clock(&clock),
      status(status),
      info(info),
      pool(new GroupPool(kPooledGroups)) {
  max_bytes = info.cache.max_bytes;
}

TrackState::~TrackState() {
  clear_cache();
  pool->close();
}

size_t TrackState::find(uint64_t sequence) const {
  const size_t n = cache.size();
  size_t at = kNotFound;
  if (descents == 0) {
    // Sequences strictly increase along the cache (holes keep theirs): binary search.
    size_t lo = 0;
    size_t hi = n;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (cache[mid].sequence < sequence) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < n && cache[lo].sequence == sequence) at = lo;
  } else {
    // Out-of-order arrivals: scan from the newest, where lookups usually land.
    for (size_t i = n; i-- > 0;) {
      if (cache[i].sequence == sequence && cache[i].group) {
        at = i;
        break;
      }
    }
  }
  return at != kNotFound && cache[at].group ? at : kNotFound;
}

Result<Ref<GroupState>> TrackState::create_group(uint64_t sequence) {
  if (status == TrackStatus::Pending || status == TrackStatus::Aborted ||
      (status == TrackStatus::Finished && sequence >= end_sequence)) {
    std::string why = std::string("track is ") + status_name(status);
    if (status == TrackStatus::Finished) why += " with end " + std::to_string(end_sequence);
    if (status == TrackStatus::Aborted) why += " (" + error.message + ")";
    return Error{data_error::kClosed, "create_group: track '" + name + "' group " +
                                          std::to_string(sequence) + ": " + why};
  }
  if (find(sequence) != kNotFound) {
    return Error{data_error::kDuplicate, "create_group: track '" + name + "' group " +
                                             std::to_string(sequence) + " already exists"};
  }
  const uint64_t now = clock->now_ns();  // the one clock read per group
  // Held across the bounds below: a straggler may be evicted before the caller gets it.
  Ref<GroupState> g(pool->take(sequence));
  CacheEntry entry;
  entry.group = g;
  entry.sequence = sequence;
  if (!has_latest_) {
    has_latest_ = true;
    latest_arrival = next_arrival;
    latest_sequence = sequence;
  } else if (sequence > latest_sequence) {
    latest_entry().superseded_ns = now;
    latest_arrival = next_arrival;
    latest_sequence = sequence;
  } else {
    entry.superseded_ns = now;  // a late group is superseded on arrival
  }
  if (!cache.empty() && sequence < cache.back().sequence) ++descents;
  g->cache = this;
  cache.push_back(std::move(entry));
  ++cached_count;
  ++next_arrival;

  const uint32_t max_groups = std::max<uint32_t>(info.cache.max_groups, 1);
  while (cached_count > max_groups && evict_oldest()) {
  }
  expire(now);
  trim_bytes();
  groups.notify_all();
  return g;
}

void TrackState::expire(uint64_t now_ns) {
  const uint64_t max_age = info.cache.max_age_ns;
  for (;;) {
    const size_t i = oldest_evictable();
    if (i == kNotFound) return;
    const uint64_t superseded = cache[i].superseded_ns;
    const uint64_t age = now_ns > superseded ? now_ns - superseded : 0;
    if (age < max_age) return;
    evict_oldest();
  }
}

void TrackState::trim_bytes() {
  while (cached_bytes > max_bytes && evict_oldest()) {
  }
}

size_t TrackState::oldest_evictable() const {
  // Usually the front. Only when the latest group sits at the front (groups arrived newest
  // first) do we look past it, over holes left by earlier out-of-order evictions.
  const size_t latest = latest_arrival - base_arrival;
  for (size_t i = 0; i < cache.size(); ++i) {
    if (i != latest && cache[i].group) return i;
  }
  return kNotFound;
}

bool TrackState::evict_oldest() {
  const size_t i = oldest_evictable();
  if (i == kNotFound) return false;
  CacheEntry& e = cache[i];
  GroupState* g = e.group.get();
  cached_bytes -= g->bytes;
  g->cache = nullptr;
  --cached_count;
  e.group.reset();  // drops the cache's reference; the entry stays as a hole until popped
  while (!cache.empty() && !cache.front().group)
    pop_front();
  return true;
}

void TrackState::pop_front() {
  if (cache.size() > 1 && cache.front().sequence > cache[1].sequence) --descents;
  cache.pop_front();
  ++base_arrival;
}

void TrackState::clear_cache() {
  for (size_t i = 0; i < cache.size(); ++i) {
    if (GroupState* g = cache[i].group.get()) g->cache = nullptr;
  }
  cache.clear();
  base_arrival = next_arrival;
  cached_bytes = 0;
  cached_count = 0;
  descents = 0;
  has_latest_ = false;
}

void TrackState::activate(const TrackInfo& new_info) {
  status = TrackStatus::Active;
  info = new_info;
  max_bytes = info.cache.max_bytes;
  Link<RequestTag>::unlink();
  state_changed.notify_all();
}

Status TrackState::finish(uint64_t end) {
  if (status != TrackStatus::Active) {
    return Error{data_error::kClosed,
                 "finish: track '" + name + "' is " + status_name(status) + ", not active"};
  }
  if (has_latest_ && end <= latest_sequence) {
    return Error{data_error::kInvalid, "finish: track '" + name + "' end " + std::to_string(end) +
                                           " is not above the latest group " +
                                           std::to_string(latest_sequence)};
  }
  status = TrackStatus::Finished;
  end_sequence = end;
  groups.notify_all();
  state_changed.notify_all();
  return {};
}

void TrackState::abort(Error reason) {
  if (status == TrackStatus::Aborted) return;
  Ref<TrackState> hold(this);  // forgetting it in the broadcast may drop the last other ref
  status = TrackStatus::Aborted;
  error = std::move(reason);
  clear_cache();
  Link<RequestTag>::unlink();
  if (broadcast) broadcast_forget(*broadcast, *this);
  groups.notify_all();
  state_changed.notify_all();
}

void TrackState::preferences_moved(const PreferenceSummary& before) {
  if (prefs.summary() != before) preferences_changed.notify_all();
}

void TrackState::add_consumer(PreferenceSlots& slots, const TrackPreferences& p) {
  const PreferenceSummary before = prefs.summary();
  prefs.add(slots, p);
  preferences_moved(before);
}

void TrackState::update_consumer(PreferenceSlots& slots, const TrackPreferences& p) {
  const PreferenceSummary before = prefs.summary();
  prefs.update(slots, p);
  preferences_moved(before);
}

void TrackState::remove_consumer(PreferenceSlots& slots) {
  const PreferenceSummary before = prefs.summary();
  prefs.remove(slots);
  preferences_moved(before);
  if (prefs.consumers() != 0) return;
  unused.notify_all();
  // A request still waiting in the queue is withdrawn: nobody wants the answer any more.
  if (status == TrackStatus::Pending && Link<RequestTag>::linked()) {
    abort(
        Error{data_error::kCancelled, "track '" + name + "' request cancelled: no consumers left"});
  }
}

}  // namespace detail

// ---- TrackProducer ----

TrackProducer TrackProducer::create(std::string name, Clock& clock, const TrackInfo& info) {
  return TrackProducer(Ref<detail::TrackState>(
      new detail::TrackState(std::move(name), clock, TrackStatus::Active, info)));
}

TrackProducer& TrackProducer::operator=(TrackProducer&& o) noexcept {
  if (this != &o) {
    detach();
    s_ = std::move(o.s_);
  }
  return *this;
}

TrackProducer::~TrackProducer() {
  detach();
}

void TrackProducer::detach() {
  if (!s_) return;
  if (s_->status == TrackStatus::Active || s_->status == TrackStatus::Pending) {
    s_->abort(Error{data_error::kProducerDropped,
                    "track '" + s_->name + "' producer dropped before finish"});
  }
  s_.reset();
}

Result<GroupProducer> TrackProducer::create_group(uint64_t sequence) {
  Result<Ref<detail::GroupState>> g = s_->create_group(sequence);
  if (!g) return g.error();
  return GroupProducer(std::move(*g));
}

Result<GroupProducer> TrackProducer::append_group() {
  return create_group(s_->has_latest() ? s_->latest_sequence + 1 : 0);
}

Status TrackProducer::finish() {
  return s_->finish(s_->has_latest() ? s_->latest_sequence + 1 : 0);
}

Status TrackProducer::finish_at(uint64_t end_sequence) {
  return s_->finish(end_sequence);
}

void TrackProducer::abort(Error reason) {
  s_->abort(std::move(reason));
}

void TrackProducer::expire() {
  s_->expire(s_->clock->now_ns());
}

TrackConsumer TrackProducer::consume(const TrackPreferences& prefs) const {
  return TrackConsumer(s_, prefs);
}

std::optional<uint64_t> TrackProducer::latest_sequence() const {
  if (!s_->has_latest()) return std::nullopt;
  return s_->latest_sequence;
}

// ---- TrackConsumer ----

TrackConsumer::TrackConsumer(Ref<detail::TrackState> s, const TrackPreferences& prefs)
    : s_(std::move(s)) {
  detail::TrackState& t = *s_;
  t.add_consumer(slots_, prefs);
  place_cursor();
}

void TrackConsumer::place_cursor() {
  const detail::TrackState& t = *s_;
  if (slots_.prefs.group_start) {
    cursor_ = t.base_arrival;
    min_seq_ = *slots_.prefs.group_start;
  } else if (t.has_latest()) {
    cursor_ = t.latest_arrival;
    min_seq_ = t.latest_sequence;
  } else {
    cursor_ = t.next_arrival;
    min_seq_ = 0;
  }
}

TrackConsumer::TrackConsumer(TrackConsumer&& o) noexcept
    : s_(std::move(o.s_)), cursor_(o.cursor_), min_seq_(o.min_seq_) {
  if (s_) s_->prefs.relocate(o.slots_, slots_);
}

TrackConsumer& TrackConsumer::operator=(TrackConsumer&& o) noexcept {
  if (this != &o) {
    detach();
    s_ = std::move(o.s_);
    cursor_ = o.cursor_;
    min_seq_ = o.min_seq_;
    if (s_) s_->prefs.relocate(o.slots_, slots_);
  }
  return *this;
}

TrackConsumer::~TrackConsumer() {
  detach();
}

void TrackConsumer::detach() {
  if (!s_) return;
  Ref<detail::TrackState> s = std::move(s_);
  s->remove_consumer(slots_);
}

TrackConsumer TrackConsumer::clone() const {
  TrackConsumer c(s_, slots_.prefs);
  c.cursor_ = cursor_;
  c.min_seq_ = min_seq_;
  return c;
}

std::optional<uint64_t> TrackConsumer::end_sequence() const {
  if (s_->status != TrackStatus::Finished) return std::nullopt;
  return s_->end_sequence;
}

void TrackConsumer::update(const TrackPreferences& prefs) {
  s_->update_consumer(slots_, prefs);
  if (prefs.group_start) min_seq_ = *prefs.group_start;
}

void TrackConsumer::restart(const TrackPreferences& prefs) {
  s_->update_consumer(slots_, prefs);
  place_cursor();
}

Next TrackConsumer::next(GroupConsumer& out) {
  detail::TrackState& t = *s_;
  if (t.status == TrackStatus::Aborted) return Next::Aborted;
  if (cursor_ < t.base_arrival) cursor_ = t.base_arrival;  // skip what was evicted
  const std::optional<uint64_t>& end = slots_.prefs.group_end;
  while (cursor_ < t.next_arrival) {
    detail::CacheEntry& e = t.cache[cursor_ - t.base_arrival];
    ++cursor_;
    if (!e.group || e.sequence < min_seq_ || (end && e.sequence > *end)) continue;
    out = GroupConsumer(e.group);
    return Next::Ready;
  }
  if (t.status == TrackStatus::Finished) return Next::End;
  if (end && t.has_latest() && t.latest_sequence >= *end) return Next::End;
  return Next::Pending;
}

std::optional<GroupConsumer> TrackConsumer::get_group(uint64_t sequence) const {
  const size_t i = s_->find(sequence);
  if (i == detail::TrackState::kNotFound) return std::nullopt;
  return GroupConsumer(s_->cache[i].group);
}

std::optional<GroupConsumer> TrackConsumer::request_group(uint64_t sequence,
                                                          uint8_t priority) const {
  const detail::TrackState& t = *s_;
  if (!t.broadcast || t.status == TrackStatus::Aborted) return std::nullopt;
  if (t.has_latest() && sequence >= t.latest_sequence) return std::nullopt;
  return detail::broadcast_request_group(*t.broadcast, t.name, sequence, priority);
}

std::optional<GroupConsumer> TrackConsumer::latest() const {
  if (!s_->has_latest()) return std::nullopt;
  return GroupConsumer(s_->latest_entry().group);
}

std::optional<uint64_t> TrackConsumer::latest_sequence() const {
  if (!s_->has_latest()) return std::nullopt;
  return s_->latest_sequence;
}

}  // namespace moq
