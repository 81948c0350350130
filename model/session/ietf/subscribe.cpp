// SUBSCRIBE, both roles (subscribe.h). Longer than 600 lines, for the reason every request kind
// keeps its two sides in one file: the publisher's subscription (filter, rendezvous, senders,
// fill, REQUEST_UPDATE, PUBLISH_DONE) is read against the viewer's (request, alias binding, stream
// accounting) it answers. A PUBLISH the peer pushes is read here too: past its REQUEST_OK it is
// the viewer's side of a subscription, and a file of its own would copy that side. The viewer's
// join of the current group is in subscribe_join.cpp.
#include "model/session/ietf/subscribe.h"

#include <string>
#include <utility>

#include "model/data/errors.h"
#include "model/session/core/dispatch.h"
#include "model/session/ietf/errors.h"
#include "model/session/ietf/fetch.h"
#include "model/session/ietf/names.h"
#include "model/session/ietf/pools.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::session::ietf {

namespace {
constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);

uint8_t subscriber_priority(const std::optional<uint8_t>& wire) {
  return local_priority(wire.value_or(kDefaultWirePriority));
}
}  // namespace

// ---- Publisher ----

void SubscribeServeTask::start(SendStreamPtr send, core::StreamInput& input,
                               w::ControlMessage& request) {
  adopt_stream(std::move(send), input);
  std::swap(request_, request);
  session_.serving.push_back(*this);
  // Only a -18 joining FETCH looks a subscription up by its Request ID.
  if (w::fetch_has_fetch_type(session_.v())) session_.serving_by_id[request_id()] = this;
  const w::MessageParams& p = subscribe().params;
  priority_ = subscriber_priority(p.subscriber_priority);
  ascending_ = p.group_order == w::GroupOrder::Ascending;
  forward_ = p.forward.value_or(true);
  set_stale_bound(p);
  wake();
}

void SubscribeServeTask::forget_index() {
  if (auto it = session_.serving_by_id.find(request_id());
      it != session_.serving_by_id.end() && it->second == this)
    session_.serving_by_id.erase(it);
  if (indexed_by_track_) {
    auto it = session_.serving_by_track.find({path_.str(), subscribe().track_name});
    if (it != session_.serving_by_track.end() && it->second == this)
      session_.serving_by_track.erase(it);
    indexed_by_track_ = false;
  }
}

void SubscribeServeTask::clear() {
  // Senders still running go on without their subscription; fills end with it.
  while (GroupSendTask* snd = senders_.pop_front())
    snd->detach_owner();
  while (FetchServeTask* f = fills_.pop_front())
    f->cancel(kCancelled);
  forget_index();
  RequestTask::clear();
  Link<ServeTag>::unlink();
  phase_ = Phase::Resolve;
  path_ = Path();
  track_.reset();
  edge_ = TrackEdge{};
  described_after_request_ = false;
  span_ = Span{};
  stale_bound_ns_ = core::kNoStaleBound;
  streams_ = 0;
  done_status_ = 0;
  done_reason_.clear();
  track_waiter_.cancel();
  rendezvous_.reset();
  rendezvous_timer_.cancel();
  state_changed_.notify_all();
}

void SubscribeServeTask::sender_done(GroupSendTask& sender) {
  IntrusiveList<GroupSendTask, SenderTag>::remove(sender);
  wake();
}

void SubscribeServeTask::fill_done(FetchServeTask& fill) {
  IntrusiveList<FetchServeTask, FillTag>::remove(fill);
  wake();
}

void SubscribeServeTask::cancel_all(uint64_t code) {
  while (GroupSendTask* snd = senders_.pop_front())
    snd->cancel(code);
  while (FetchServeTask* f = fills_.pop_front())
    f->cancel(code);
}

void SubscribeServeTask::refuse(const w::RequestError& error) {
  send_message(error);
  phase_ = Phase::Closing;
}

Poll SubscribeServeTask::step() {
  if (phase_ == Phase::Resolve) {
    Poll result = Poll::Pending;
    if (!resolve(result)) return result;
    if (phase_ == Phase::Resolve) return Poll::Pending;
  }
  // The request stream: updates from the subscriber, its FIN, or its cancel.
  if (core::Then<> p = core::read_each(
          [&] { return next_handled(*this, "SUBSCRIBE request"); },
          [&](core::on::Message) -> core::Then<> {
            if (session_.is_closed()) return Poll::Pending;
            return core::kGoOn;
          },
          [](core::on::Pending) { return core::kGoOn; },
          [](core::on::Fin) { return core::kGoOn; },  // -22: the subscriber sends nothing more
          [&](core::on::Reset) {
            cancel_all(kCancelled);
            cancel(kCancelled);
            return Poll::Done;
          },
          [&](core::on::Closed) {
            cancel_all(kCancelled);
            return Poll::Done;
          }))
    return *p;
  if (!write()) {  // the subscriber stopped our side: a cancel
    cancel_all(kCancelled);
    cancel(kCancelled);
    return Poll::Done;
  }
  if (phase_ == Phase::Active) start_senders();
  if (phase_ == Phase::Draining) {
    if (!senders_.empty() || !fills_.empty()) return Poll::Pending;  // children wake us
    const bool clean = done_status_ == uint64_t(w::PublishDoneStatus::TrackEnded) ||
                       done_status_ == uint64_t(w::PublishDoneStatus::SubscriptionEnded);
    if (w::fin_ends_subscription(session_.v())) {
      // 17.12: towards -17, the end @moq/lite understands: FIN alone (it reads nothing after
      // SUBSCRIBE_OK, and unread bytes keep it from seeing the FIN), or a reset for a failure.
      if (!clean) {
        cancel(uint64_t(w::StreamResetCode::InternalError));
        return Poll::Done;
      }
    } else {
      w::PublishDone done;
      done.status_code = done_status_;
      done.stream_count = streams_;
      done.reason = clip_reason(done_reason_);
      if (!send_message(done)) {
        cancel(kCancelled);
        return Poll::Done;
      }
    }
    phase_ = Phase::Closing;
    state_changed_.notify_all();
  }
  if (phase_ == Phase::Closing) {
    if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
    // Done once our FIN is out and the subscriber finished (or reset) its side.
    if (both_ended()) return Poll::Done;
  }
  return Poll::Pending;
}

bool SubscribeServeTask::withdrawn_while_resolving() {
  w::ControlMessage msg;
  const core::In in = next_message(msg);
  if (in == core::In::Message) {
    session_.violation(core::unexpected_message(w::control_name(msg, session_.v()),
                                                "SUBSCRIBE request before SUBSCRIBE_OK"));
  }
  if (in != core::In::Reset && in != core::In::Closed && in != core::In::Message) return false;
  cancel(kCancelled);
  return true;
}

bool SubscribeServeTask::awaiting_rendezvous(const std::optional<Path>& path) {
  const uint64_t timeout_ms = subscribe().params.rendezvous_timeout.value_or(0);
  const OriginConsumer& origin = session_.config().publish;
  if (!path || timeout_ms == 0 || !origin || origin.lookup(*path)) return false;
  const uint64_t now = executor().now_ns();
  if (!rendezvous_) {
    rendezvous_ = origin.announced(*path);
    rendezvous_until_ns_ = now + timeout_ms * 1'000'000;
    rendezvous_timer_.arm_at(rendezvous_until_ns_);
  } else if (now >= rendezvous_until_ns_) {
    return false;
  }
  AnnounceEvent ev;
  while (rendezvous_->next(ev) == Next::Ready) {
  }  // the lookup decides; an event only wakes us
  track_waiter_.wait(rendezvous_->events());
  return true;
}

bool SubscribeServeTask::resolve(Poll& result) {
  const w::Subscribe& sub = subscribe();
  const w::MessageParams& params = sub.params;
  if (!track_) {
    if (!params.range_filters.empty()) {
      session_.violation("SUBSCRIBE: range filter parameter without MAX_FILTER_RANGES");
      result = Poll::Pending;
      return false;
    }
    std::optional<Path> path = path_of(sub.track_namespace);
    if (path) path_ = *path;
    if (!w::allows_duplicate_subscriptions(session_.v()) && path) {
      // A subscription of the track that is closing no longer counts: this one takes its place.
      SubscribeServeTask*& holder = session_.serving_by_track[{path_.str(), sub.track_name}];
      if (holder && holder != this && holder->phase_ != Phase::Closing) {
        refuse(request_error(w::RequestErrorCode::DuplicateSubscription,
                             "this session already subscribes to the track"));
        return true;
      }
      holder = this;
      indexed_by_track_ = true;
    }
    TrackLookup lk = lookup_track(session_, path, sub.track_name);
    if (!lk.track) {
      if (awaiting_rendezvous(path)) {
        if (!withdrawn_while_resolving()) return true;
        result = Poll::Done;
        return false;
      }
      refuse(lk.error);
      return true;
    }
    rendezvous_.reset();
    rendezvous_timer_.cancel();
    track_ = std::move(lk.track);
  }
  switch (track_->status()) {
    case TrackStatus::Pending: {
      // Served on demand (a relay): wait until the track is described. Watch for a cancel.
      described_after_request_ = true;
      if (withdrawn_while_resolving()) {
        result = Poll::Done;
        return false;
      }
      track_waiter_.wait(track_->state_changed());
      return true;
    }
    case TrackStatus::Aborted:
      refuse(request_error(w::RequestErrorCode::DoesNotExist, track_->error().message));
      return true;
    case TrackStatus::Active:
    case TrackStatus::Finished:
      break;
  }
  // A track described only after the request came (a relay's upstream answering it) held no
  // object when the subscriber asked: the groups that reached the relay while this task waited
  // came after the request, so the live edge is the empty track's and they are all this
  // subscriber's, as they would be from the publisher itself; the edge of the moment the task
  // wakes would drop them by timing alone.
  edge_ = described_after_request_ ? TrackEdge{} : track_edge(*track_);
  SpanResult r = subscription_span(params, session_.v(), edge_);
  if (r.error == RangeError::Violation) {
    session_.violation("SUBSCRIBE: " + r.why);
    result = Poll::Pending;
    return false;
  }
  if (r.error == RangeError::InvalidRange) {
    refuse(request_error(w::RequestErrorCode::InvalidRange, r.why));
    return true;
  }
  span_ = r.span;
  // The cursor that yields the subscription's groups: from the start group, up to the end group.
  TrackPreferences prefs;
  prefs.priority = priority_;
  prefs.ordered = ascending_;
  prefs.group_start = span_.start.group;
  if (span_.end) prefs.group_end = span_.end->group;
  track_->restart(prefs);

  alias_ = w::alias_is_request_id(session_.v()) ? subscribe().request_id : session_.next_alias++;
  w::SubscribeOk ok;
  ok.track_alias = alias_;
  if (edge_.any_object) ok.params.largest_object = edge_.largest;
  ok.track_properties = track_properties(track_->info());
  if (!send_message(ok)) {
    cancel(kCancelled);
    result = Poll::Done;
    return false;
  }
  phase_ = Phase::Active;
  state_changed_.notify_all();
  if (params.fill && forward_) start_fill(sub.request_id, *params.fill);
  return true;
}

void SubscribeServeTask::start_fill(uint64_t request_id, const w::FillParameters& fill) {
  const w::LocationFilter* filter = fill.location_filter ? &*fill.location_filter
                                    : subscribe().params.location_filter
                                        ? &*subscribe().params.location_filter
                                        : nullptr;
  SpanResult r = filter ? location_filter_span(*filter, edge_) : SpanResult{};
  if (r.error == RangeError::Violation) {
    session_.violation("FILL_PARAMETERS: " + r.why);
    return;
  }
  // Nothing valid to fill: no stream (draft-ietf-moq-transport-22, fill).
  if (r.error != RangeError::None) return;
  std::optional<Span> span = cap_span(r.span, edge_, span_.start);
  if (!span) return;  // an empty range opens no stream
  FetchServeTask& f = session_.pools().fetch_serve.acquire();
  fills_.push_back(f);
  f.start_fill(*this, request_id, *span);
}

bool SubscribeServeTask::on(const w::RequestUpdate& update) {
  if (phase_ == Phase::Closing) return false;
  if (!session_.accept_peer_request_id(update.request_id, "REQUEST_UPDATE")) return true;
  const w::MessageParams& p = update.params;
  if (p.location_filter || p.subscription_filter || !p.range_filters.empty() ||
      p.new_group_request) {
    // Narrowing or moving a running subscription is not implemented: the update fails, and a
    // failed update ends the subscription (draft-ietf-moq-transport, REQUEST_UPDATE).
    send_message(request_error(w::RequestErrorCode::NotSupported,
                               "REQUEST_UPDATE of a subscription's filter is not supported"));
    cancel_all(kCancelled);
    done_status_ = uint64_t(w::PublishDoneStatus::UpdateFailed);
    done_reason_ = "filter update not supported";
    phase_ = Phase::Draining;
    return true;
  }
  if (p.subscriber_priority) priority_ = local_priority(*p.subscriber_priority);
  set_stale_bound(p);
  if (p.forward) {
    if (*p.forward && !forward_) edge_ = track_edge(*track_);  // the new joining location
    forward_ = *p.forward;
  }
  send_message(w::RequestOk{});
  if (p.fill && forward_) start_fill(update.request_id, *p.fill);
  return true;
}

void SubscribeServeTask::set_stale_bound(const w::MessageParams& p) {
  // -17 has one delivery timeout, DELIVERY_TIMEOUT (0x02), for what -18 splits (17.9).
  const std::optional<uint64_t>& bound = w::has_draft18_parameters(session_.v())
                                             ? p.subgroup_delivery_timeout
                                             : p.object_delivery_timeout;
  if (bound) stale_bound_ns_ = core::stale_bound_ns(*bound);
}

void SubscribeServeTask::start_senders() {
  GroupConsumer g;
  for (;;) {
    switch (track_->next(g)) {
      case Next::Ready: {
        if (!forward_) continue;  // Forward 0: groups pass unsent
        const uint64_t seq = g.sequence();
        const uint64_t first = seq == span_.start.group ? span_.start.object : 0;
        uint64_t end = UINT64_MAX;
        if (span_.end && seq == span_.end->group && span_.end->object != kWholeGroup)
          end = span_.end->object + 1;
        core::drop_stale_senders(senders_, seq, executor().now_ns(), stale_bound_ns_);
        GroupSendTask& snd = session_.pools().group_send.acquire();
        senders_.push_back(snd);
        snd.start(*this, std::move(g), alias_, first, end,
                  data_send_order(priority_, seq, ascending_));
        continue;
      }
      case Next::Pending:
        track_waiter_.wait(track_->groups());
        return;
      case Next::End:
        done_status_ = uint64_t(track_->status() == TrackStatus::Finished
                                    ? w::PublishDoneStatus::TrackEnded
                                    : w::PublishDoneStatus::SubscriptionEnded);
        phase_ = Phase::Draining;
        return;
      case Next::Aborted:
        done_status_ = uint64_t(w::PublishDoneStatus::InternalError);
        done_reason_ = track_->error().message;
        phase_ = Phase::Draining;
        return;
    }
  }
}

// ---- Viewer ----

void SubscribeRequestTask::start(const Path& broadcast, TrackRequest request) {
  path_ = broadcast;
  request_ = std::move(request);
  request_prefs_ = request_.preferences();
  request_id_ = session_.take_request_id();
  session_.subscribed.push_back(*this);
  wake();
}

void SubscribeRequestTask::start_pushed(SendStreamPtr send, core::StreamInput& input,
                                        const Path& broadcast, const w::Publish& publish,
                                        TrackProducer track) {
  adopt_stream(std::move(send), input);
  path_ = broadcast;
  pushed_ = true;
  producer_ = std::move(track);
  request_id_ = publish.request_id;
  alias_ = publish.track_alias;
  (void)session_.aliases.bind(publish.track_alias, *this);  // the opener checked it is free
  phase_ = Phase::Active;
  session_.peer().announce(path_);
  wake();
}

void SubscribeRequestTask::on_abandon(const Error& reason) {
  if (join_producer_) join_producer_.abort(reason);
  if (producer_) {
    producer_.abort(reason);
  } else if (request_) {
    request_.reject(reason);
  }
}

void SubscribeRequestTask::clear() {
  linger_.reset();
  while (SubgroupReceiver* r = receivers_.pop_front())
    r->cancel(kCancelled);
  if (alias_) session_.aliases.tombstone(*alias_, this);
  if (join_send_ && !join_fin_sent_) (void)join_send_->reset(kCancelled);
  if (pushed_) session_.peer().unannounce(path_);
  const Error ended{data_error::kCancelled, "subscription ended"};
  if (join_producer_) join_producer_.abort(ended);
  if (producer_) {
    producer_.abort(ended);
  } else if (request_) {
    request_.reject(ended);
  }
  RequestTask::clear();
  Link<SubTag>::unlink();
  phase_ = Phase::Open;
  path_ = Path();
  request_ = TrackRequest();
  producer_ = TrackProducer();
  alias_.reset();
  done_.reset();
  tail_.reset();
  refused_ = false;
  pushed_ = false;
  publish_ok_sent_ = false;
  streams_seen_ = 0;
  join_ = Join::None;
  join_group_ = 0;
  join_producer_ = GroupProducer();
  join_ok_ = true;
  join_failed_ = false;
  join_request_id_ = UINT64_MAX;
  join_send_.reset();
  join_in_.clear();
  join_out_.clear();
  join_answered_ = false;
  join_fin_sent_ = false;
  join_data_.clear();
  join_state_ = w::FetchStreamState{};
  join_parser_.clear();
  join_data_done_ = false;
  unused_.cancel();
  join_rd_.cancel();
  join_wr_.cancel();
  join_data_rd_.cancel();
  join_changed_.notify_all();
}

void SubscribeRequestTask::build_subscribe() {
  const w::IetfVersion v = session_.v();
  w::Subscribe& m = subscribe_;
  m.request_id = request_id_;
  assign_namespace(m.track_namespace, path_);
  m.track_name.assign(request_.name());
  w::MessageParams& p = m.params;
  p = w::MessageParams{};
  p.subscriber_priority = wire_priority(request_prefs_.priority);
  if (request_prefs_.ordered) p.group_order = w::GroupOrder::Ascending;
  // moq-transport has no "live edge only": a Max Age of 0 asks for no timeout. -17 has no
  // SUBGROUP_DELIVERY_TIMEOUT but the one DELIVERY_TIMEOUT (17.9).
  if (request_prefs_.max_age_ms > 0) {
    if (w::has_draft18_parameters(v)) {
      p.subgroup_delivery_timeout = request_prefs_.max_age_ms;
    } else {
      p.object_delivery_timeout = request_prefs_.max_age_ms;
    }
  }
  if (live()) {
    // The current group from its first object: start after the largest object and join (-18
    // joining FETCH) or fill (-22) the objects of its group up to there.
    if (w::location_filter_is_typed(v)) {
      w::LocationFilter next;
      next.type = w::LocationFilterType::NextObject;
      p.location_filter = next;
      w::LocationFilter current;
      current.type = w::LocationFilterType::RelativeStart;
      current.start_group = 1;
      w::FillParameters fill;
      fill.location_filter = current;
      p.fill = fill;
    } else {
      w::SubscriptionFilter f;
      f.type = w::SubscriptionFilterType::LargestObject;
      p.subscription_filter = f;
    }
    return;
  }
  const uint64_t start = *request_prefs_.group_start;
  const bool bounded = request_prefs_.group_end && *request_prefs_.group_end >= start;
  const uint64_t delta = bounded ? *request_prefs_.group_end - start : 0;
  if (w::location_filter_is_typed(v)) {
    w::LocationFilter f;
    f.type = bounded ? w::LocationFilterType::AbsoluteRange : w::LocationFilterType::AbsoluteStart;
    f.start_group = start;
    f.end_group_delta = delta;
    p.location_filter = f;
  } else if (w::subscribe_filter_live_only(v)) {
    w::SubscriptionFilter f;  // 17.13: what @moq/lite accepts
    f.type = w::SubscriptionFilterType::NextGroupStart;
    p.subscription_filter = f;
  } else {
    w::SubscriptionFilter f;
    f.type = bounded ? w::SubscriptionFilterType::AbsoluteRange
                     : w::SubscriptionFilterType::AbsoluteStart;
    f.start = {start, 0};
    f.end_group_delta = delta;
    p.subscription_filter = f;
  }
}

SubscribeRequestTask::Attach SubscribeRequestTask::attach(SubgroupReceiver& receiver,
                                                          uint64_t group, GroupProducer& out) {
  if (receiver.sub_ != this) {
    receiver.sub_ = this;
    receivers_.push_back(receiver);
    ++streams_seen_;
    wake();
  }
  if (phase_ != Phase::Active && phase_ != Phase::Ending) return Attach::Refuse;
  if (group == join_group_ && join_ == Join::Pending) return Attach::Wait;
  if (group == join_group_ && join_ == Join::Done) {
    if (!join_ok_) return Attach::Refuse;
    if (join_producer_) {
      out = std::move(join_producer_);
      return Attach::Write;
    }
  }
  Result<GroupProducer> g = producer_.create_group(group);
  if (!g) return Attach::Refuse;  // a second subgroup of one group, or the track ended
  out = std::move(*g);
  return Attach::Write;
}

void SubscribeRequestTask::receiver_done(SubgroupReceiver& receiver) {
  IntrusiveList<SubgroupReceiver, ReceiverTag>::remove(receiver);
  receiver.sub_ = nullptr;
  wake();
}

Poll SubscribeRequestTask::fail(const Error& e) {
  if (producer_) {
    producer_.abort(e);
  } else if (request_) {
    request_.reject(e);
  }
  return cancel_subscription(kCancelled);
}

Poll SubscribeRequestTask::cancel_subscription(uint64_t code) {
  cancel(code);
  if (join_send_ && !join_fin_sent_) {
    if (join_send_->reset(code)) ++session_.stats().streams_reset;
    join_fin_sent_ = true;
  }
  if (join_in_.attached()) join_in_.stream().stop(code);
  if (join_data_.attached() && !join_data_done_) join_data_.stream().stop(code);
  while (SubgroupReceiver* r = receivers_.pop_front())
    r->cancel(code);
  if (alias_) session_.aliases.tombstone(*alias_, this);
  alias_.reset();
  return Poll::Done;
}

bool SubscribeRequestTask::on(const w::SubscribeOk& ok) {
  if (phase_ != Phase::AwaitOk) return false;
  if (has_mandatory_property(ok.track_properties)) {
    fail(Error{uint64_t(w::RequestErrorCode::UnsupportedExtension),
               "SUBSCRIBE_OK carries an unknown mandatory track property"});
    refused_ = true;
    return true;
  }
  if (!session_.aliases.bind(ok.track_alias, *this)) {
    session_.violation(
        Error{uint64_t(w::SessionError::DuplicateTrackAlias),
              "SUBSCRIBE_OK: field 'track alias': " + w::describe_value(ok.track_alias) +
                  " is bound to another subscription"});
    return true;
  }
  alias_ = ok.track_alias;
  Result<TrackProducer> p =
      request_.accept(session_.copied_track_info(track_info_of(ok.track_properties)));
  if (!p) {
    cancel_subscription(kCancelled);
    refused_ = true;
    return true;
  }
  producer_ = std::move(*p);
  if (live() && ok.params.largest_object) {
    join_group_ = ok.params.largest_object->group;
    join_ = join_failed_ ? Join::Done : Join::Pending;
    join_ok_ = !join_failed_;
  }
  phase_ = Phase::Active;
  return true;
}

bool SubscribeRequestTask::on(const w::RequestError& e) {
  if (phase_ != Phase::AwaitOk) return false;
  request_.reject(refusal("SUBSCRIBE", e, session_.v()));
  cancel_subscription(kCancelled);
  refused_ = true;
  return true;
}

bool SubscribeRequestTask::on(const w::PublishDone& d) {
  if (phase_ == Phase::AwaitOk || done_) return false;
  done_ = d;
  return true;
}

bool SubscribeRequestTask::on(const w::PublishStateNotify&) {
  // Nothing in it changes what the track holds.
  return phase_ != Phase::AwaitOk && w::has_publish_state_notify(session_.v());
}

bool SubscribeRequestTask::end_when_complete(Poll& result) {
  const bool all_in = tail_.over(done_->stream_count == w::kUnknownStreamCount ||
                                 streams_seen_ >= done_->stream_count);
  if (!all_in || !receivers_.empty() || join_ == Join::Pending) return true;
  if (producer_) {
    if (join_producer_) (void)join_producer_.finish();
    const w::IetfVersion v = session_.v();
    const uint64_t status = w::effective_publish_done_status(done_->status_code, v);
    if (status == uint64_t(w::PublishDoneStatus::TrackEnded) ||
        status == uint64_t(w::PublishDoneStatus::SubscriptionEnded)) {
      (void)producer_.finish();
    } else {
      const char* name = w::publish_done_status_name(status, v);
      producer_.abort(Error{status, std::string("PUBLISH_DONE ") + (name ? name : "?") +
                                        (done_->reason.empty() ? "" : ": " + done_->reason)});
    }
    producer_ = TrackProducer();
  }
  if (alias_) session_.aliases.tombstone(*alias_, this);
  alias_.reset();
  if (!end_send()) {
    if (send_failed_) {
      result = cancel_subscription(kCancelled);
      return false;
    }
    return true;
  }
  if (both_ended()) {
    result = Poll::Done;
    return false;
  }
  return true;
}

Poll SubscribeRequestTask::step() {
  if (phase_ == Phase::Open) {
    if (abandoned(request_.consumer_count())) return cancel_subscription(kCancelled);
    if (!send_) {
      switch (open_stream(StreamKind::Subscribe)) {
        case Opened::Yes:
          break;
        case Opened::Pending:
          unused_.wait(request_.unused());
          return Poll::Pending;
        case Opened::Failed:
          return fail(session_.session_error());
      }
      build_subscribe();
      if (!send_message(subscribe_)) return fail(session_.session_error());
    }
    phase_ = Phase::AwaitOk;
  }

  if (pushed_ && !publish_ok_sent_) {
    // PUBLISH_OK: Forward State 1 (the default), so the publisher sends at once. -17 sends it as
    // its own type, 0x1E (17.5).
    const uint64_t type = w::publish_answered_by_publish_ok(session_.v())
                              ? uint64_t(w::MessageType::PublishOkLegacy)
                              : uint64_t(w::MessageType::RequestOk);
    if (!send_message_as(w::RequestOk{}, type)) return fail(session_.session_error());
    publish_ok_sent_ = true;
  }

  // -18: the joining FETCH, pipelined (the publisher waits for the subscription). It needs a
  // stream of its own; while none is available the subscription goes on without it, and only
  // the joined group waits.
  if (live() && !w::has_fill(session_.v()) && !join_send_ && !join_answered_ && !join_failed_) {
    if (!open_join()) return fail(session_.session_error());
  }

  // Everyone who wanted the track left: cancel (draft-ietf-moq-transport, unsubscribing).
  if (phase_ == Phase::AwaitOk && abandoned(request_.consumer_count()))
    return cancel_subscription(kCancelled);
  if (phase_ == Phase::Active && abandoned(producer_.consumer_count()))
    return cancel_subscription(kCancelled);

  if (core::Then<> p = core::read_each(
          [&] { return next_handled(*this, pushed_ ? "PUBLISH request" : "SUBSCRIBE request"); },
          [&](core::on::Message) -> core::Then<> {
            if (session_.is_closed()) return Poll::Pending;
            if (refused_) return Poll::Done;
            return core::kGoOn;
          },
          [](core::on::Pending) { return core::kGoOn; },
          [&](core::on::Fin) -> core::Then<> {
            if (!done_ && phase_ == Phase::Active && w::fin_ends_subscription(session_.v())) {
              // 17.12: @moq/lite ends what it publishes with FIN alone: the track's clean end,
              // with no stream count, so once the streams already here are done (the JS closes
              // its session right after, which would abort a track still waiting for more).
              w::PublishDone end;
              end.status_code = uint64_t(w::PublishDoneStatus::TrackEnded);
              end.stream_count = w::kUnknownStreamCount;
              done_ = end;
            }
            if (!done_)
              return fail(
                  Error{data_error::kCancelled,
                        std::string(request_name()) +
                            (phase_ == Phase::AwaitOk
                                 ? ": the publisher ended the stream without a response"
                                 : ": the publisher ended the stream without PUBLISH_DONE")});
            return core::kGoOn;
          },
          [&](core::on::Reset) {
            return fail(Error{in_.code(), std::string(request_name()) +
                                              ": the publisher reset the subscription (code " +
                                              w::describe_value(in_.code()) + ")"});
          },
          [&](core::on::Closed) { return fail(session_.session_error()); }))
    return *p;
  read_join_request();
  read_join_data();
  if (session_.is_closed()) return Poll::Pending;

  if (phase_ == Phase::Active && done_) {
    phase_ = Phase::Ending;
    if (!join_send_ && !join_answered_) {  // -18: the joining FETCH never got a stream
      join_answered_ = true;
      join_data_done_ = true;
      join_finished(false);
    }
  }
  if (phase_ == Phase::Ending) {
    Poll result = Poll::Pending;
    if (!end_when_complete(result)) return result;
  }
  if (!write()) return fail(session_.session_error());
  if (phase_ == Phase::AwaitOk) unused_.wait(request_.unused());
  if (phase_ == Phase::Active && !pushed_) unused_.wait(producer_.unused());
  return Poll::Pending;
}

}  // namespace moq::session::ietf
