// Streams the peer opens: the accept loop, and the tasks that read a stream's type and either
// handle it (the peer's SETUP, a group stream) or hand it to the task serving that request.
#pragma once

#include <cstdint>

#include "model/async/executor.h"
#include "model/session/core/stream_input.h"
#include "model/session/lite/group.h"
#include "model/session/lite/task.h"
#include "model/transport.h"

namespace moq::session::lite {

// Accepts every stream the peer opens and notices when the connection closes. Lives as long as
// the session (not pooled).
class AcceptTask final : public Task {
 public:
  explicit AcceptTask(LiteSession& session);
  Poll poll() override;

 private:
  LiteSession& session_;
  Waiter incoming_{*this};
  Waiter closed_{*this};
};

// A uni stream: the peer's SETUP, or a group stream. Unknown types are stopped.
class UniInboundTask final : public UniTask {
 public:
  UniInboundTask(LiteSession& s, TaskPoolBase& p) : UniTask(s, p, "lite uni inbound") {}
  void start(RecvStreamPtr stream);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  enum class State : uint8_t { Type, Setup, GroupHeader, Frames };

  State state_ = State::Type;
  core::StreamInput in_;
  bool setup_read_ = false;
  GroupReceiver group_;
  Waiter waiter_{*this};
};

// A bidi stream: reads the type, then hands the stream to the task serving that request.
// Unknown types (and Probe, which this endpoint never offers) are reset and stopped.
class BidiInboundTask final : public UniTask {
 public:
  BidiInboundTask(LiteSession& s, TaskPoolBase& p) : UniTask(s, p, "lite bidi inbound") {}
  void start(BidiStream stream);

 protected:
  Poll step() override;
  void clear() override;

 private:
  void dispatch(uint64_t type);

  SendStreamPtr send_;
  core::StreamInput in_;
  Waiter waiter_{*this};
};

}  // namespace moq::session::lite
