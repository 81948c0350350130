#include "model/data/broadcast.h"

#include <string>
#include <utility>

#include "model/data/errors.h"
#include "model/data/origin.h"

namespace moq {
namespace detail {

BroadcastState::~BroadcastState() {
  // Origin paths hold references, so none can still list this broadcast here.
  for (auto& [name, track] : tracks)
    track->broadcast = nullptr;
  requests.clear();
  group_requests.clear();  // each group aborts: its producer is dropped
}

void BroadcastState::close(Error reason) {
  if (closed) return;
  Ref<BroadcastState> hold(this);
  closed = true;
  error = std::move(reason);
  // Unlist every track first, so aborting pending ones does not edit the map under us.
  std::map<std::string, Ref<TrackState>, std::less<>> unlisted;
  unlisted.swap(tracks);
  for (auto& [name, track] : unlisted)
    track->broadcast = nullptr;
  for (auto& [name, track] : unlisted) {
    if (track->status == TrackStatus::Pending) {
      track->abort(Error{error.code, "track '" + name + "': broadcast closed: " + error.message});
    }
  }
  unlisted.clear();
  for (GroupRequest& r : group_requests) {
    r.group.abort(Error{error.code, "group " + std::to_string(r.group.sequence()) + " of track '" +
                                        r.track + "': broadcast closed: " + error.message});
  }
  group_requests.clear();
  while (OriginNode* node = published.front())
    origin_unpublish(*node);
  request_queue.notify_all();
  closed_list.notify_all();
}

void broadcast_forget(BroadcastState& broadcast, TrackState& track) {
  track.broadcast = nullptr;
  auto it = broadcast.tracks.find(track.name);
  if (it != broadcast.tracks.end() && it->second.get() == &track) broadcast.tracks.erase(it);
}

std::optional<GroupConsumer> broadcast_request_group(BroadcastState& broadcast,
                                                     const std::string& track, uint64_t sequence,
                                                     uint8_t priority) {
  if (broadcast.closed || !broadcast.serves_group_requests) return std::nullopt;
  GroupProducer group = GroupProducer::create(sequence);
  GroupConsumer reader = group.consume();
  broadcast.group_requests.push_back(GroupRequest{track, std::move(group), priority});
  broadcast.request_queue.notify_all();
  return reader;
}

}  // namespace detail

// ---- TrackRequest ----

TrackRequest& TrackRequest::operator=(TrackRequest&& o) noexcept {
  if (this != &o) {
    if (s_) reject(Error{data_error::kRequestDropped, "track request replaced unanswered"});
    s_ = std::move(o.s_);
  }
  return *this;
}

TrackRequest::~TrackRequest() {
  if (s_) {
    reject(Error{data_error::kRequestDropped,
                 "track '" + s_->name + "' request dropped without an answer"});
  }
}

Result<TrackProducer> TrackRequest::accept(const TrackInfo& info) {
  Ref<detail::TrackState> s = std::move(s_);
  if (!s) return Error{data_error::kClosed, "accept: empty track request"};
  if (s->status != TrackStatus::Pending || s->producer_taken) {
    std::string why = s->status == TrackStatus::Aborted ? s->error.message : "already answered";
    return Error{data_error::kClosed, "accept: track '" + s->name + "': " + why};
  }
  s->activate(info);
  return TrackProducer(std::move(s));
}

void TrackRequest::reject(Error reason) {
  Ref<detail::TrackState> s = std::move(s_);
  if (s && s->status == TrackStatus::Pending && !s->producer_taken) s->abort(std::move(reason));
}

// ---- BroadcastProducer ----

BroadcastProducer BroadcastProducer::create(Clock& clock) {
  return BroadcastProducer(Ref<detail::BroadcastState>(new detail::BroadcastState(clock)));
}

BroadcastProducer& BroadcastProducer::operator=(BroadcastProducer&& o) noexcept {
  if (this != &o) {
    if (s_) s_->close(Error{data_error::kProducerDropped, "broadcast producer dropped"});
    s_ = std::move(o.s_);
  }
  return *this;
}

BroadcastProducer::~BroadcastProducer() {
  if (s_) s_->close(Error{data_error::kProducerDropped, "broadcast producer dropped"});
}

Result<TrackProducer> BroadcastProducer::create_track(std::string name, const TrackInfo& info) {
  detail::BroadcastState& b = *s_;
  if (b.closed) {
    return Error{data_error::kClosed,
                 "create_track '" + name + "': broadcast closed: " + b.error.message};
  }
  auto it = b.tracks.find(name);
  if (it != b.tracks.end()) {
    detail::TrackState& t = *it->second;
    if (t.status == TrackStatus::Pending && !t.producer_taken) {
      t.activate(info);  // answers the pending request
      return TrackProducer(it->second);
    }
    return Error{data_error::kDuplicate, "create_track: track '" + name + "' already exists"};
  }
  Ref<detail::TrackState> t(new detail::TrackState(name, *b.clock, TrackStatus::Active, info));
  t->broadcast = &b;
  b.tracks.emplace(std::move(name), t);
  return TrackProducer(std::move(t));
}

std::optional<TrackRequest> BroadcastProducer::next_request() {
  detail::TrackState* t = s_->requests.pop_front();
  if (!t) return std::nullopt;
  return TrackRequest(Ref<detail::TrackState>(t));
}

std::optional<GroupRequest> BroadcastProducer::next_group_request() {
  if (s_->group_requests.empty()) return std::nullopt;
  GroupRequest r = std::move(s_->group_requests.front());
  s_->group_requests.pop_front();
  return r;
}

BroadcastConsumer BroadcastProducer::consume() const {
  return BroadcastConsumer(s_);
}

// ---- BroadcastConsumer ----

Result<TrackConsumer> BroadcastConsumer::subscribe(std::string_view name,
                                                   const TrackPreferences& prefs) const {
  detail::BroadcastState& b = *s_;
  if (b.closed) {
    return Error{data_error::kClosed,
                 "subscribe '" + std::string(name) + "': broadcast closed: " + b.error.message};
  }
  auto it = b.tracks.find(name);
  if (it != b.tracks.end()) return TrackConsumer(it->second, prefs);
  if (!b.serves_requests) {
    return Error{data_error::kNotFound, "subscribe: track '" + std::string(name) + "' not found"};
  }
  Ref<detail::TrackState> t(
      new detail::TrackState(std::string(name), *b.clock, TrackStatus::Pending, TrackInfo{}));
  t->broadcast = &b;
  b.tracks.emplace(std::string(name), t);
  b.requests.push_back(*t);
  b.request_queue.notify_all();
  return TrackConsumer(std::move(t), prefs);
}

}  // namespace moq
