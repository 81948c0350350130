// Group streams (uni stream 0x0, draft-lcurley-moq-lite-06), both roles: the publisher sends one
// group of a subscription per stream (GROUP header, frames as they are appended, FIN; an abort
// resets it); the viewer receives such a stream into a group of the subscription it names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/async/list.h"
#include "model/data/data.h"
#include "model/session/core/outbox.h"
#include "model/session/core/stale_groups.h"
#include "model/session/core/stream_input.h"
#include "model/session/lite/frames.h"
#include "model/session/lite/task.h"

namespace moq::session::lite {

class SubscribeServeTask;
struct SenderTag;

// Publisher: one group on its own uni stream. The headers of every frame available go out with
// the payload references in one gather write per wake-up.
class GroupSendTask final : public UniTask, public Link<SenderTag> {
 public:
  GroupSendTask(LiteSession& s, TaskPoolBase& p) : UniTask(s, p, "lite group send") {}
  void start(SubscribeServeTask& parent, GroupConsumer group, uint64_t subscribe_id,
             uint8_t priority, uint64_t frame_start, size_t frame_end);
  // Resets the stream with code and ends the job (the subscription was cancelled).
  void cancel(uint64_t code);
  // For core::drop_stale_senders: the group is older than the subscriber's Max Age allows.
  uint64_t sequence() const { return group_.sequence(); }
  bool unsent() const { return stream_ && !out_.idle(); }
  core::Staleness& staleness() { return staleness_; }
  void drop_stale();

 protected:
  Poll step() override;
  void clear() override;

 private:
  SubscribeServeTask* parent_ = nullptr;
  GroupConsumer group_;
  uint64_t subscribe_id_ = 0;
  uint8_t priority_ = 0;
  uint64_t frame_start_ = 0;
  size_t end_ = 0;
  SendStreamPtr stream_;
  core::Outbox out_;
  FrameEncoder encoder_;
  core::Staleness staleness_;
  Waiter stream_waiter_{*this};
  Waiter group_waiter_{*this};
};

// Viewer: the state of one incoming group stream once its type is known (UniInboundTask drives
// it): the GROUP header names the subscription, then frames go into that subscription's group.
class GroupReceiver {
 public:
  void clear();
  // Reads the GROUP header, then frames. Done when the stream is over (or was refused).
  Poll header(LiteSession& s, core::StreamInput& in, Waiter& waiter);
  Poll frames(LiteSession& s, core::StreamInput& in, Waiter& waiter);
  // The session closed: the group ends with reason.
  void abandon(const Error& reason);
  bool receiving() const { return static_cast<bool>(group_); }

 private:
  std::string describe() const;

  GroupProducer group_;
  uint64_t subscribe_id_ = 0;
  std::string track_;  // the subscription's track, for errors
  FrameParser parser_;
};

}  // namespace moq::session::lite
