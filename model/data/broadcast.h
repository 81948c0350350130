// Broadcast: a set of named tracks, served on demand.
//
// The producer side (a publisher, or a session relaying a peer's broadcast) either creates
// tracks up front (create_track) or serves them when asked: after serve_requests(), a consumer
// subscribing to a name nobody created yet gets a TrackConsumer on a Pending track at once, and
// a TrackRequest appears in the producer's queue (requests() is notified). Concurrent
// subscriptions to the same name share one pending track, so one request reaches the producer.
// The producer accepts it (TrackRequest::accept gives a TrackProducer; the track becomes Active)
// or rejects it with a reason every waiting consumer sees (Aborted). A queued request whose
// consumers all leave is withdrawn (aborted with data_error::kCancelled) before the producer
// sees it. Without serve_requests(), subscribing to an unknown name fails with kNotFound.
//
// Group requests. After serve_group_requests(), a FETCH of a group its track's cache does not
// hold (TrackConsumer::request_group: below the track's latest group, or any group while the
// track has none) gets a group at once, and a GroupRequest for it appears in the producer's
// queue (requests() is notified too). A session's copy of its peer's broadcast serves these by
// fetching the group upstream: that is how a relay answers a FETCH its cache cannot.
//
// A track stays listed while pending, active or finished (late subscribers of a finished track
// read its cache, then End); an aborted track is removed, so a later subscription asks again.
//
// Closing. close(reason), or dropping the BroadcastProducer (data_error::kProducerDropped),
// rejects pending requests, unlists every track (tracks with live producers go on for their
// current consumers), unpublishes the broadcast from every Origin path it is published under,
// and notifies closed(). Subscribing to a closed broadcast fails with kClosed.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "model/async/clock.h"
#include "model/async/executor.h"
#include "model/async/list.h"
#include "model/base/ref.h"
#include "model/base/result.h"
#include "model/data/track.h"

namespace moq {

// A FETCH of a group a track's cache does not hold, as the producer side of its broadcast
// receives it. The group is the requester's alone and never enters the track's cache: caching it
// would evict groups near the live edge that the track's other readers want. Write its frames
// from frame 0 and finish it, or abort it with the reason; dropping it aborts it.
struct GroupRequest {
  std::string track;
  GroupProducer group;
  uint8_t priority = 0;  // the requester's
};

namespace detail {

struct PublishedTag;
class OriginNode;

// Shared state of one broadcast. Internal: use BroadcastProducer / BroadcastConsumer.
class BroadcastState {
 public:
  explicit BroadcastState(Clock& clock) : clock(&clock) {}
  BroadcastState(const BroadcastState&) = delete;
  BroadcastState& operator=(const BroadcastState&) = delete;
  ~BroadcastState();

  void add_ref() { ++refs; }
  void release() {
    if (--refs == 0) delete this;
  }
  void close(Error reason);

  uint32_t refs = 0;
  Clock* clock;
  bool closed = false;
  bool serves_requests = false;
  bool serves_group_requests = false;
  Error error;  // why it closed
  std::map<std::string, Ref<TrackState>, std::less<>> tracks;
  IntrusiveList<TrackState, RequestTag> requests;     // pending tracks not yet handed out
  std::deque<GroupRequest> group_requests;            // not yet handed out
  IntrusiveList<OriginNode, PublishedTag> published;  // origin paths it is published under
  WaitList request_queue{"broadcast requests"};
  WaitList closed_list{"broadcast closed"};
};

// Unlists a track (it aborted).
void broadcast_forget(BroadcastState& broadcast, TrackState& track);
// Queues a GroupRequest for group `sequence` of the track, when the broadcast serves them and is
// open; the requester's reader of the group.
std::optional<GroupConsumer> broadcast_request_group(BroadcastState& broadcast,
                                                     const std::string& track, uint64_t sequence,
                                                     uint8_t priority);

}  // namespace detail

// A consumer's request for a track nobody has created yet, as the producer side receives it.
// Move-only. Dropping it unanswered rejects it with data_error::kRequestDropped.
class TrackRequest {
 public:
  TrackRequest() = default;
  TrackRequest(TrackRequest&&) noexcept = default;
  TrackRequest& operator=(TrackRequest&& o) noexcept;
  TrackRequest(const TrackRequest&) = delete;
  TrackRequest& operator=(const TrackRequest&) = delete;
  ~TrackRequest();

  explicit operator bool() const { return static_cast<bool>(s_); }
  const std::string& name() const { return s_->name; }
  // The aggregate of the consumers waiting for it (e.g. the priority to subscribe upstream with).
  PreferenceSummary preferences() const { return s_->prefs.summary(); }
  uint32_t consumer_count() const { return s_->prefs.consumers(); }
  WaitList& unused() const { return s_->unused; }
  WaitList& preferences_changed() const { return s_->preferences_changed; }

  // Serves the track: it becomes Active with this info and the caller produces it. Fails
  // (kClosed) when the request was already answered, cancelled or its broadcast closed.
  Result<TrackProducer> accept(const TrackInfo& info);
  // Refuses the track; every waiting consumer sees reason.
  void reject(Error reason);

 private:
  friend class BroadcastProducer;
  explicit TrackRequest(Ref<detail::TrackState> s) : s_(std::move(s)) {}
  Ref<detail::TrackState> s_;
};

class BroadcastConsumer;

// The producing end of a broadcast. Move-only; one per broadcast.
class BroadcastProducer {
 public:
  BroadcastProducer() = default;
  // Tracks of this broadcast read the clock once per created group.
  static BroadcastProducer create(Clock& clock);
  BroadcastProducer(BroadcastProducer&&) noexcept = default;
  BroadcastProducer& operator=(BroadcastProducer&& o) noexcept;
  BroadcastProducer(const BroadcastProducer&) = delete;
  BroadcastProducer& operator=(const BroadcastProducer&) = delete;
  // Closes the broadcast with data_error::kProducerDropped unless closed already.
  ~BroadcastProducer();

  explicit operator bool() const { return static_cast<bool>(s_); }

  // Creates and lists a track. A pending request for the same name is answered by it. Fails
  // with kDuplicate when the name is listed (active or finished) and kClosed once closed.
  Result<TrackProducer> create_track(std::string name, const TrackInfo& info = {});

  // From now on, subscriptions to unknown names queue a TrackRequest instead of failing.
  void serve_requests() { s_->serves_requests = true; }
  // The oldest queued request, if any; otherwise wait on requests().
  std::optional<TrackRequest> next_request();
  // Notified on each new TrackRequest and GroupRequest, and when the broadcast closes.
  WaitList& requests() const { return s_->request_queue; }

  // From now on, a FETCH of a group a track's cache does not hold queues a GroupRequest.
  void serve_group_requests() { s_->serves_group_requests = true; }
  // The oldest queued group request, if any; otherwise wait on requests().
  std::optional<GroupRequest> next_group_request();

  // Ends the broadcast (see the header comment). No effect once closed.
  void close(Error reason = Error{0, "broadcast closed"}) { s_->close(std::move(reason)); }
  bool is_closed() const { return s_->closed; }
  size_t track_count() const { return s_->tracks.size(); }

  BroadcastConsumer consume() const;

 private:
  explicit BroadcastProducer(Ref<detail::BroadcastState> s) : s_(std::move(s)) {}
  Ref<detail::BroadcastState> s_;
};

// A reader of a broadcast. Copyable (a reference count).
class BroadcastConsumer {
 public:
  BroadcastConsumer() = default;
  explicit BroadcastConsumer(Ref<detail::BroadcastState> s) : s_(std::move(s)) {}

  explicit operator bool() const { return static_cast<bool>(s_); }
  bool operator==(const BroadcastConsumer& o) const { return s_ == o.s_; }

  // A consumer of the named track: the listed one, or (when the producer serves requests) a
  // pending one that a TrackRequest was queued for. Fails with kNotFound or kClosed.
  Result<TrackConsumer> subscribe(std::string_view name, const TrackPreferences& prefs = {}) const;

  bool is_closed() const { return s_->closed; }
  // Why it closed (is_closed()).
  const Error& error() const { return s_->error; }
  // Notified once, when the broadcast closes.
  WaitList& closed() const { return s_->closed_list; }

  detail::BroadcastState* state() const { return s_.get(); }

 private:
  Ref<detail::BroadcastState> s_;
};

}  // namespace moq
