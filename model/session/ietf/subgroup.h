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
#include "model/session/core/outbox.h"
#include "model/session/core/stale_groups.h"
#include "model/session/core/stream_input.h"
#include "model/session/ietf/objects.h"
#include "model/session/ietf/task.h"
#include "model/wire/ietf/data.h"

namespace moq::session::ietf {

class SubscribeServeTask;
class SubscribeRequestTask;
struct SenderTag;
struct ReceiverTag;

// Publisher: one subgroup (the whole group) on its own uni stream.
class GroupSendTask final : public UniTask, public Link<SenderTag> {
 public:
  GroupSendTask(IetfSession& s, TaskPoolBase& p) : UniTask(s, p, "ietf subgroup send") {}
  // Frames [first_frame, end_frame) of group (end_frame UINT64_MAX: to the group's end).
  void start(SubscribeServeTask& owner, GroupConsumer group, uint64_t alias, uint64_t first_frame,
             uint64_t end_frame, int64_t send_order);
  // Resets the stream (the subscription was cancelled) and ends the job.
  void cancel(uint64_t code);
  // For core::drop_stale_senders: the group outlived the SUBGROUP_DELIVERY_TIMEOUT.
  uint64_t sequence() const { return group_.sequence(); }
  bool unsent() const { return out_ && !outbox_.idle(); }
  core::Staleness& staleness() { return staleness_; }
  void drop_stale();
  // The subscription ended without cancelling: the group goes on unowned.
  void detach_owner() {
    owner_ = nullptr;
    Link<SenderTag>::unlink();
  }

 protected:
  Poll step() override;
  void clear() override;

 private:
  SubscribeServeTask* owner_ = nullptr;
  GroupConsumer group_;
  w::SubgroupHeader header_;
  w::SubgroupStreamState state_;
  uint64_t end_frame_ = 0;
  int64_t send_order_ = 0;
  SendStreamPtr out_;
  core::Outbox outbox_;
  bool header_sent_ = false;
  core::Staleness staleness_;
  Waiter data_{*this};
  Waiter write_{*this};
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
