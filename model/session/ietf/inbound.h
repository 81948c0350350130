// Streams the peer opens, until what they carry is known (draft-ietf-moq-transport, stream types
// and session initialization):
//  - UniInboundTask: the stream type (with its header) decides: the peer's control stream
//    (ControlReceiver), padding (discarded), a subgroup stream (SubgroupReceiver: parked while
//    its alias is unknown, then objects into the subscription's group), or a fetch stream
//    (handed to the request it answers);
//  - BidiInboundTask: a request stream whose first message did not arrive with it waits for it,
//    then IetfSession::dispatch_request() starts its handler.
#pragma once

#include <cstdint>
#include <optional>

#include "model/async/list.h"
#include "model/session/core/stream_input.h"
#include "model/session/ietf/control.h"
#include "model/session/ietf/subgroup.h"
#include "model/session/ietf/task.h"
#include "model/wire/ietf/data.h"

namespace moq::session::ietf {

class UniInboundTask final : public UniTask {
 public:
  UniInboundTask(IetfSession& s, TaskPoolBase& p) : UniTask(s, p, "ietf uni inbound") {}
  // The accepted stream (input holds what was read from it already; swapped in).
  void start(core::StreamInput& input);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  enum class Mode : uint8_t { Classify, Control, Padding, Subgroup };
  Poll classify();
  Poll padding();

  Mode mode_ = Mode::Classify;
  core::StreamInput in_;
  w::UniStreamKind kind_ = w::UniStreamKind::Padding;
  w::SubgroupHeader header_;
  uint64_t fetch_id_ = 0;
  std::optional<w::ControlMessage> first_;  // the control stream's first message
  ControlReceiver control_;
  SubgroupReceiver subgroup_{*this};
  Waiter waiter_{*this};
  Waiter wait_{*this};  // the subgroup receiver's other condition (alias bound, join done)
};

class BidiInboundTask final : public UniTask {
 public:
  BidiInboundTask(IetfSession& s, TaskPoolBase& p) : UniTask(s, p, "ietf request opener") {}
  // The accepted stream; input holds the part of the first message that arrived with it.
  void start(SendStreamPtr send, core::StreamInput& input);

 protected:
  Poll step() override;
  void clear() override;

 private:
  SendStreamPtr send_;
  core::StreamInput in_;
  w::ControlMessage first_;
  Waiter waiter_{*this};
};

}  // namespace moq::session::ietf
