#include "model/session/ietf/request_task.h"

#include <string>

namespace moq::session::ietf_session {

In read_message(IetfSession& s, StreamInput& input, w::ControlMessage& out, Waiter* waiter) {
  for (;;) {
    const ReadStatus st = input.fill();
    switch (st) {
      case ReadStatus::Data: {
        const w::IetfVersion v = s.v();
        Decoded<w::ControlMessage> d =
            input.decode([v](std::span<const uint8_t> in) { return w::decode_control(in, v); });
        if (d.status == DecodeStatus::Ok) {
          out = std::move(d.value);
          ++s.stats().messages_decoded;
          return In::Message;
        }
        if (d.status == DecodeStatus::Malformed) {
          s.violation(std::move(d.error));
          return In::Closed;
        }
        continue;  // NeedMore: the rest of the message is in a later chunk
      }
      case ReadStatus::WouldBlock:
        if (waiter) waiter->wait(input.readable());
        return In::Pending;
      case ReadStatus::Fin:
        if (input.has_partial()) {
          s.violation("control message: the stream ended in the middle of a message");
          return In::Closed;
        }
        return In::Fin;
      case ReadStatus::Reset:
        ++s.stats().resets_received;
        return In::Reset;
      case ReadStatus::Error:
        return In::Closed;
    }
  }
}

bool RequestTask::open_stream() {
  Result<BidiStream> r = s_.conn().open_bidi();
  if (!r) return false;
  if (!*r) {
    open_.wait(s_.conn().can_open());
    closing_.wait(s_.closing());
    return false;
  }
  r->send->set_send_order(kRequestSendOrder);
  out_s_ = std::move(r->send);
  in_.attach(std::move(r->recv));
  ++s_.stats().streams_opened[static_cast<size_t>(kind_)];
  return true;
}

void RequestTask::adopt_stream(SendStreamPtr send, StreamInput input) {
  send->set_send_order(kRequestSendOrder);
  out_s_ = std::move(send);
  in_ = std::move(input);
}

bool RequestTask::flush() {
  if (!out_s_ || send_failed_) return false;
  if (!note(out_.flush(*out_s_))) return false;
  if (!out_.idle()) wr_.wait(out_s_->writable());
  return true;
}

bool RequestTask::finish() {
  if (fin_sent_) return true;
  if (!out_s_ || send_failed_) return false;
  if (!out_.idle()) return flush();  // finish once the rest is written (caller retries)
  fin_sent_ = true;
  return note(out_s_->finish());
}

void RequestTask::cancel_stream(uint64_t code) {
  if (out_s_ && !fin_sent_ && !send_failed_) {
    if (out_s_->reset(code)) ++s_.stats().streams_reset;
    send_failed_ = true;
  }
  if (in_.attached()) in_.stream().stop(code);
}

}  // namespace moq::session::ietf_session
