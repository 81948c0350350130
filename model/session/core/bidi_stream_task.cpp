#include "model/session/core/bidi_stream_task.h"

namespace moq::session::core {

void BidiStreamTask::clear() {
  send_.reset();
  in_.clear();
  out_.clear();
  send_ended_ = false;
  peer_fin_ = false;
  read_waiter_.cancel();
  write_waiter_.cancel();
}

BidiStreamTask::Opened BidiStreamTask::open(StreamKind kind, int64_t send_order) {
  Result<BidiStream> opened = base_.conn().open_bidi();
  if (!opened) return Opened::Failed;
  if (!*opened) {
    write_waiter_.wait(base_.conn().can_open());
    return Opened::Pending;
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
