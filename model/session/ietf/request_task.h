// The common part of every task that owns one bidirectional request stream (spec 1.2: each
// request uses its own bidi stream): reading whole control messages, writing them through an
// Outbox, opening the stream, and cancelling it (reset our side, STOP_SENDING theirs, 3.6).
#pragma once

#include <cstdint>

#include "model/async/executor.h"
#include "model/session/ietf/session_impl.h"
#include "model/session/ietf/stream_io.h"
#include "model/wire/ietf/control.h"

namespace moq::session::ietf_session {

enum class In : uint8_t {
  Message,  // a whole message was read
  Pending,  // nothing complete yet (the waiter is armed)
  Fin,      // the peer finished its side
  Reset,    // the peer reset its side (input.code())
  Closed,   // the connection closed, or the message was malformed (the session is closing)
};

// Reads the next control message from input; arms waiter on its stream when Pending. A malformed
// message or a FIN inside one closes the session (PROTOCOL_VIOLATION naming the message).
In read_message(IetfSession& s, StreamInput& input, w::ControlMessage& out, Waiter* waiter);

class RequestTask : public Task {
 public:
  RequestTask(IetfSession& s, const char* name, StreamKind kind)
      : Task(s.executor(), name), s_(s), kind_(kind) {}

 protected:
  // Opens the request stream. False while the peer's stream limit is reached (waits on
  // can_open) or when the connection is closed (closed() then says so).
  bool open_stream();
  // Takes an accepted stream.
  void adopt_stream(SendStreamPtr send, StreamInput input);

  In next_message(w::ControlMessage& out) {
    const In r = read_message(s_, in_, out, &rd_);
    if (r == In::Fin) peer_fin_ = true;
    return r;
  }
  // Encodes m and writes it (after anything pending). False when the stream or session failed.
  template <class M>
  bool send(const M& m) {
    if (!out_s_ || send_failed_) return false;
    Result<Bytes> b = s_.encode(m);
    if (!b) {
      s_.violation(Error{0x1, std::string("encoding failed: ") + b.error().message});
      return false;
    }
    BufChain& chain = s_.chain();
    chain.push(std::move(*b));
    return note(out_.send(*out_s_, chain));
  }
  // Writes what is pending; arms the writable waiter while some remains. False on failure.
  bool flush();
  bool write_idle() const { return out_.idle(); }
  // Ends our side with FIN (after pending bytes).
  bool finish();
  // Cancels the request (3.6): resets our side and stops theirs with code.
  void cancel_stream(uint64_t code);
  bool session_gone() const { return s_.is_closed(); }

  IetfSession& s_;
  StreamKind kind_;
  SendStreamPtr out_s_;
  StreamInput in_;
  Outbox out_;
  Waiter rd_{*this};
  Waiter wr_{*this};
  Waiter open_{*this};
  Waiter closing_{*this};  // while waiting for stream credit: the session may close meanwhile
  bool fin_sent_ = false;
  bool peer_fin_ = false;  // the peer finished its side of the request stream
  bool send_failed_ = false;

 private:
  bool note(Status st) {
    if (!st) send_failed_ = true;
    return st.ok();
  }
};

}  // namespace moq::session::ietf_session
