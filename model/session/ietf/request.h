// RequestTask: the moq-transport side of a request stream task (core::BidiStreamTask): control
// messages are encoded and written at once, a write that failed stays failed, request streams
// go out at the request send order, and a request stream is done once both halves ended.
#pragma once

#include <cstdint>
#include <string>

#include "model/session/core/bidi_stream_task.h"
#include "model/session/core/dispatch.h"
#include "model/session/ietf/ietf_session.h"
#include "model/session/ietf/task.h"

namespace moq::session::ietf {

class RequestTask : public BidiTask {
 protected:
  using BidiTask::BidiTask;
  void clear() override {
    BidiTask::clear();
    send_failed_ = false;
  }

  // Opens the request stream. Opened::Pending while the peer's stream limit is reached.
  Opened open_stream(StreamKind kind) { return open(kind, kRequestSendOrder); }
  // Takes an accepted request stream.
  void adopt_stream(SendStreamPtr send, core::StreamInput& input) {
    send->set_send_order(kRequestSendOrder);
    adopt(std::move(send), input);
  }
  // The next control message on the request stream, decoded into out (whose storage a
  // message of the same type reuses).
  core::In next_message(w::ControlMessage& out) {
    const w::IetfVersion v = session_.v();
    return next_in_place("control message", [v, &out](std::span<const uint8_t> bytes) {
      return w::decode_control_into(bytes, v, out);
    });
  }
  // The next control message on the request stream, handed at once to self's on(const M&)
  // (core::dispatch: one the stream does not take closes the session, naming it and
  // stream_kind). Message: it was handled; the caller checks whether the session closed.
  template <class Self>
  core::In next_handled(Self& self, const char* stream_kind) {
    const core::In in = next_message(message_);
    if (in == core::In::Message) {
      const w::IetfVersion v = session_.v();
      if (Status st = core::dispatch(self, message_, stream_kind,
                                     [v](const auto& m) { return message_name(m, v); });
          !st) {
        session_.violation(st.error());
      }
    }
    return in;
  }
  // Encodes m and writes it (after anything pending). False once the stream or session failed.
  template <class M>
  bool send_message(const M& m) {
    return send_message_as(m, w::wire_type(M::kType, session_.v()));
  }
  // The same under another type of the same layout (a -17 PUBLISH_OK, 17.5).
  template <class M>
  bool send_message_as(const M& m, uint64_t type) {
    if (!send_ || send_failed_ || send_ended_) return false;
    Result<Bytes> b = session_.encode_as(m, type);
    if (!b) {
      session_.violation(Error{uint64_t(w::SessionError::InternalError),
                               std::string("encoding failed: ") + b.error().message});
      return false;
    }
    send(std::move(*b));
    return write();
  }
  // Writes what is pending (the write waiter is armed while some remains). False on failure.
  bool write() {
    if (!send_ || send_failed_) return false;
    if (flush() == core::Flush::Failed) send_failed_ = true;
    return !send_failed_;
  }
  // FIN after what is pending; false while bytes remain or when the stream failed.
  bool end_send() { return !send_failed_ && finish(); }
  // Both halves of the request stream ended: our FIN is out and the peer finished its side.
  bool both_ended() const { return send_ended_ && peer_fin_; }

  bool send_failed_ = false;

 private:
  // Kept between steps and jobs, so that a message decoded into it reuses its storage.
  w::ControlMessage message_;
};

}  // namespace moq::session::ietf
