// Subgroup streams (draft-ietf-moq-transport, SUBGROUP_HEADER and its objects), both roles: the
// publisher sends one group of a subscription per uni stream (SUBGROUP_HEADER, then every available
// object in one gather write per wake-up, FIN at the group's end); the viewer finds the
// subscription by Track Alias, parking the stream (its chunks held unparsed) while the alias is
// unknown and stopping it when the alias is a tombstone, then writes the objects into the
// subscription's group.
#pragma once

#include <cstdint>

#include "model/async/list.h"
#include "model/data/data.h"
#include "model/session/core/group_send.h"
#include "model/session/core/stale_groups.h"
#include "model/session/core/stream_input.h"
#include "model/session/ietf/objects.h"
#include "model/session/ietf/task.h"
#include "model/wire/ietf/data.h"

namespace moq::session::ietf {

class IetfSession;
class SubscribeServeTask;
class SubscribeRequestTask;
struct SenderTag;
struct ReceiverTag;

// Publisher: one subgroup (the whole group) on its own uni stream (core/group_send.h), with
// moq-transport's SUBGROUP_HEADER and subgroup objects.
class GroupSendTask final
    : public core::GroupSendTask<GroupSendTask, IetfSession, SubscribeServeTask>,
      public Link<SenderTag> {
 public:
  using Sender = core::GroupSendTask<GroupSendTask, IetfSession, SubscribeServeTask>;
  GroupSendTask(IetfSession& s, TaskPoolBase& p) : Sender(s, p, "ietf subgroup send") {}
  // Frames [first_frame, end_frame) of group (end_frame UINT64_MAX: to the group's end).
  void start(SubscribeServeTask& owner, GroupConsumer group, uint64_t alias, uint64_t first_frame,
             uint64_t end_frame, int64_t send_order);
  // For core::drop_stale_senders: the group outlived the SUBGROUP_DELIVERY_TIMEOUT.
  void drop_stale();
  // The subscription ended without cancelling: the group goes on unowned.
  void detach_owner() {
    Sender::detach_owner();
    Link<SenderTag>::unlink();
  }

  // The family's encoding, for core::GroupSendTask.
  static constexpr size_t kMaxHeaderSize = w::kMaxSubgroupHeaderSize;
  static constexpr uint64_t kInternalError = uint64_t(w::StreamResetCode::InternalError);
  size_t encode_header(uint8_t* out) { return w::encode_subgroup_header(header_, out); }
  // Inlined into the sender's loop (see push_objects).
  [[gnu::always_inline]] bool encode_objects(ByteArena& arena, BufChain& chain, size_t stop) {
    const size_t i = push_objects(arena, chain, group_, group_.index(), stop,
                                  w::kMaxSubgroupObjectHeaderSize, [&](size_t id, uint8_t* out) {
                                    return w::encode_subgroup_object(state_, header_, id, {},
                                                                     group_.frame(id).size,
                                                                     w::ObjectStatus::Normal, out);
                                  });
    group_.seek(i);
    return i == stop;
  }
  // The data model's reasons for an abort have no moq-transport reset code: INTERNAL_ERROR.
  uint64_t abort_code(const Error& /*error*/) const { return kInternalError; }

 protected:
  Poll step() override;
  void clear() override;

 private:
  w::SubgroupHeader header_;
  w::SubgroupStreamState state_;
};

// Viewer: the subgroup stream a UniInboundTask classified.
class SubgroupReceiver : public Link<ReceiverTag> {
 public:
  explicit SubgroupReceiver(PooledTask& task) : task_(task) {}
  void clear();
  // The session closed: the group ends with reason.
  void abandon(const Error& reason);
  // Finds the subscription, then reads objects. rd waits on the stream, wait on the alias table
  // or the join of this group.
  Poll step(IetfSession& s, core::StreamInput& in, const w::SubgroupHeader& h, Waiter& rd,
            Waiter& wait);
  // The subscription it feeds was cancelled: stop the stream and end the job.
  void cancel(uint64_t code);

 private:
  friend class SubscribeRequestTask;
  Poll attach(SubscribeRequestTask& sub, const w::SubgroupHeader& h, Waiter& rd, Waiter& wait);
  Poll objects(const w::SubgroupHeader& h, Waiter& rd);
  Poll stop_stream(uint64_t code);
  void unpark();

  PooledTask& task_;
  IetfSession* s_ = nullptr;
  core::StreamInput* in_ = nullptr;
  SubscribeRequestTask* sub_ = nullptr;  // set once the subscription took the stream
  bool parked_ = false;
  bool held_ = false;  // reading into the held list (alias unknown, or the join not done)
  bool writing_ = false;
  GroupProducer group_;
  w::SubgroupStreamState state_;
  ObjectParser parser_;
};

}  // namespace moq::session::ietf
