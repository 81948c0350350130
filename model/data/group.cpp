#include "model/data/group.h"

#include <algorithm>

#include <new>
#include <string>

#include "model/data/errors.h"

namespace moq {
namespace detail {

namespace {
// Destroys and re-creates a wait list in place: unlinks stale waiters without waking them.
void reset_wait_list(WaitList& list, const char* what) {
  list.~WaitList();
  new (&list) WaitList(what);
}
}  // namespace

void GroupState::release() {
  if (--refs != 0) return;
  if (pool) {
    pool->give_back(this);
  } else {
    delete this;
  }
}

void GroupState::recycle(uint64_t seq) {
  sequence = seq;
  status = GroupStatus::Open;
  bytes = 0;
  write_room = kMaxGroupBytes + 1;
  frames.clear();
  chunks.clear();  // releases payload references now, keeps capacity
  error.code = 0;
  error.message.clear();
  reset_wait_list(readable, "group frames");
  reset_wait_list(closed, "group closed");
  cache = nullptr;
  next_idle = nullptr;
}

GroupState* GroupPool::take(uint64_t sequence) {
  GroupState* g = idle_;
  if (g) {
    idle_ = g->next_idle;
    --idle_count_;
    g->next_idle = nullptr;
    g->sequence = sequence;
  } else {
    g = new GroupState(this);
    g->sequence = sequence;
  }
  if (++outstanding_ > peak_outstanding_) peak_outstanding_ = outstanding_;
  return g;
}

void GroupPool::give_back(GroupState* g) {
  --outstanding_;
  // Keep as many idle as were ever out at once (at least max_idle_): a track that recycles a
  // burst of groups every round then allocates none, and what is kept never exceeds what the
  // track already needed at its peak.
  if (closed_ || idle_count_ >= std::max(max_idle_, peak_outstanding_)) {
    delete g;
    if (closed_ && outstanding_ == 0) delete this;
    return;
  }
  g->recycle(0);
  g->next_idle = idle_;
  idle_ = g;
  ++idle_count_;
}

void GroupPool::close() {
  closed_ = true;
  while (GroupState* g = idle_) {
    idle_ = g->next_idle;
    delete g;
  }
  idle_count_ = 0;
  if (outstanding_ == 0) delete this;
}

}  // namespace detail

GroupProducer GroupProducer::create(uint64_t sequence) {
  auto* s = new detail::GroupState(nullptr);
  s->sequence = sequence;
  return GroupProducer(Ref<detail::GroupState>(s));
}

GroupProducer& GroupProducer::operator=(GroupProducer&& o) noexcept {
  if (this != &o) {
    detach();
    s_ = std::move(o.s_);
  }
  return *this;
}

GroupProducer::~GroupProducer() {
  detach();
}

void GroupProducer::detach() {
  if (!s_) return;
  if (s_->status == GroupStatus::Open) {
    abort(Error{data_error::kProducerDropped,
                "group " + std::to_string(s_->sequence) + " producer dropped before finish"});
  }
  s_.reset();
}

Status GroupProducer::write_failed(uint64_t n) const {
  const detail::GroupState& s = *s_;
  if (s.status != GroupStatus::Open) {
    return Error{data_error::kClosed,
                 "write_frame: group " + std::to_string(s.sequence) + " is " +
                     (s.status == GroupStatus::Finished ? "finished" : "aborted")};
  }
  return Error{data_error::kTooLarge, "write_frame: frame of " + std::to_string(n) +
                                          " bytes would exceed the group limit of " +
                                          std::to_string(kMaxGroupBytes) + " bytes (group " +
                                          std::to_string(s.sequence) + " holds " +
                                          std::to_string(s.bytes) + ")"};
}

Status GroupProducer::write_frame(uint64_t timestamp, BufChain& payload) {
  const uint64_t n = payload.size();
  if (!writable(n)) return write_failed(n);
  if (payload.chunk_count() == 1) {  // stored as a frame of one chunk
    (void)append(timestamp, payload.take_front(SIZE_MAX));
    return {};
  }
  detail::GroupState& s = *s_;
  const auto first = static_cast<uint32_t>(s.chunks.size());
  uint32_t count = 0;
  while (!payload.empty()) {
    s.chunks.push_back(payload.take_front(SIZE_MAX));
    ++count;
  }
  payload.clear();
  s.frames.push_back({timestamp, n, Bytes(), first, count});
  appended(n);
  return {};
}

Status GroupProducer::write_frame(uint64_t timestamp, std::span<const Bytes> chunks) {
  uint64_t n = 0;
  uint32_t count = 0;
  for (const Bytes& c : chunks) {
    n += c.size();
    count += c.empty() ? 0 : 1;
  }
  if (!writable(n)) return write_failed(n);
  if (count == 1) {  // stored as a frame of one chunk
    for (const Bytes& c : chunks)
      if (!c.empty()) (void)append(timestamp, Bytes(c));
    return {};
  }
  detail::GroupState& s = *s_;
  const auto first = static_cast<uint32_t>(s.chunks.size());
  for (const Bytes& c : chunks) {
    if (!c.empty()) s.chunks.push_back(c);
  }
  s.frames.push_back({timestamp, n, Bytes(), first, count});
  appended(n);
  return {};
}

Status GroupProducer::finish() {
  detail::GroupState& s = *s_;
  if (s.status != GroupStatus::Open) {
    return Error{data_error::kClosed,
                 "finish: group " + std::to_string(s.sequence) + " is already " +
                     (s.status == GroupStatus::Finished ? "finished" : "aborted")};
  }
  s.status = GroupStatus::Finished;
  s.write_room = 0;
  s.readable.notify_all();
  s.closed.notify_all();
  return {};
}

void GroupProducer::abort(Error reason) {
  detail::GroupState& s = *s_;
  if (s.status != GroupStatus::Open) return;
  s.status = GroupStatus::Aborted;
  s.write_room = 0;
  s.error = std::move(reason);
  s.readable.notify_all();
  s.closed.notify_all();
}

GroupConsumer GroupProducer::consume() const {
  return GroupConsumer(s_, 0);
}

}  // namespace moq
