#include "model/session/core/bidi_stream_task.h"

namespace moq::session::core {

void BidiStreamTask::clear() {
  leave_open_queue();
  send_.reset();
  in_.clear();
  out_.clear();
  send_ended_ = false;
  peer_fin_ = false;
  read_waiter_.cancel();
  write_waiter_.cancel();
}

void BidiStreamTask::leave_open_queue() {
  BidiOpenQueue& q = base_.bidi_open_queue();
  // A queued task still linked on the queue holds no turn; one that was woken (unlinked) does.
  const bool held_turn = open_head_ || (open_queued_ && !write_waiter_.armed());
  if (open_head_) q.watched = false;
  open_head_ = false;
  open_queued_ = false;
  if (held_turn) q.queued.notify_one();
}

BidiStreamTask::Opened BidiStreamTask::open(StreamKind kind, int64_t send_order) {
  Result<BidiStream> opened = base_.conn().open_bidi();
  if (!opened) {
    leave_open_queue();
    return Opened::Failed;
  }
  if (!*opened) {
    BidiOpenQueue& q = base_.bidi_open_queue();
    if (open_head_ || !q.watched) {
      open_queued_ = false;
      open_head_ = true;
      q.watched = true;
      write_waiter_.wait(base_.conn().can_open());
    } else {
      open_queued_ = true;
      write_waiter_.wait(q.queued);
    }
    return Opened::Pending;
  }
  // Opened: the next queued opener may find credit too (it waits on can_open() if not).
  if (open_head_ || open_queued_) {
    leave_open_queue();
    write_waiter_.cancel();
  }
  base_.count_opened(kind);
  opened->send->set_send_order(send_order);
  send_ = std::move(opened->send);
  in_.attach(std::move(opened->recv));
  return Opened::Yes;
}

void BidiStreamTask::adopt(SendStreamPtr send, StreamInput& input) {
  send_ = std::move(send);
  std::swap(in_, input);
}

bool BidiStreamTask::finish() {
  if (send_ended_) return true;
  if (!send_) return false;
  switch (flush()) {
    case Flush::Done:
      break;
    case Flush::Pending:
    case Flush::Failed:
      return false;
  }
  send_ended_ = true;
  return send_->finish().ok();
}

void BidiStreamTask::cancel(uint64_t code) {
  if (send_ && !send_ended_ && send_->reset(code)) ++base_.stats().streams_reset;
  send_ended_ = true;  // nothing more goes on our half
  if (in_.attached()) in_.stream().stop(code);
}

void BidiStreamTask::note(In in) {
  switch (in) {
    case In::Message:
      ++base_.stats().messages_decoded;
      return;
    case In::Fin:
      peer_fin_ = true;
      return;
    case In::Reset:
      ++base_.stats().resets_received;
      return;
    case In::Malformed:
      base_.violation(std::move(in_.error()));
      return;
    case In::Pending:
    case In::Closed:
      return;
  }
}

}  // namespace moq::session::core
