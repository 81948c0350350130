// GroupSendTask: the publisher's half of a group stream, one loop for both families. It opens a
// uni stream when stream credit allows, writes the family's stream header, then at every wake-up
// all the group's frames available (up to the end asked for) in one gather write, FIN at the
// group's end; a group that aborts resets the stream. The family supplies only its encoding,
// through Derived (CRTP, so the per-frame path has no indirect call):
//
//   static constexpr size_t kMaxHeaderSize;        // the longest stream header
//   static constexpr uint64_t kInternalError;      // the reset code for what the codec refused
//   size_t encode_header(uint8_t* out);            // the stream header; 0: the codec refused it
//   bool encode_objects(ByteArena&, BufChain&, size_t stop);
//       // frames [group_.index(), stop) as header slices and payload references, the group's
//       // index moved past each; false when the codec refused one (a bug, not the peer's doing)
//   uint64_t abort_code(const Error&) const;       // the reset code for the group's abort
//
// Owner (the family's subscription) hears sender_opened() when the stream opened and
// sender_done(Derived&) when the job ends while it still owns the sender. Derived's step() and
// clear() call send_group() and clear_group(), defined where Owner is complete (so this class
// adds no virtual function of its own to instantiate where it is not).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "model/async/task_pool.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/data/data.h"
#include "model/session/core/engine_task.h"
#include "model/session/core/outbox.h"
#include "model/session/core/stale_groups.h"
#include "model/session/session.h"
#include "model/transport.h"

namespace moq::session::core {

template <class Derived, class Session, class Owner>
class GroupSendTask : public EngineTask<Session, PooledTask> {
 public:
  // For core::drop_stale_senders.
  uint64_t sequence() const { return group_.sequence(); }
  bool unsent() const { return stream_ && !out_.idle(); }
  Staleness& staleness() { return staleness_; }

  // Resets the stream with code (the subscription was cancelled) and ends the job.
  void cancel(uint64_t code) {
    owner_ = nullptr;  // the owner is the one cancelling
    end_with(code, "subscription cancelled");
  }
  // The subscription ended without cancelling: the group goes on unowned.
  void detach_owner() { owner_ = nullptr; }

 protected:
  using Base = EngineTask<Session, PooledTask>;
  using Base::Base;

  // Sends frames [first, end) of group (end UINT64_MAX: to the group's end) for owner, on a
  // stream with send_order.
  void begin(Owner& owner, GroupConsumer group, uint64_t first, uint64_t end, int64_t send_order) {
    owner_ = &owner;
    group_ = std::move(group);
    end_ = end;
    send_order_ = send_order;
    group_.seek(first);
    this->wake();
  }
  // Resets the stream (when open) with code and ends the job with reason.
  void end_with(uint64_t code, const char* reason) {
    reset(code);
    this->abandon(Error{code, reason});
  }

  void clear_group() {
    if (Owner* owner = std::exchange(owner_, nullptr))
      owner->sender_done(static_cast<Derived&>(*this));
    group_ = GroupConsumer();
    stream_.reset();
    out_.clear();
    header_sent_ = false;
    staleness_.clear();
    data_.cancel();
    write_.cancel();
  }

  Poll send_group();

  GroupConsumer group_;

 private:
  void reset(uint64_t code) {
    if (stream_ && stream_->reset(code)) ++this->session_.stats().streams_reset;
  }

  Owner* owner_ = nullptr;
  uint64_t end_ = 0;
  int64_t send_order_ = 0;
  SendStreamPtr stream_;
  Outbox out_;
  bool header_sent_ = false;
  Staleness staleness_;
  Waiter data_{*this};
  Waiter write_{*this};
};

template <class Derived, class Session, class Owner>
Poll GroupSendTask<Derived, Session, Owner>::send_group() {
  Session& s = this->session_;
  Derived& family = static_cast<Derived&>(*this);
  if (!stream_) {
    Result<SendStreamPtr> opened = s.conn().open_uni();
    if (!opened) return Poll::Done;  // the connection closed
    if (!*opened) {
      write_.wait(s.conn().can_open());
      return Poll::Pending;
    }
    stream_ = std::move(*opened);
    stream_->set_send_order(send_order_);
    s.count_opened(StreamKind::Group);
    if (owner_) owner_->sender_opened();
  }
  switch (out_.flush(*stream_, write_)) {
    case Flush::Done:
      break;
    case Flush::Pending:
      return Poll::Pending;
    case Flush::Failed:
      return Poll::Done;  // stopped by the peer, or closed
  }
  const GroupStatus status = group_.status();
  if (status == GroupStatus::Aborted) [[unlikely]] {
    reset(family.abort_code(group_.error()));
    return Poll::Done;
  }
  ByteArena& arena = s.arena();
  BufChain& chain = out_.chain();
  if (!header_sent_) {
    // With the first frames, in the same gather write.
    uint8_t* p = arena.reserve(Derived::kMaxHeaderSize);
    const size_t n = family.encode_header(p);
    if (n == 0) [[unlikely]] {
      reset(Derived::kInternalError);
      return Poll::Done;
    }
    chain.push(arena.commit(n));
    header_sent_ = true;
  }
  // Every frame available now goes into this one gather write.
  const size_t count = group_.frame_count();
  const size_t stop = count < end_ ? count : static_cast<size_t>(end_);
  if (const size_t from = group_.index(); from < stop) {
    if (!family.encode_objects(arena, chain, stop)) [[unlikely]] {
      chain.clear();
      reset(Derived::kInternalError);
      return Poll::Done;
    }
    s.stats().frames_sent += stop - from;
  }
  const size_t i = group_.index();
  const bool complete = i >= end_ || (status == GroupStatus::Finished && i >= count);
  switch (out_.flush(*stream_, write_)) {
    case Flush::Done:
      break;
    case Flush::Pending:
      return Poll::Pending;  // FIN (when complete) once the rest is written
    case Flush::Failed:
      return Poll::Done;
  }
  if (complete) {
    (void)stream_->finish();
    return Poll::Done;
  }
  data_.wait(group_.readable());
  return Poll::Pending;
}

}  // namespace moq::session::core
