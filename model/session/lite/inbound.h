// Streams the peer opens: the accept loop, and the tasks that read a stream's type and either
// handle it (SETUP, group streams) or hand it to the task serving that request.
#pragma once

#include <cstdint>

#include "model/async/executor.h"
#include "model/data/group.h"
#include "model/session/lite/frames.h"
#include "model/session/lite/message_reader.h"
#include "model/session/lite/task.h"
#include "model/transport.h"

namespace moq::session::lite {

class LiteSession;

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

// A uni stream: SETUP (decoded, then the FIN checked) or a group stream (GROUP header, then
// FRAMEs into a group of the subscription it names). Unknown types are stopped.
class UniInboundTask final : public SessionTask {
 public:
  UniInboundTask(LiteSession& s, TaskPoolBase& p) : SessionTask(s, p, "lite uni inbound") {}
  void start(RecvStreamPtr stream);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  enum class State : uint8_t { Type, Setup, SetupEnd, GroupHeader, Frames };
  Poll group_header();
  Poll frames();
  std::string describe() const;

  State state_ = State::Type;
  RecvStreamPtr stream_;
  MessageReader reader_;
  GroupProducer group_;
  uint64_t subscribe_id_ = 0;
  std::string track_;  // the subscription's track, for errors
  FrameParser parser_;
  Waiter waiter_{*this};
};

// A bidi stream: reads the type, then hands the stream to the task serving that request.
// Unknown types (and Probe, which this endpoint never offers) are reset and stopped.
class BidiInboundTask final : public SessionTask {
 public:
  BidiInboundTask(LiteSession& s, TaskPoolBase& p) : SessionTask(s, p, "lite bidi inbound") {}
  void start(BidiStream stream);

 protected:
  Poll step() override;
  void clear() override;

 private:
  void dispatch(uint64_t type);

  BidiStream stream_;
  MessageReader reader_;
  Waiter waiter_{*this};
};

}  // namespace moq::session::lite
