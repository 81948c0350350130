// SUBSCRIBE (bidi stream 0x2, draft-lcurley-moq-lite-06), both roles. Each group of a subscription
// travels on its own uni stream (group.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/async/list.h"
#include "model/base/path.h"
#include "model/data/data.h"
#include "model/session/core/linger.h"
#include "model/session/core/tail_grace.h"
#include "model/session/lite/track.h"
#include "model/wire/lite/messages.h"

namespace moq::session::lite {

class GroupSendTask;
struct SenderTag;

// Publisher: SUBSCRIBE_OK at the first group, one GroupSendTask per group, SUBSCRIBE_UPDATE ->
// TrackConsumer::update, SUBSCRIBE_END when the track ends, FIN once every group stream is done
// (-06) or once the subscriber FINs (-07).
class SubscribeServeTask final : public BidiTask {
 public:
  SubscribeServeTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite subscribe serve") {}
  void start(SendStreamPtr send, core::StreamInput& input);

  // For the group streams.
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
  TrackPreferences preferences() const;

  Phase phase_ = Phase::Request;
  wire::lite::Subscribe req_;
  TrackConsumer track_;
  bool ok_sent_ = false;
  bool end_known_ = false;  // the track ended: no more groups
  uint64_t end_group_ = 0;
  bool end_sent_ = false;
  uint64_t streams_started_ = 0;
  uint64_t streams_open_ = 0;
  IntrusiveList<GroupSendTask, SenderTag> senders_;
  Waiter track_waiter_{*this};
};

// Viewer: one upstream subscription of a mirror track (model/session/core/peer_origin.h).
// TRACK first (the track's info makes the mirror track Active), then SUBSCRIBE; group streams
// naming its Subscribe ID become groups of the mirror track. SUBSCRIBE_UPDATE follows the
// consumers' aggregate preferences; when the last consumer leaves, the subscription is cancelled
// (reset with CANCELLED). SUBSCRIBE_END does not end the mirror track at once: its group streams
// may still be on their way (the publisher's FIN follows the group streams it wrote, not their
// arrival), so the track ends once they are in (tail_complete()).
class SubscribeRequestTask final : public TrackAsker {
 public:
  SubscribeRequestTask(LiteSession& s, TaskPoolBase& p)
      : TrackAsker(s, p, "lite subscribe request") {}
  void start(const Path& broadcast, TrackRequest request, uint64_t id);

  // For group streams: a new group of this subscription (counted for the -07 tail).
  Result<GroupProducer> open_group(uint64_t sequence);
  // For group streams: the group open_group() made (counted for the -06 tail). Apart from
  // open_group() so that its result is returned without a move.
  void group_opened(uint64_t sequence) {
    if (!ok_received_) {
      early_.push_back(sequence);
    } else if (sequence >= first_group_) {
      ++in_range_;
    }
  }
  const std::string& track_name() const { return track_; }

  // The handlers of the publisher's replies.
  bool on(const wire::lite::SubscribeOk& ok);
  bool on(const wire::lite::SubscribeEnd& end);
  bool on(const wire::lite::SubscribeDrop& drop);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  enum class State : uint8_t { TrackInfo, Active };
  Poll track_info();
  Poll active();
  wire::lite::SubscribeOptions options(const PreferenceSummary& p) const;
  std::string describe() const override;
  // No consumer is left and the session's linger ran out: the subscription goes.
  bool abandoned(uint32_t consumers);
  // After SUBSCRIBE_END: whether every group stream the publisher sent showed its header (-06:
  // each group of [SUBSCRIBE_OK's Group, SUBSCRIBE_END's Group) arrived or was dropped; -07: the
  // Stream Count of headers arrived).
  bool all_arrived(wire::lite::LiteVersion v) const;
  // all_arrived(), or the grace period for streams reset before their header ran out.
  bool tail_complete(wire::lite::LiteVersion v);
  // Finishes the mirror track at SUBSCRIBE_END's Group.
  void end_track();
  // The subscription stops short after SUBSCRIBE_END (a reset, the connection closed): the track
  // ends cleanly when every group arrived, else it aborts with why.
  void stop_after_end(Error why);

  State state_ = State::TrackInfo;
  bool registered_ = false;
  uint64_t id_ = 0;
  Bytes request_;  // TRACK, then SUBSCRIBE
  std::optional<Error> encode_error_;
  std::string broadcast_;
  std::string track_;
  TrackRequest track_request_;
  TrackProducer producer_;
  PreferenceSummary sent_;  // the preferences the peer last heard
  bool end_received_ = false;
  bool track_ended_ = false;  // the mirror track finished (or aborted) after SUBSCRIBE_END
  uint64_t end_group_ = 0;    // SUBSCRIBE_END's Group: the exclusive end
  uint64_t end_streams_ = 0;  // -07: group streams the publisher opened
  uint64_t headers_seen_ = 0;
  bool ok_received_ = false;
  uint64_t first_group_ = 0;  // SUBSCRIBE_OK's Group: the first group delivered
  uint64_t in_range_ = 0;     // -06: groups from first_group_ on whose header arrived
  uint64_t dropped_ = 0;      // -06: groups from first_group_ on that SUBSCRIBE_DROP gave up
  // -06: groups whose header arrived before SUBSCRIBE_OK (a separate stream may overtake it),
  // counted into in_range_ once first_group_ is known.
  std::vector<uint64_t> early_;
  Waiter track_waiter_{*this};
  Waiter prefs_waiter_{*this};
  core::TailGrace tail_{*this};
  core::Linger linger_{*this};
};

}  // namespace moq::session::lite
