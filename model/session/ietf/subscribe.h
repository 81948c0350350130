// SUBSCRIBE (draft-ietf-moq-transport), both roles. Each group of a subscription travels on its own
// subgroup stream (subgroup.h); a live subscription joins the current group from its first
// object through a -18 joining FETCH or a -22 fill (fetch.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/async/list.h"
#include "model/base/path.h"
#include "model/data/data.h"
#include "model/session/core/linger.h"
#include "model/session/core/stale_groups.h"
#include "model/session/core/tail_grace.h"
#include "model/session/ietf/objects.h"
#include "model/session/ietf/ranges.h"
#include "model/session/ietf/request.h"
#include "model/session/ietf/subgroup.h"
#include "model/wire/ietf/data.h"

namespace moq::session::ietf {

class FetchServeTask;
struct FillTag;

// Publisher: SUBSCRIBE -> SUBSCRIBE_OK (alias), one GroupSendTask per group, then PUBLISH_DONE
// once every data stream closed; -22 FILL_PARAMETERS start a fill (a FetchServeTask without a
// request stream); REQUEST_UPDATE changes priority and forwarding. A SUBSCRIBE with
// RENDEZVOUS_TIMEOUT of a broadcast not published yet waits that long for it to appear (a relay
// whose publisher has not arrived) before it is refused.
class SubscribeServeTask final : public RequestTask, public Link<ServeTag> {
 public:
  SubscribeServeTask(IetfSession& s, TaskPoolBase& p) : RequestTask(s, p, "ietf subscribe serve") {}
  void start(SendStreamPtr send, core::StreamInput& input, w::ControlMessage& request);

  uint64_t request_id() const { return subscribe().request_id; }
  bool established() const { return phase_ == Phase::Active || phase_ == Phase::Draining; }
  bool forwarding() const { return forward_; }
  // What SUBSCRIBE_OK reported, and where the subscription starts (a joining FETCH ends before).
  const TrackEdge& edge_at_ok() const { return edge_; }
  w::Location start_location() const { return span_.start; }
  TrackConsumer& track() { return *track_; }
  // Notified when the subscription is established or ends.
  WaitList& state_changed() { return state_changed_; }

  // For the data streams.
  void sender_opened() { ++streams_; }
  void sender_done(GroupSendTask& sender);
  void fill_done(FetchServeTask& fill);

  bool on(const w::RequestUpdate& update);

 protected:
  Poll step() override;
  void clear() override;

 private:
  enum class Phase : uint8_t { Resolve, Active, Draining, Closing };
  const w::Subscribe& subscribe() const { return std::get<w::Subscribe>(request_); }
  // False when the job is over (result set).
  bool resolve(Poll& result);
  // True while a SUBSCRIBE with RENDEZVOUS_TIMEOUT waits for path to be published.
  bool awaiting_rendezvous(const std::optional<Path>& path);
  // The subscriber cancelled (or the session closed) while the subscription was unresolved.
  bool withdrawn_while_resolving();
  // Leaves the session's lookups of its subscriptions (serving_by_id, serving_by_track).
  void forget_index();
  void start_fill(uint64_t request_id, const w::FillParameters& fill);
  // SUBGROUP_DELIVERY_TIMEOUT from a SUBSCRIBE or REQUEST_UPDATE that carries one.
  void set_stale_bound(const w::MessageParams& p);
  void start_senders();
  void cancel_all(uint64_t code);
  void refuse(const w::RequestError& error);

  Phase phase_ = Phase::Resolve;
  w::ControlMessage request_;  // the SUBSCRIBE
  Path path_;
  uint64_t alias_ = 0;
  std::optional<TrackConsumer> track_;
  TrackEdge edge_;
  // The track was still being described (a relay asking its upstream) when the SUBSCRIBE came.
  bool described_after_request_ = false;
  Span span_;
  bool forward_ = true;
  bool indexed_by_track_ = false;  // in serving_by_track (a -18 subscription with a path)
  uint8_t priority_ = 0;           // local
  bool ascending_ = true;
  // SUBGROUP_DELIVERY_TIMEOUT in ns (core/stale_groups.h); kNoStaleBound when none was asked.
  uint64_t stale_bound_ns_ = core::kNoStaleBound;
  uint64_t streams_ = 0;  // data streams opened (PUBLISH_DONE Stream Count)
  uint64_t done_status_ = 0;
  std::string done_reason_;
  IntrusiveList<GroupSendTask, SenderTag> senders_;
  IntrusiveList<FetchServeTask, FillTag> fills_;
  Waiter track_waiter_{*this};
  WaitList state_changed_{"subscription state"};
  std::optional<AnnounceConsumer> rendezvous_;  // announcements of the awaited path
  uint64_t rendezvous_until_ns_ = 0;
  Timer rendezvous_timer_{*this};
};

// Viewer: one upstream subscription of a mirror track (model/session/core/peer_origin.h).
// SUBSCRIBE -> SUBSCRIBE_OK binds the Track Alias and makes the track Active; subgroup streams
// write its groups; PUBLISH_DONE ends it once the streams it counts have arrived. A live
// subscription also joins the current group from its first object.
// The same task takes a track the peer pushes (PUBLISH, when SessionConfig::accept_pushed_tracks):
// the peer opened the stream and chose the alias, we answer REQUEST_OK (PUBLISH_OK), and from
// there on it is a subscription like the others, except that it lasts as long as the publisher
// pushes (no consumer is needed) and its broadcast is announced meanwhile.
class SubscribeRequestTask final : public RequestTask, public Link<SubTag> {
 public:
  SubscribeRequestTask(IetfSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "ietf subscribe request") {}
  void start(const Path& broadcast, TrackRequest request);
  // The peer's PUBLISH of track (made by PeerOrigin::push_track) in broadcast.
  void start_pushed(SendStreamPtr send, core::StreamInput& input, const Path& broadcast,
                    const w::Publish& publish, TrackProducer track);

  enum class Attach : uint8_t { Write, Wait, Refuse };
  // A subgroup stream of this subscription arrived for group: Write (out is the group to fill),
  // Wait (the join of this group is still arriving: hold the stream and wait on
  // join_changed()), or Refuse (stop the stream).
  Attach attach(SubgroupReceiver& receiver, uint64_t group, GroupProducer& out);
  void receiver_done(SubgroupReceiver& receiver);
  WaitList& join_changed() { return join_changed_; }
  // The fetch stream of this subscription's joining FETCH (-18) or fill (-22).
  bool take_join_stream(uint64_t request_id, core::StreamInput& input);

  bool on(const w::SubscribeOk& ok);
  bool on(const w::RequestError& error);
  bool on(const w::PublishDone& done);
  bool on(const w::PublishStateNotify& notify);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  enum class Phase : uint8_t { Open, AwaitOk, Active, Ending };
  enum class Join : uint8_t { None, Pending, Done };
  Poll cancel_subscription(uint64_t code);
  Poll fail(const Error& e);
  // Opens the -18 joining FETCH's stream when credit allows. False when the session failed.
  bool open_join();
  void read_join_request();
  void read_join_data();
  void join_finished(bool ok);
  bool live() const { return !pushed_ && !request_prefs_.group_start; }
  const char* request_name() const { return pushed_ ? "PUBLISH" : "SUBSCRIBE"; }
  // No consumer is left and the session's linger ran out: the subscription goes.
  bool abandoned(uint32_t consumers) {
    if (pushed_) return false;  // a pushed track lasts as long as its publisher pushes
    if (consumers > 0 && !linger_.running()) [[likely]]
      return false;
    return linger_.expired(consumers, session_.config().linger_ns, executor().now_ns());
  }
  void build_subscribe();
  // PUBLISH_DONE: end the track once the streams it counts arrived and were read.
  bool end_when_complete(Poll& result);

  Phase phase_ = Phase::Open;
  Path path_;
  TrackRequest request_;
  PreferenceSummary request_prefs_;
  w::Subscribe subscribe_;  // kept: its strings keep their capacity
  TrackProducer producer_;
  uint64_t request_id_ = 0;
  std::optional<uint64_t> alias_;
  std::optional<w::PublishDone> done_;
  core::TailGrace tail_{*this};  // after PUBLISH_DONE: the streams it counts, or the grace period
  bool refused_ = false;         // REQUEST_ERROR or a refused SUBSCRIBE_OK: the job ends
  bool pushed_ = false;          // the peer's PUBLISH
  bool publish_ok_sent_ = false;
  uint64_t streams_seen_ = 0;
  IntrusiveList<SubgroupReceiver, ReceiverTag> receivers_;

  // Joining the current group (live subscriptions).
  Join join_ = Join::None;
  uint64_t join_group_ = 0;
  GroupProducer join_producer_;
  bool join_ok_ = true;
  bool join_failed_ = false;  // the join failed, possibly before SUBSCRIBE_OK was read
  // -18: the joining FETCH's own request stream.
  uint64_t join_request_id_ = UINT64_MAX;
  SendStreamPtr join_send_;
  core::StreamInput join_in_;
  core::Outbox join_out_;
  bool join_answered_ = false;
  bool join_fin_sent_ = false;
  // The join's fetch stream.
  core::StreamInput join_data_;
  w::FetchStreamState join_state_;
  ObjectParser join_parser_;
  bool join_data_done_ = false;

  Waiter unused_{*this};
  core::Linger linger_{*this};
  Waiter join_rd_{*this};
  Waiter join_wr_{*this};
  Waiter join_data_rd_{*this};
  WaitList join_changed_{"subscription join"};
};

}  // namespace moq::session::ietf
