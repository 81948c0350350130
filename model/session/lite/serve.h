// Publisher role: the tasks that answer the peer's requests from SessionConfig::publish.
// Each starts with the accepted bidi stream and a reader holding whatever followed the stream
// type byte.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "model/async/list.h"
#include "model/base/buf_chain.h"
#include "model/base/path.h"
#include "model/data/data.h"
#include "model/session/lite/frames.h"
#include "model/session/lite/message_reader.h"
#include "model/session/lite/stream_io.h"
#include "model/session/lite/task.h"
#include "model/transport.h"
#include "model/wire/lite/messages.h"

namespace moq::session::lite {

// Base of the served requests: the stream, its reader, the pending output, two waiters.
class ServeTask : public SessionTask {
 public:
  using SessionTask::SessionTask;
  // Takes the stream; swaps readers with the caller (both keep buffer capacity).
  void start(BidiStream stream, MessageReader& reader);

 protected:
  void clear() override;
  // Refuses the request: resets our half with code, stops reading theirs.
  void refuse(uint64_t code);
  // Finishes our half (paired close / end of the answer).
  void finish_send();
  // Reads until the peer ends its half (FIN or reset). Pending while it has not.
  Poll drain();
  // Writes out_; once written (and FINed when finish_after_write_), moves to State::Drain.
  Flush write();

  // The simple served requests' states (FETCH and SUBSCRIBE keep their own).
  enum class State : uint8_t { Request, Resolve, Write, Drain };
  State state_ = State::Request;
  bool finish_after_write_ = false;

  BidiStream stream_;
  MessageReader reader_;
  BufChain out_;
  Waiter read_waiter_{*this};
  Waiter write_waiter_{*this};
};

// FETCH: the group's frames in one gather write per batch, FIN at the end of the group (or of
// the requested range), then wait for the peer's FIN.
class FetchServeTask final : public ServeTask {
 public:
  FetchServeTask(LiteSession& s, TaskPoolBase& p) : ServeTask(s, p, "lite fetch serve") {}

 protected:
  Poll step() override;
  void clear() override;

 private:
  enum class Phase : uint8_t { Request, Send, Drain };
  Poll request();
  Poll send();

  Phase phase_ = Phase::Request;
  wire::lite::Fetch req_;
  GroupConsumer group_;
  size_t end_ = 0;  // exclusive frame index where the answer ends
  FrameEncoder encoder_;
  Waiter group_waiter_{*this};
};

class SubscribeServeTask;

// One group of a subscription on its own uni stream: GROUP header, frames, FIN.
struct SenderTag;
class GroupSendTask final : public SessionTask, public Link<SenderTag> {
 public:
  GroupSendTask(LiteSession& s, TaskPoolBase& p) : SessionTask(s, p, "lite group send") {}
  void start(SubscribeServeTask& parent, GroupConsumer group, uint64_t subscribe_id,
             uint8_t priority, uint64_t frame_start, size_t frame_end);
  // Resets the stream with code and ends the job (the subscription was cancelled).
  void cancel(uint64_t code);

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
  BufChain out_;
  FrameEncoder encoder_;
  Waiter stream_waiter_{*this};
  Waiter group_waiter_{*this};
};

// SUBSCRIBE: SUBSCRIBE_OK at the first group, one GroupSendTask per group, SUBSCRIBE_END when
// the track ends, FIN once every group stream is done (-06) or once the subscriber FINs (-07).
class SubscribeServeTask final : public ServeTask {
 public:
  SubscribeServeTask(LiteSession& s, TaskPoolBase& p) : ServeTask(s, p, "lite subscribe serve") {}

  void sender_opened() {
    ++streams_open_;
    if (end_known_ && !end_sent_) wake();  // -07 sends SUBSCRIBE_END once all are open
  }
  void sender_done(GroupSendTask& sender);

 protected:
  Poll step() override;
  void clear() override;

 private:
  enum class Phase : uint8_t { Request, Active };
  Poll request();
  // Reads SUBSCRIBE_UPDATEs and the peer's end; false when the job is over.
  bool read_updates(Poll& result);
  // Takes the track's new groups; false when the job is over.
  bool take_groups(Poll& result);
  void start_sender(const GroupConsumer& group);
  void cancel_senders(uint64_t code);
  void queue(Result<Bytes> message);
  TrackPreferences preferences() const;

  Phase phase_ = Phase::Request;
  wire::lite::Subscribe req_;
  TrackConsumer track_;
  bool ok_sent_ = false;
  bool end_known_ = false;  // the track ended: no more groups
  uint64_t end_group_ = 0;
  bool end_sent_ = false;
  bool peer_fin_ = false;
  bool fin_sent_ = false;
  uint64_t streams_started_ = 0;
  uint64_t streams_open_ = 0;
  IntrusiveList<GroupSendTask, SenderTag> senders_;
  Waiter track_waiter_{*this};
};

// ANNOUNCE_REQUEST: ANNOUNCE_OK with the snapshot count, the snapshot's ANNOUNCE_STARTs, then
// START / END as broadcasts come and go under the prefix.
class AnnounceServeTask final : public ServeTask {
 public:
  AnnounceServeTask(LiteSession& s, TaskPoolBase& p) : ServeTask(s, p, "lite announce serve") {}

 protected:
  Poll step() override;
  void clear() override;

 private:
  bool visible(const Path& path) const;
  void announce(const AnnounceEvent& event);

  bool started_ = false;
  Path prefix_;
  bool hidden_ = false;
  AnnounceConsumer announcements_;
  uint64_t next_id_ = 0;
  std::map<std::string, uint64_t, std::less<>> ids_;  // live path -> Announce ID
  Waiter events_waiter_{*this};
};

// TRACK: TRACK_INFO then FIN (or a reset when the track is unknown).
class TrackServeTask final : public ServeTask {
 public:
  TrackServeTask(LiteSession& s, TaskPoolBase& p) : ServeTask(s, p, "lite track serve") {}

 protected:
  Poll step() override;
  void clear() override;

 private:
  TrackConsumer track_;
  Waiter track_waiter_{*this};
};

// GOAWAY from the peer: recorded on the session; our half closes when the peer closes its own.
class GoawayServeTask final : public ServeTask {
 public:
  GoawayServeTask(LiteSession& s, TaskPoolBase& p) : ServeTask(s, p, "lite goaway serve") {}

 protected:
  Poll step() override;
  void clear() override;

 private:
  bool received_ = false;
};

// AUTH (-07): the SessionConfig::authorize decision as AUTH_OK or AUTH_ERROR.
class AuthServeTask final : public ServeTask {
 public:
  AuthServeTask(LiteSession& s, TaskPoolBase& p) : ServeTask(s, p, "lite auth serve") {}

 protected:
  Poll step() override;
  void clear() override;
};

}  // namespace moq::session::lite
