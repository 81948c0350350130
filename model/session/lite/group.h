// Group streams (uni stream 0x0, draft-lcurley-moq-lite-06), both roles: the publisher sends one
// group of a subscription per stream (GROUP header, frames as they are appended, FIN; an abort
// resets it); the viewer receives such a stream into a group of the subscription it names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/async/list.h"
#include "model/data/data.h"
#include "model/session/core/group_send.h"
#include "model/session/core/stale_groups.h"
#include "model/session/core/stream_input.h"
#include "model/session/lite/frames.h"
#include "model/session/lite/task.h"
#include "model/wire/lite/error_codes.h"
#include "model/wire/lite/group.h"

namespace moq::session::lite {

class LiteSession;
class SubscribeServeTask;
struct SenderTag;

// Publisher: one group on its own uni stream (core/group_send.h), with lite's GROUP header and
// FRAMEs.
class GroupSendTask final
    : public core::GroupSendTask<GroupSendTask, LiteSession, SubscribeServeTask>,
      public Link<SenderTag> {
 public:
  using Sender = core::GroupSendTask<GroupSendTask, LiteSession, SubscribeServeTask>;
  GroupSendTask(LiteSession& s, TaskPoolBase& p) : Sender(s, p, "lite group send") {}
  void start(SubscribeServeTask& parent, GroupConsumer group, uint64_t subscribe_id,
             uint8_t priority, uint64_t frame_start, size_t frame_end);
  // For core::drop_stale_senders: the group is older than the subscriber's Max Age allows.
  void drop_stale();

  // The family's encoding, for core::GroupSendTask.
  static constexpr size_t kMaxHeaderSize = wire::lite::kMaxGroupStreamHeaderSize;
  static constexpr uint64_t kInternalError = wire::lite::stream_code::kInternalError;
  size_t encode_header(uint8_t* out);
  bool encode_objects(ByteArena& arena, BufChain& chain, size_t stop);
  uint64_t abort_code(const Error& error) const;

 protected:
  Poll step() override;
  void clear() override;

 private:
  uint64_t subscribe_id_ = 0;
  uint64_t frame_start_ = 0;
  FrameEncoder encoder_;
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
