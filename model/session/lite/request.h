// Viewer role: the tasks that send requests to the peer and fill data-model objects with the
// answers. Each opens its own stream.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "model/base/buf_chain.h"
#include "model/base/path.h"
#include "model/data/data.h"
#include "model/session/lite/frames.h"
#include "model/session/lite/message_reader.h"
#include "model/session/lite/task.h"
#include "model/session/session.h"
#include "model/transport.h"
#include "model/wire/lite/messages.h"

namespace moq::session::lite {

// Base of the sent requests: a bidi stream opened when stream credit allows, the request bytes
// written first, a reader for the answer.
class RequestTask : public SessionTask {
 public:
  using SessionTask::SessionTask;

 protected:
  void clear() override;
  // Opens the stream (kind counted) and queues first; Pending while out of stream credit;
  // Failed when the connection is closed.
  enum class Opened : uint8_t { Yes, Pending, Failed };
  Opened open(StreamKind kind, int64_t send_order);
  // Ends our half with a reset, stops theirs.
  void cancel(uint64_t code);
  void finish_send();
  // Waits for the peer to end its half (paired close).
  Poll drain();

  Bytes request_;  // what open() writes first
  BidiStream stream_;
  MessageReader reader_;
  BufChain out_;
  Waiter read_waiter_{*this};
  Waiter write_waiter_{*this};
};

// FETCH: the answer's frames go into a group the viewer reads through a FetchConsumer.
class FetchRequestTask final : public RequestTask {
 public:
  FetchRequestTask(LiteSession& s, TaskPoolBase& p) : RequestTask(s, p, "lite fetch request") {}
  // what: "FETCH of group 5 of 'demo' track 'video'", for errors (capacity is kept).
  void start(Bytes request, GroupProducer group, int64_t send_order, const Path& broadcast,
             std::string_view track, uint64_t sequence);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  std::string describe() const;

  bool opened_ = false;
  int64_t send_order_ = 0;
  uint64_t sequence_ = 0;
  GroupProducer group_;
  std::string broadcast_;
  std::string track_;
  FrameParser parser_;
};

// A subscription of the viewer: TRACK first (the track's info makes the mirror track Active),
// then SUBSCRIBE; group streams naming its Subscribe ID become groups of the mirror track.
// SUBSCRIBE_UPDATE follows the consumers' aggregate preferences; when the last consumer leaves
// the subscription is cancelled (reset with CANCELLED).
class SubscribeRequestTask final : public RequestTask {
 public:
  SubscribeRequestTask(LiteSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "lite subscribe request") {}
  void start(const Path& broadcast, TrackRequest request, uint64_t id);

  // For group streams: a new group of this subscription (counted for the -07 tail).
  Result<GroupProducer> open_group(uint64_t sequence);
  const std::string& track_name() const { return track_; }

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  enum class State : uint8_t { TrackInfo, Active };
  Poll track_info();
  Poll active();
  void unsubscribe();
  wire::lite::SubscribeOptions options(const PreferenceSummary& p) const;
  std::string describe() const;

  State state_ = State::TrackInfo;
  bool opened_ = false;
  bool registered_ = false;
  uint64_t id_ = 0;
  std::optional<Error> encode_error_;
  std::string broadcast_;
  std::string track_;
  TrackRequest track_request_;
  TrackProducer producer_;
  PreferenceSummary sent_;  // the preferences the peer last heard
  bool ok_received_ = false;
  bool end_received_ = false;
  uint64_t end_streams_ = 0;  // -07: group streams the publisher opened
  uint64_t headers_seen_ = 0;
  bool fin_sent_ = false;
  bool tail_started_ = false;
  Waiter track_waiter_{*this};
  Waiter prefs_waiter_{*this};
  Timer tail_timer_{*this};
};

// ANNOUNCE_REQUEST: routes the peer announces appear in the session's mirror origin.
class AnnounceRequestTask final : public RequestTask {
 public:
  AnnounceRequestTask(LiteSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "lite announce request") {}
  void start(const Path& prefix);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  // Ends every route learned on this stream.
  void withdraw_all();
  Status on_message(const wire::lite::AnnounceMessage& m);

  bool opened_ = false;
  bool ok_received_ = false;
  Path prefix_;
  uint64_t next_id_ = 0;
  std::map<uint64_t, std::optional<Path>> routes_;  // Announce ID -> path (nullopt: a loop)
  std::map<std::string, uint64_t, std::less<>> live_;
};

// TRACK sent on its own: the answer resolves a Reply<TrackInfo>.
class TrackInfoRequestTask final : public RequestTask {
 public:
  TrackInfoRequestTask(LiteSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "lite track info request") {}
  void start(Bytes request, ReplyProducer<TrackInfo> reply, std::string what);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  bool opened_ = false;
  bool answered_ = false;
  ReplyProducer<TrackInfo> reply_;
  std::string what_;
};

// GOAWAY: sent, FINed at once (we are ready to terminate), then waits for the peer's FIN.
class GoawaySendTask final : public RequestTask {
 public:
  GoawaySendTask(LiteSession& s, TaskPoolBase& p) : RequestTask(s, p, "lite goaway send") {}
  void start(Bytes request);

 protected:
  Poll step() override;

 private:
  bool opened_ = false;
};

// AUTH (-07): the first reply resolves the Reply<AuthGrant>; the stream stays open until the
// peer ends it.
class AuthRequestTask final : public RequestTask {
 public:
  AuthRequestTask(LiteSession& s, TaskPoolBase& p) : RequestTask(s, p, "lite auth request") {}
  void start(Bytes request, ReplyProducer<AuthGrant> reply);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  bool opened_ = false;
  ReplyProducer<AuthGrant> reply_;
};

// The SETUP uni stream: one SETUP, then FIN.
class SetupSendTask final : public SessionTask {
 public:
  SetupSendTask(LiteSession& s, TaskPoolBase& p) : SessionTask(s, p, "lite setup send") {}
  void start(Bytes setup);

 protected:
  Poll step() override;
  void clear() override;

 private:
  Bytes setup_;
  SendStreamPtr stream_;
  BufChain out_;
  Waiter waiter_{*this};
};

}  // namespace moq::session::lite
