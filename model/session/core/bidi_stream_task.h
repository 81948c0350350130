// BidiStreamTask: the common part of every pooled task that owns one bidirectional request stream,
// in both engines (a request this endpoint sends, or one it answers): opening the stream when
// stream credit allows (or adopting an accepted one), reading messages through a StreamInput,
// writing through an Outbox, FIN, cancel (reset our half, STOP_SENDING theirs) and the paired
// close (waiting for the peer to end its half).
//
// next() is the one place a malformed message becomes a session violation: it closes the
// session with the decoder's error (naming the message and field) and returns In::Malformed, on
// which the caller only returns Pending: the closing session then abandons the job, and what it
// produced ends with the violation as its error.
#pragma once

#include <cstdint>
#include <utility>

#include "model/async/task_pool.h"
#include "model/session/core/outbox.h"
#include "model/session/core/session_base.h"
#include "model/session/core/stream_input.h"
#include "model/transport.h"

namespace moq::session::core {

class BidiStreamTask : public PooledTask {
 public:
  BidiStreamTask(SessionBase& session, TaskPoolBase& pool, const char* name)
      : PooledTask(session, pool, name), base_(session) {}

 protected:
  // Drops the stream and the job's bytes, keeping buffer capacity. Derived clear()s call it.
  void clear() override;

  enum class Opened : uint8_t { Yes, Pending, Failed };
  // Opens the request stream (counted as kind) with send_order. Pending while the peer's stream
  // limit is reached: the write waiter is armed on can_open() for the first such task, on the
  // session's BidiOpenQueue for the others, woken in turn. Failed once the connection is closed.
  Opened open(StreamKind kind, int64_t send_order);
  // Takes an accepted stream; input holds what was read from it already (swapped in, so both
  // keep their buffers).
  void adopt(SendStreamPtr send, StreamInput& input);

  // The next message on our receiving half (see the header comment for Malformed). Counts
  // messages_decoded and resets_received; a FIN sets peer_fin_.
  template <class T, class Decode>
  In next(const char* name, Decode&& decode, T& out) {
    const In in = in_.next(read_waiter_, name, decode, out);
    note(in);
    return in;
  }
  // The same with a decoder that writes into its own, reused, target.
  template <class Decode>
  In next_in_place(const char* name, Decode&& decode) {
    const In in = in_.next_in_place(read_waiter_, name, decode);
    note(in);
    return in;
  }
  // Queues bytes to send (written by the next flush()).
  void send(Bytes bytes) { out_.push(std::move(bytes)); }
  // Writes what is queued; Pending arms the write waiter.
  Flush flush() { return out_.flush(*send_, write_waiter_); }
  // Ends our half with FIN once everything queued is written: false while bytes remain (the
  // write waiter is armed) or when the stream failed.
  bool finish();
  // Refuses or cancels the request: resets our half with code and stops theirs.
  void cancel(uint64_t code);
  // Reads and discards until the peer ends its half (paired close): true once it has.
  bool drain() { return in_.drain(read_waiter_, base_.stats().resets_received); }

  SendStreamPtr send_;
  StreamInput in_;
  Outbox out_;
  bool send_ended_ = false;  // our half ended: FIN sent, or reset
  bool peer_fin_ = false;
  Waiter read_waiter_{*this};
  Waiter write_waiter_{*this};

 private:
  void note(In in);
  // Gives up this task's place among the openers waiting for credit, waking the next one if it
  // held the turn.
  void leave_open_queue();

  SessionBase& base_;
  bool open_head_ = false;    // waits on can_open() for the session's queued openers
  bool open_queued_ = false;  // waits (or was woken) on the session's BidiOpenQueue
};

}  // namespace moq::session::core
