// The viewer role: requests this endpoint sends, and the peer's announcements.
//
//   RemoteBroadcast   one per broadcast path of the peer this endpoint uses: a BroadcastProducer
//                     serving requests, published in the session's copy of the peer's origin
//                     while announced; each TrackRequest becomes a SubscribeClient
//   SubscribeClient   SUBSCRIBE -> SUBSCRIBE_OK binds the Track Alias and makes the track Active;
//                     subgroup streams write its groups; PUBLISH_DONE ends it once the streams it
//                     counts have arrived. A live subscription also joins the current group from
//                     its first object: -18 a joining FETCH, -22 FILL_PARAMETERS (spec 5.1, 5.3)
//   FetchClient       FETCH -> FETCH_OK and one fetch stream, written into a pooled group
//   TrackStatusClient TRACK_STATUS -> REQUEST_OK -> TrackInfo
//   NamespaceClient   SUBSCRIBE_NAMESPACE -> NAMESPACE / NAMESPACE_DONE -> announcements
//   PublishNamespaceServer  the peer's PUBLISH_NAMESPACE -> an announcement while it stands
//   RefuseTask        answers a request with REQUEST_ERROR and closes its stream cleanly
//   RequestOpener     waits for the first message of an accepted request stream
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "model/async/executor.h"
#include "model/data/data.h"
#include "model/session/ietf/receiver.h"
#include "model/session/ietf/request_task.h"
#include "model/wire/ietf/messages.h"

namespace moq::session::ietf_session {

class RemoteBroadcast final : public Task {
 public:
  RemoteBroadcast(IetfSession& s, Path path);
  ~RemoteBroadcast() override;
  Poll poll() override;
  BroadcastConsumer consume() const { return producer_.consume(); }
  // No longer announced, or the session closed: close the broadcast with reason (its running
  // tracks go on) and end.
  void retire(Error reason);
  uint32_t announce_refs = 0;

 private:
  IetfSession& s_;
  Path path_;
  BroadcastProducer producer_;
  bool retired_ = false;
  Waiter requests_{*this};
  Waiter closing_{*this};
};

class SubscribeClient final : public RequestTask, public Link<SubTag> {
 public:
  SubscribeClient(IetfSession& s, Path path, TrackRequest request);
  ~SubscribeClient() override;
  Poll poll() override;

  enum class Attach : uint8_t { Write, Wait, Refuse };
  // A subgroup stream of this subscription arrived for group: Write (out is the group to fill),
  // Wait (the join of this group is still arriving: hold the stream and wait on
  // join_changed()), or Refuse (stop the stream).
  Attach attach(UniReader& reader, uint64_t group, GroupProducer& out);
  void receiver_done(UniReader& reader);
  WaitList& join_changed() { return join_changed_; }
  // The fetch stream of this subscription's joining FETCH (-18) or fill (-22).
  bool take_join_stream(uint64_t request_id, StreamInput& input);

 private:
  enum class Phase : uint8_t { Open, AwaitOk, Active, Ending, Done };
  enum class Join : uint8_t { None, Pending, Done };
  Poll cancel(uint64_t code);
  Poll fail(Error e);
  // Opens the -18 joining FETCH's stream when credit allows. False when the session failed.
  bool open_join();
  void read_join_request();
  void read_join_data();
  void join_finished(bool ok);
  bool live() const { return !request_prefs_.group_start; }
  w::Subscribe build_subscribe();

  Phase phase_ = Phase::Open;
  Path path_;
  std::string name_;
  TrackRequest request_;
  PreferenceSummary request_prefs_;
  TrackProducer producer_;
  uint64_t request_id_;
  std::optional<uint64_t> alias_;
  std::optional<w::PublishDone> done_;
  uint64_t streams_seen_ = 0;
  IntrusiveList<UniReader, ReceiverTag> receivers_;

  // Joining the current group (live subscriptions).
  Join join_ = Join::None;
  uint64_t join_group_ = 0;
  GroupProducer join_producer_;
  bool join_ok_ = true;
  bool join_failed_ = false;  // the join failed, possibly before SUBSCRIBE_OK was read
  // -18: the joining FETCH's own request stream.
  uint64_t join_request_id_ = UINT64_MAX;
  SendStreamPtr join_out_s_;
  StreamInput join_in_;
  Outbox join_out_;
  bool join_answered_ = false;
  bool join_fin_sent_ = false;
  // The join's fetch stream.
  StreamInput join_data_;
  w::FetchStreamState join_state_;
  ObjectParser join_parser_;
  bool join_data_done_ = false;

  Waiter unused_{*this};
  Waiter join_rd_{*this};
  Waiter join_wr_{*this};
  Waiter join_data_rd_{*this};
  Waiter children_{*this};
  WaitList join_changed_{"subscription join"};
  WaitList receivers_changed_{"subscription streams"};
};

class FetchClient final : public RequestTask, public Link<FetchTag> {
 public:
  FetchClient(IetfSession& s, const Path& path, std::string track, uint64_t group,
              const FetchOptions& options, GroupProducer out);
  ~FetchClient() override;
  Poll poll() override;
  uint64_t request_id() const { return request_id_; }
  // The fetch stream arrived. False when this fetch has one already.
  bool take_data(StreamInput& input);

 private:
  Poll fail(Error e);

  w::Fetch fetch_;  // built once; sent when the stream opens
  uint64_t group_seq_;
  FetchOptions options_;
  GroupProducer group_;
  uint64_t request_id_;
  bool sent_ = false;
  bool ok_ = false;
  bool failed_ = false;
  bool finished_ = false;
  StreamInput data_;
  w::FetchStreamState state_;
  ObjectParser parser_;
  bool data_done_ = false;
  Waiter data_rd_{*this};
};

class TrackStatusClient final : public RequestTask {
 public:
  TrackStatusClient(IetfSession& s, const Path& path, std::string track,
                    ReplyProducer<TrackInfo> reply);
  ~TrackStatusClient() override;
  Poll poll() override;

 private:
  w::TrackNamespace ns_;
  std::string track_;
  ReplyProducer<TrackInfo> reply_;
  bool sent_ = false;
};

class NamespaceClient final : public RequestTask, public Link<NsClientTag> {
 public:
  NamespaceClient(IetfSession& s, Path prefix);
  ~NamespaceClient() override;
  Poll poll() override;
  const Path& prefix() const { return prefix_; }
  // Replaced by a request for a broader prefix: cancel.
  void withdraw();

 private:
  Path prefix_;
  bool sent_ = false;
  bool withdrawn_ = false;
  std::set<Path> announced_;
};

class PublishNamespaceServer final : public RequestTask {
 public:
  PublishNamespaceServer(IetfSession& s, SendStreamPtr send, StreamInput input, Path path);
  ~PublishNamespaceServer() override;
  Poll poll() override;

 private:
  Path path_;
  bool answered_ = false;
};

class RefuseTask final : public RequestTask {
 public:
  RefuseTask(IetfSession& s, SendStreamPtr send, StreamInput input, StreamKind kind,
             w::RequestError error);
  Poll poll() override;

 private:
  w::RequestError error_;
  bool sent_ = false;
};

class RequestOpener final : public Task {
 public:
  RequestOpener(IetfSession& s, SendStreamPtr send, StreamInput input);
  Poll poll() override;

 private:
  IetfSession& s_;
  SendStreamPtr send_;
  StreamInput in_;
  Waiter rd_{*this};
};

}  // namespace moq::session::ietf_session
