// The control stream (draft-ietf-moq-transport, session initialization and SETUP), both directions,
// and the session's driver.
//
// ControlTask (one per session, not pooled) opens our control stream and writes SETUP, then any
// GOAWAY; accepts every stream the peer opens (a request stream whose first message arrived with
// it is dispatched at once, a fetch stream whose header did goes straight to its request);
// checks and drops datagrams (objects travel on streams here; draft-ietf-moq-transport,
// OBJECT_DATAGRAM, lets a receiver drop them); publishes a client's broadcasts with
// PUBLISH_NAMESPACE; and notices when the connection closes.
//
// ControlReceiver reads the peer's control stream: SETUP first, then at most one GOAWAY.
#pragma once

#include <optional>

#include "model/async/executor.h"
#include "model/base/bytes.h"
#include "model/data/data.h"
#include "model/session/core/outbox.h"
#include "model/session/core/stream_input.h"
#include "model/transport.h"
#include "model/wire/ietf/control.h"

namespace moq::session::ietf {

namespace w = ::moq::wire::ietf;

class IetfSession;

class ControlTask final : public Task {
 public:
  explicit ControlTask(IetfSession& session);
  Poll poll() override;
  // Queues a message for our control stream (GOAWAY), after SETUP.
  void queue(Bytes message);

 private:
  // Opens our control stream and writes SETUP, then what is queued. False while it cannot.
  bool write_control();
  void accept_request(BidiStream stream);
  void accept_uni(RecvStreamPtr stream);
  void watch_announcements();

  IetfSession& s_;
  SendStreamPtr out_;
  core::Outbox outbox_;
  BufChain queued_;
  AnnounceConsumer announcements_;  // a client's own broadcasts (PUBLISH_NAMESPACE)
  core::StreamInput first_input_;   // a request stream being dispatched
  w::ControlMessage first_;
  Waiter incoming_{*this};
  Waiter datagrams_{*this};
  Waiter closed_{*this};
  Waiter open_{*this};
  Waiter write_{*this};
  Waiter announce_{*this};
};

// The peer's control stream, after its first message (SETUP, read when the stream was
// classified).
class ControlReceiver {
 public:
  void clear() { goaway_seen_ = false; }
  // Checks SETUP, then reads GOAWAY until the stream blocks (Pending) or the session closes
  // (Done: the control stream ending is a violation).
  Poll receive(IetfSession& s, core::StreamInput& in, Waiter& waiter,
               std::optional<w::ControlMessage>& first);
  bool on(const w::GoAway& goaway);

 private:
  IetfSession* s_ = nullptr;
  bool goaway_seen_ = false;
};

}  // namespace moq::session::ietf
