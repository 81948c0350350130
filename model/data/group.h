// Group: one group of a track, an append-only sequence of frames.
//
// One GroupProducer appends frames, then finishes or aborts the group. Any number of
// GroupConsumers read it, each with its own frame index. Frames are values stored in two vectors
// owned by the group (frame entries, each holding the payload of a frame of one chunk, and the
// chunks of frames of several); a group taken from a track's pool keeps the capacity of those
// vectors from its previous use, so steady-state writing allocates nothing, and the allocations
// of a group do not grow with its frame count.
//
// Wake rules (wait lists split by what a waiter needs; ARCHITECTURE.md, "The runtime"):
//  - readable(): notified when a frame is appended and when the group finishes or aborts, i.e.
//    whenever a reader waiting for "the next frame or the end" has something to look at.
//  - closed():   notified only when the group finishes or aborts; writes do not wake it.
// Notification only enqueues tasks; nothing runs inline.
//
// Teardown: dropping the GroupProducer of an open group aborts it with
// data_error::kProducerDropped, so readers wake and see the reason instead of hanging. Dropping
// consumers releases their reference; the group's storage goes back to its pool (or is freed)
// when the last reference (producer, consumers, the track's cache) is gone.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/ref.h"
#include "model/base/result.h"
#include "model/data/frame.h"

namespace moq {

// What a consumer's next() found.
enum class Next : uint8_t {
  Ready,    // an item was returned
  Pending,  // nothing now: arm a Waiter on the named wait list and poll again when woken
  End,      // finished and everything was read
  Aborted,  // aborted: error() says why
};

enum class GroupStatus : uint8_t { Open, Finished, Aborted };

// Largest payload one group may hold; a write beyond it fails with data_error::kTooLarge.
constexpr uint64_t kMaxGroupBytes = uint64_t{64} << 20;

namespace detail {

class GroupPool;

// The byte account of a track's cache, charged by its cached groups as they grow. The track
// derives from it; a group reaches it without knowing the track type.
struct CacheAccount {
  uint64_t cached_bytes = 0;
  uint64_t max_bytes = UINT64_MAX;
};
// Evicts old groups until the account is within budget (defined with the track).
void cache_over_budget(CacheAccount& account);

// One frame. A frame of one chunk (the usual frame) keeps it here, so that writing it is one
// vector append; a frame of none or several keeps its chunks in GroupState::chunks.
struct FrameEntry {
  // A constructor, not an aggregate: emplace_back builds the entry in place, and clang 14 (the
  // fuzzing build) has no parenthesized aggregate initialization.
  FrameEntry(uint64_t timestamp, uint64_t size, Bytes&& payload, uint32_t first_chunk,
             uint32_t chunk_count)
      : timestamp(timestamp),
        size(size),
        payload(std::move(payload)),
        first_chunk(first_chunk),
        chunk_count(chunk_count) {}

  uint64_t timestamp;
  uint64_t size;
  Bytes payload;         // the chunk of a frame of one chunk; else empty
  uint32_t first_chunk;  // a frame of several chunks: index of the first in GroupState::chunks
  uint32_t chunk_count;
};

// The shared state of one group. Internal: use GroupProducer / GroupConsumer.
class GroupState {
 public:
  explicit GroupState(GroupPool* pool) : pool(pool) {}
  GroupState(const GroupState&) = delete;
  GroupState& operator=(const GroupState&) = delete;

  void add_ref() { ++refs; }
  void release();
  // Back to a fresh open group with the given sequence, keeping vector capacity.
  void recycle(uint64_t seq);

  FrameView view(size_t i) const {
    const FrameEntry& e = frames[i];
    const Bytes* first = e.chunk_count == 1 ? &e.payload : chunks.data() + e.first_chunk;
    return FrameView{e.timestamp, e.size, {first, e.chunk_count}};
  }

  uint32_t refs = 0;
  uint64_t sequence = 0;
  GroupStatus status = GroupStatus::Open;
  uint64_t bytes = 0;  // payload bytes of all frames
  // One more than the bytes a frame may still add while the group is open (kMaxGroupBytes -
  // bytes + 1), 0 once it is closed: a frame of n bytes may be appended when n < write_room, one
  // compare on the per-frame path.
  uint64_t write_room = kMaxGroupBytes + 1;
  std::vector<FrameEntry> frames;
  std::vector<Bytes> chunks;  // the chunks of frames of several chunks
  Error error;                // why it aborted
  WaitList readable{"group frames"};
  WaitList closed{"group closed"};
  GroupPool* pool;                  // where the state returns at the last release; null: deleted
  CacheAccount* cache = nullptr;    // the track cache holding it (byte accounting); else null
  GroupState* next_idle = nullptr;  // free-list link while idle in the pool
};

// Recycles GroupStates for one track, keeping idle as many as were ever out at once (at least
// max_idle), so a track that recycles a burst of groups each round allocates none. The owner
// closes the pool when it goes away; groups still
// referenced then delete themselves at their last release, and the pool deletes itself once the
// last of them is gone.
class GroupPool {
 public:
  explicit GroupPool(uint32_t max_idle) : max_idle_(max_idle) {}
  GroupPool(const GroupPool&) = delete;
  GroupPool& operator=(const GroupPool&) = delete;

  GroupState* take(uint64_t sequence);
  void give_back(GroupState* g);
  void close();
  uint32_t idle() const { return idle_count_; }
  uint32_t outstanding() const { return outstanding_; }

 private:
  ~GroupPool() = default;
  uint32_t max_idle_;
  uint32_t idle_count_ = 0;
  uint32_t outstanding_ = 0;
  uint32_t peak_outstanding_ = 0;
  bool closed_ = false;
  GroupState* idle_ = nullptr;
};

}  // namespace detail

class GroupConsumer;

// The writing end of a group. Move-only; there is one per group.
class GroupProducer {
 public:
  GroupProducer() = default;
  // A standalone group (not part of a track; its state is allocated, not pooled).
  static GroupProducer create(uint64_t sequence);
  GroupProducer(GroupProducer&&) noexcept = default;
  GroupProducer& operator=(GroupProducer&& o) noexcept;
  GroupProducer(const GroupProducer&) = delete;
  GroupProducer& operator=(const GroupProducer&) = delete;
  // Aborts an open group with data_error::kProducerDropped.
  ~GroupProducer();

  explicit operator bool() const { return static_cast<bool>(s_); }
  uint64_t sequence() const { return s_->sequence; }
  size_t frame_count() const { return s_->frames.size(); }
  uint64_t bytes() const { return s_->bytes; }
  GroupStatus status() const { return s_->status; }

  // Appends a frame. Fails (data_error::kClosed) once the group is finished or aborted, and
  // (data_error::kTooLarge) when the group would exceed kMaxGroupBytes. Inline: this is the
  // per-frame path (one vector append, a byte count, a wake only when someone waits).
  Status write_frame(uint64_t timestamp, Bytes payload) {
    const uint64_t n = payload.size();
    if (append(timestamp, std::move(payload))) [[likely]]
      return {};
    return write_failed(n);
  }
  // write_frame() for the per-frame loops (a parser, a publisher's burst): false, with payload
  // left as it was, where write_frame() would fail; call it then for the error. Returns no
  // Status, whose Error the loop would build and destroy once per frame.
  [[nodiscard]] bool append(uint64_t timestamp, Bytes&& payload) {
    detail::GroupState& s = *s_;
    const uint64_t n = payload.size();
    if (!writable(n)) [[unlikely]]
      return false;
    // A zero-length payload is stored too (a frame of no chunks: view() shows none).
    s.frames.emplace_back(timestamp, n, std::move(payload), 0u, n ? 1u : 0u);
    appended(n);
    return true;
  }
  Status write_frame(const Frame& frame) { return write_frame(frame.timestamp, frame.payload); }
  // Appends one frame made of every chunk in payload, moving them out (payload is left empty and
  // keeps its capacity). No payload copy.
  Status write_frame(uint64_t timestamp, BufChain& payload);
  // Appends one frame made of these chunks (each a refcount increment, no copy).
  Status write_frame(uint64_t timestamp, std::span<const Bytes> chunks);

  // No more frames. Fails when already finished or aborted.
  Status finish();
  // Ends the group with a reason that every reader sees. No effect on a closed group.
  void abort(Error reason);

  // A reader starting at frame 0.
  GroupConsumer consume() const;

 private:
  friend class TrackProducer;
  explicit GroupProducer(Ref<detail::GroupState> s) : s_(std::move(s)) {}
  void detach();
  // True when a frame of n bytes may be appended.
  bool writable(uint64_t n) const { return n < s_->write_room; }
  // The error for a write that writable() refused; out of line so the fast path stays small.
  [[gnu::cold, gnu::noinline]] Status write_failed(uint64_t n) const;
  void appended(uint64_t n) {
    detail::GroupState& s = *s_;
    s.bytes += n;
    s.write_room -= n;
    if (detail::CacheAccount* c = s.cache) {
      c->cached_bytes += n;
      if (c->cached_bytes > c->max_bytes) detail::cache_over_budget(*c);
    }
    if (!s.readable.empty()) s.readable.notify_all();
  }

  Ref<detail::GroupState> s_;
};

// A reader of a group with its own frame index. Copying makes another reader at the same index.
class GroupConsumer {
 public:
  GroupConsumer() = default;
  explicit GroupConsumer(Ref<detail::GroupState> s, size_t index = 0)
      : s_(std::move(s)), index_(index) {}

  explicit operator bool() const { return static_cast<bool>(s_); }
  uint64_t sequence() const { return s_->sequence; }
  GroupStatus status() const { return s_->status; }
  // Why the group aborted (meaningful when status() is Aborted).
  const Error& error() const { return s_->error; }
  uint64_t bytes() const { return s_->bytes; }

  // The next frame to read, and how many frames exist so far: frames [index(), frame_count())
  // can be read now without waiting, e.g. all at once into one gather write.
  size_t index() const { return index_; }
  size_t frame_count() const { return s_->frames.size(); }
  FrameView frame(size_t i) const { return s_->view(i); }
  // Moves the index (e.g. past frames read through frame(i), or to a requested start frame).
  void seek(size_t index) { index_ = index; }

  // Reads the frame at index() and advances. An abort is reported at once (Aborted), even when
  // unread frames remain; End comes after the last frame of a finished group; Pending means wait
  // on readable().
  Next next(FrameView& out) {
    detail::GroupState* s = s_.get();
    if (s->status == GroupStatus::Aborted) return Next::Aborted;
    if (index_ < s->frames.size()) {
      out = s->view(index_++);
      return Next::Ready;
    }
    return s->status == GroupStatus::Finished ? Next::End : Next::Pending;
  }

  WaitList& readable() const { return s_->readable; }
  WaitList& closed() const { return s_->closed; }

 private:
  Ref<detail::GroupState> s_;
  size_t index_ = 0;
};

}  // namespace moq
