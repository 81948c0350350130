#include "model/session/ietf/publisher.h"

#include <algorithm>
#include <string>
#include <utility>

#include "model/session/ietf/names.h"

namespace moq::session::ietf_session {

namespace {

constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);
constexpr uint64_t kInternal = uint64_t(w::StreamResetCode::InternalError);
// A fetch looks at most this many consecutive group sequences, ending at its end.
constexpr uint64_t kMaxFetchGroups = 4096;
// Object headers written per arena reservation (the codec's longest header each); a run of the
// longest (fetch) headers fits one arena block.
constexpr size_t kRunObjects = 64;
static_assert(kRunObjects * w::kMaxFetchObjectHeaderSize <= 4096);

// Appends header + payload references for frames [from, to) of g to chain, encoding the headers
// of each run into one arena reservation of max_header bytes per frame. encode(i, out) writes
// frame i's header and returns its size; 0 (the codec refused it: a bug, not the peer's doing)
// stops there. Returns the index reached.
template <class Encode>
size_t push_objects(ByteArena& arena, BufChain& chain, const GroupConsumer& g, size_t from,
                    size_t to, size_t max_header, Encode&& encode) {
  uint16_t ends[kRunObjects];
  size_t i = from;
  while (i < to) {
    const size_t run = std::min(to - i, kRunObjects);
    uint8_t* const base = arena.reserve(run * max_header);
    uint8_t* p = base;
    size_t k = 0;
    for (; k < run; ++k) {
      const size_t n = encode(i + k, p);
      if (n == 0) break;
      p += n;
      ends[k] = static_cast<uint16_t>(p - base);
    }
    const Bytes headers = arena.commit(static_cast<size_t>(p - base));
    size_t at = 0;
    for (size_t j = 0; j < k; ++j) {
      chain.push(headers.slice(at, ends[j] - at));
      at = ends[j];
      g.frame(i + j).append_to(chain);
    }
    i += k;
    if (k < run) break;
  }
  return i;
}

std::string clip_reason(std::string text) {
  if (text.size() > w::kMaxReasonPhraseLength) text.resize(w::kMaxReasonPhraseLength);
  return text;
}

w::RequestError request_error(w::RequestErrorCode code, std::string reason) {
  w::RequestError e;
  e.error_code = uint64_t(code);
  e.reason = clip_reason(std::move(reason));
  return e;
}

uint8_t subscriber_priority(const std::optional<uint8_t>& wire) {
  return local_priority(wire.value_or(kDefaultWirePriority));
}

}  // namespace

TrackLookup lookup_track(IetfSession& s, const w::TrackNamespace& ns, const std::string& name,
                         const TrackPreferences& prefs) {
  TrackLookup out;
  out.error.error_code = uint64_t(w::RequestErrorCode::DoesNotExist);
  const OriginConsumer& origin = s.config().publish;
  if (!origin) {
    out.error.reason = "this endpoint publishes nothing";
    return out;
  }
  std::optional<Path> path = path_of(ns);
  if (!path) {
    out.error.reason = "no broadcast path has a namespace field holding '/'";
    return out;
  }
  std::optional<BroadcastConsumer> b = origin.lookup(*path);
  if (!b) {
    out.error.reason = clip_reason("no broadcast at '" + path->str() + "'");
    return out;
  }
  Result<TrackConsumer> t = b->subscribe(name, prefs);
  if (!t) {
    out.error.reason =
        clip_reason("track '" + name + "' of '" + path->str() + "': " + t.error().message);
    return out;
  }
  out.track = std::move(*t);
  return out;
}

// ---- SubgroupSender ----

SubgroupSender::SubgroupSender(IetfSession& s, SubscribeServer& owner, GroupConsumer group,
                               uint64_t alias, uint64_t first_frame, uint64_t end_frame,
                               int64_t send_order)
    : Task(s.executor(), "ietf subgroup sender"),
      s_(s),
      owner_(&owner),
      group_(std::move(group)),
      end_frame_(end_frame),
      send_order_(send_order) {
  header_.track_alias = alias;
  header_.group_id = group_.sequence();
  header_.subgroup_mode = w::SubgroupIdMode::Zero;
  header_.default_priority = true;  // the track's DEFAULT_PUBLISHER_PRIORITY applies
  header_.end_of_group = true;      // one subgroup per group: it holds the group's last object
  header_.first_object = first_frame == 0;
  group_.seek(first_frame);
}

SubgroupSender::~SubgroupSender() {
  if (owner_) owner_->sender_done(*this);
}

void SubgroupSender::cancel(uint64_t code) {
  owner_ = nullptr;
  if (out_ && !ended_) {
    if (out_->reset(code)) ++s_.stats().streams_reset;
  }
  ended_ = true;
  wake();
}

Poll SubgroupSender::poll() {
  if (ended_ || s_.is_closed()) return Poll::Done;
  if (!out_) {
    Result<SendStreamPtr> r = s_.conn().open_uni();
    if (!r) return Poll::Done;  // the connection closed
    if (!*r) {
      open_.wait(s_.conn().can_open());
      closing_.wait(s_.closing());
      return Poll::Pending;
    }
    out_ = std::move(*r);
    out_->set_send_order(send_order_);
    ++s_.stats().streams_opened[static_cast<size_t>(StreamKind::Group)];
    if (owner_) owner_->note_stream_opened();
  }
  if (!outbox_.idle()) {
    if (!outbox_.flush(*out_)) return Poll::Done;  // stopped by the peer, or closed
    if (!outbox_.idle()) {
      wr_.wait(out_->writable());
      return Poll::Pending;
    }
  }
  const GroupStatus status = group_.status();
  if (status == GroupStatus::Aborted) {
    if (out_->reset(kInternal)) ++s_.stats().streams_reset;
    ended_ = true;
    return Poll::Done;
  }
  BufChain& chain = s_.chain();
  ByteArena& arena = s_.arena();
  if (!header_sent_) {
    uint8_t* p = arena.reserve(w::kMaxSubgroupHeaderSize);
    chain.push(arena.commit(w::encode_subgroup_header(header_, p)));
    header_sent_ = true;
  }
  // Every frame available now goes into this one gather write.
  const size_t count = group_.frame_count();
  const size_t stop = count < end_frame_ ? count : static_cast<size_t>(end_frame_);
  size_t i = group_.index();
  if (i < stop) {
    i = push_objects(arena, chain, group_, i, stop, w::kMaxSubgroupObjectHeaderSize,
                     [&](size_t id, uint8_t* out) {
                       return w::encode_subgroup_object(state_, header_, id, {},
                                                        group_.frame(id).size,
                                                        w::ObjectStatus::Normal, out);
                     });
    s_.stats().frames_sent += i - group_.index();
    group_.seek(i);
    if (i < stop) {  // the codec refused an object: a bug, not the peer's doing
      chain.clear();
      if (out_->reset(kInternal)) ++s_.stats().streams_reset;
      ended_ = true;
      return Poll::Done;
    }
  }
  const bool complete = i >= end_frame_ || (status == GroupStatus::Finished && i >= count);
  if (!chain.empty() && !outbox_.send(*out_, chain)) return Poll::Done;
  if (!outbox_.idle()) {
    wr_.wait(out_->writable());
    return Poll::Pending;  // FIN (when complete) once the rest is written
  }
  if (complete) {
    (void)out_->finish();
    ended_ = true;
    return Poll::Done;
  }
  data_.wait(group_.readable());
  closing_.wait(s_.closing());
  return Poll::Pending;
}

// ---- SubscribeServer ----

SubscribeServer::SubscribeServer(IetfSession& s, SendStreamPtr send, StreamInput input,
                                 w::Subscribe subscribe)
    : RequestTask(s, "ietf subscribe server", StreamKind::Subscribe),
      subscribe_(std::move(subscribe)) {
  adopt_stream(std::move(send), std::move(input));
  s.serving.push_back(*this);
  priority_ = subscriber_priority(subscribe_.params.subscriber_priority);
  ascending_ = subscribe_.params.group_order == w::GroupOrder::Ascending;
  forward_ = subscribe_.params.forward.value_or(true);
}

SubscribeServer::~SubscribeServer() {
  senders_.for_each([](SubgroupSender& snd) { snd.owner_ = nullptr; });
  senders_.clear();
  fills_.for_each([](FetchServer& f) { f.cancel(kCancelled); });
  fills_.clear();
  state_changed_.notify_all();
}

void SubscribeServer::note_stream_opened() {
  ++streams_;
}

void SubscribeServer::sender_done(SubgroupSender& sender) {
  IntrusiveList<SubgroupSender, SenderTag>::remove(sender);
  sender.owner_ = nullptr;
  wake();
}

void SubscribeServer::fill_done(FetchServer& fill) {
  IntrusiveList<FetchServer, FillTag>::remove(fill);
  wake();
}

void SubscribeServer::cancel_all(uint64_t code) {
  while (SubgroupSender* snd = senders_.pop_front())
    snd->cancel(code);
  while (FetchServer* f = fills_.pop_front())
    f->cancel(code);
}

Poll SubscribeServer::end() {
  phase_ = Phase::Done;
  state_changed_.notify_all();
  return Poll::Done;
}

Poll SubscribeServer::poll() {
  if (phase_ == Phase::Resolve) {
    Poll p = resolve();
    if (phase_ == Phase::Resolve || p == Poll::Done) return p;
  }
  // The request stream: updates from the subscriber, its FIN, or its cancel.
  w::ControlMessage msg;
  for (bool more = true; more;) {
    switch (next_message(msg)) {
      case In::Message:
        if (auto* u = std::get_if<w::RequestUpdate>(&msg); u && phase_ != Phase::Closing) {
          handle_update(*u);
          if (s_.is_closed()) return end();
        } else {
          s_.violation(std::string("SUBSCRIBE request stream: unexpected ") +
                       w::control_name(msg, s_.v()));
          return end();
        }
        break;
      case In::Pending:
        more = false;
        break;
      case In::Fin:
        more = false;
        break;  // -22: the subscriber sends nothing more
      case In::Reset:
        cancel_all(kCancelled);
        cancel_stream(kCancelled);
        return end();
      case In::Closed:
        cancel_all(kCancelled);
        return end();
    }
  }
  if (send_failed_ || !flush()) {  // the subscriber stopped our side: a cancel
    cancel_all(kCancelled);
    cancel_stream(kCancelled);
    return end();
  }
  if (phase_ == Phase::Active) spawn_senders();
  if (phase_ == Phase::Draining) {
    if (!senders_.empty() || !fills_.empty()) return Poll::Pending;  // children wake us
    w::PublishDone done;
    done.status_code = done_status_;
    done.stream_count = streams_;
    done.reason = clip_reason(done_reason_);
    if (!send(done)) {
      cancel_stream(kCancelled);
      return end();
    }
    phase_ = Phase::Closing;
    state_changed_.notify_all();
  }
  if (phase_ == Phase::Closing) {
    if (!finish()) return end();
    // Done once our FIN is out and the subscriber finished (or reset) its side.
    if (fin_sent_ && peer_fin_) return end();
  }
  return Poll::Pending;
}

Poll SubscribeServer::resolve() {
  const w::MessageParams& params = subscribe_.params;
  if (!track_) {
    if (!params.range_filters.empty()) {
      s_.violation("SUBSCRIBE: range filter parameter without MAX_FILTER_RANGES");
      return end();
    }
    std::optional<Path> path = path_of(subscribe_.track_namespace);
    if (path) path_ = *path;
    if (!w::allows_duplicate_subscriptions(s_.v()) && path) {
      bool duplicate = false;
      s_.serving.for_each([&](SubscribeServer& o) {
        duplicate |= &o != this && o.phase_ != Phase::Done && o.phase_ != Phase::Closing &&
                     o.path_ == path_ && o.subscribe_.track_name == subscribe_.track_name;
      });
      if (duplicate) {
        send(request_error(w::RequestErrorCode::DuplicateSubscription,
                           "this session already subscribes to the track"));
        phase_ = Phase::Closing;
        return Poll::Pending;
      }
    }
    TrackLookup lk = lookup_track(s_, subscribe_.track_namespace, subscribe_.track_name);
    if (!lk.track) {
      send(lk.error);
      phase_ = Phase::Closing;
      return Poll::Pending;
    }
    track_ = std::move(lk.track);
  }
  switch (track_->status()) {
    case TrackStatus::Pending: {
      // Served on demand (a relay): wait until the track is described. Watch for a cancel.
      w::ControlMessage msg;
      In in = next_message(msg);
      if (in == In::Reset || in == In::Closed || in == In::Message) {
        if (in == In::Message)
          s_.violation(std::string("SUBSCRIBE request stream: unexpected ") +
                       w::control_name(msg, s_.v()) + " before SUBSCRIBE_OK");
        cancel_stream(kCancelled);
        return end();
      }
      track_wait_.wait(track_->state_changed());
      return Poll::Pending;
    }
    case TrackStatus::Aborted:
      send(request_error(w::RequestErrorCode::DoesNotExist, track_->error().message));
      phase_ = Phase::Closing;
      return Poll::Pending;
    case TrackStatus::Active:
    case TrackStatus::Finished:
      break;
  }
  edge_ = track_edge(*track_);
  SpanResult r = subscription_span(params, s_.v(), edge_);
  if (r.error == RangeError::Violation) {
    s_.violation("SUBSCRIBE: " + r.why);
    return end();
  }
  if (r.error == RangeError::InvalidRange) {
    send(request_error(w::RequestErrorCode::InvalidRange, r.why));
    phase_ = Phase::Closing;
    return Poll::Pending;
  }
  span_ = r.span;
  // The cursor that yields the subscription's groups: from the start group, up to the end group.
  TrackPreferences prefs;
  prefs.priority = priority_;
  prefs.ordered = ascending_;
  prefs.group_start = span_.start.group;
  if (span_.end) prefs.group_end = span_.end->group;
  TrackLookup lk = lookup_track(s_, subscribe_.track_namespace, subscribe_.track_name, prefs);
  if (!lk.track) {
    send(lk.error);
    phase_ = Phase::Closing;
    return Poll::Pending;
  }
  const TrackInfo info = track_->info();
  track_ = std::move(lk.track);

  alias_ = s_.next_alias++;
  w::SubscribeOk ok;
  ok.track_alias = alias_;
  if (edge_.any_object) ok.params.largest_object = edge_.largest;
  ok.track_properties = track_properties(info);
  if (!send(ok)) {
    cancel_stream(kCancelled);
    return end();
  }
  phase_ = Phase::Active;
  state_changed_.notify_all();
  if (params.fill && forward_) start_fill(subscribe_.request_id, *params.fill);
  return Poll::Pending;
}

void SubscribeServer::start_fill(uint64_t request_id, const w::FillParameters& fill) {
  const w::LocationFilter* filter = fill.location_filter ? &*fill.location_filter
                                    : subscribe_.params.location_filter
                                        ? &*subscribe_.params.location_filter
                                        : nullptr;
  SpanResult r = filter ? location_filter_span(*filter, edge_) : SpanResult{};
  if (r.error == RangeError::Violation) {
    s_.violation("FILL_PARAMETERS: " + r.why);
    return;
  }
  if (r.error != RangeError::None) return;  // nothing valid to fill: no stream (spec 5.3)
  std::optional<Span> span = cap_span(r.span, edge_, span_.start);
  if (!span) return;  // an empty range opens no stream
  FetchServer& f = s_.scope().spawn<FetchServer>(s_, *this, request_id, *span);
  fills_.push_back(f);
}

void SubscribeServer::handle_update(const w::RequestUpdate& update) {
  if (!s_.accept_peer_request_id(update.request_id, "REQUEST_UPDATE")) return;
  const w::MessageParams& p = update.params;
  if (p.location_filter || p.subscription_filter || !p.range_filters.empty() ||
      p.new_group_request) {
    // Narrowing or moving a running subscription is not implemented: the update fails, and a
    // failed update ends the subscription (spec 3.6).
    send(request_error(w::RequestErrorCode::NotSupported,
                       "REQUEST_UPDATE of a subscription's filter is not supported"));
    cancel_all(kCancelled);
    done_status_ = uint64_t(w::PublishDoneStatus::UpdateFailed);
    done_reason_ = "filter update not supported";
    phase_ = Phase::Draining;
    return;
  }
  if (p.subscriber_priority) priority_ = local_priority(*p.subscriber_priority);
  if (p.forward) {
    if (*p.forward && !forward_) edge_ = track_edge(*track_);  // the new joining location
    forward_ = *p.forward;
  }
  send(w::RequestOk{});
  if (p.fill && forward_) start_fill(update.request_id, *p.fill);
}

void SubscribeServer::spawn_senders() {
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
        SubgroupSender& snd =
            s_.scope().spawn<SubgroupSender>(s_, *this, std::move(g), alias_, first, end,
                                             data_send_order(priority_, seq, ascending_));
        senders_.push_back(snd);
        continue;
      }
      case Next::Pending:
        track_wait_.wait(track_->groups());
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

// ---- FetchServer ----

FetchServer::FetchServer(IetfSession& s, SendStreamPtr send, StreamInput input, w::Fetch fetch)
    : RequestTask(s, "ietf fetch server", StreamKind::Fetch), fetch_(std::move(fetch)) {
  adopt_stream(std::move(send), std::move(input));
  request_id_ = fetch_.request_id;
  subscriber_priority_ = subscriber_priority(fetch_.params.subscriber_priority);
}

FetchServer::FetchServer(IetfSession& s, SubscribeServer& owner, uint64_t request_id,
                         const Span& span)
    : RequestTask(s, "ietf fill sender", StreamKind::Fetch),
      fill_(true),
      owner_(&owner),
      request_id_(request_id) {
  subscriber_priority_ = owner.track().preferences().priority;
  publisher_priority_ = wire_priority(owner.track().info().priority);
  plan(owner.track(), span);
  phase_ = Phase::Data;
}

FetchServer::~FetchServer() {
  if (owner_) owner_->fill_done(*this);
}

void FetchServer::cancel(uint64_t code) {
  owner_ = nullptr;
  if (data_ && !data_done_) {
    if (data_->reset(code)) ++s_.stats().streams_reset;
  }
  data_done_ = true;
  phase_ = Phase::Done;
  wake();
}

bool FetchServer::plan(const TrackConsumer& track, const Span& span) {
  const w::Location start = span.start;
  const w::Location last = *span.end;
  const uint64_t first_group = last.group - start.group >= kMaxFetchGroups
                                   ? last.group - (kMaxFetchGroups - 1)
                                   : start.group;
  for (uint64_t seq = first_group;; ++seq) {
    if (std::optional<GroupConsumer> g = track.get_group(seq)) {
      const uint64_t first = seq == start.group ? start.object : 0;
      uint64_t end = g->frame_count();  // what exists now; never beyond (spec 5.2)
      if (seq == last.group && last.object != kWholeGroup) end = std::min(end, last.object + 1);
      if (first < end) parts_.push_back(FetchPart{std::move(*g), first, end});
    }
    if (seq == last.group) break;
  }
  const bool descending = !fill_ && fetch_.params.group_order == w::GroupOrder::Descending;
  if (descending) parts_.reverse();
  return !parts_.empty();
}

bool FetchServer::refuse(w::RequestErrorCode code, std::string reason) {
  w::RequestError e;
  e.error_code = uint64_t(code);
  e.reason = clip_reason(std::move(reason));
  send(e);
  phase_ = Phase::Linger;
  return finish();
}

Poll FetchServer::resolve() {
  const w::MessageParams& params = fetch_.params;
  if (!params.range_filters.empty()) {
    s_.violation("FETCH: range filter parameter without MAX_FILTER_RANGES");
    return Poll::Done;
  }
  if (w::fetch_has_fetch_type(s_.v()) && fetch_.fetch_type != w::FetchType::Standalone) {
    // -18 joining FETCH: the range comes from the subscription it joins (spec 5.1).
    SubscribeServer* sub = nullptr;
    s_.serving.for_each([&](SubscribeServer& o) {
      if (o.request_id() == fetch_.joining_request_id) sub = &o;
    });
    if (!sub) {
      refuse(w::RequestErrorCode::InvalidJoiningRequestId,
             "no subscription with Request ID " + std::to_string(fetch_.joining_request_id));
      return Poll::Pending;
    }
    if (!sub->established()) {
      wait_.wait(sub->state_changed());  // a joining FETCH may come before SUBSCRIBE_OK: wait
      return Poll::Pending;
    }
    const TrackEdge& edge = sub->edge_at_ok();
    if (!sub->forwarding() || !edge.any_object) {
      refuse(w::RequestErrorCode::InvalidRange, edge.any_object
                                                    ? "the joined subscription does not forward"
                                                    : "the joined track has no object");
      return Poll::Pending;
    }
    const w::Location jl = edge.largest;
    w::Location start{0, 0};
    if (fetch_.fetch_type == w::FetchType::RelativeJoining) {
      start.group = jl.group - std::min(fetch_.joining_start, jl.group);
    } else {
      start.group = fetch_.joining_start;
    }
    std::optional<Span> span = cap_span(Span{start, jl}, edge, sub->start());
    publisher_priority_ = wire_priority(sub->track().info().priority);
    if (!span || !plan(sub->track(), *span)) {
      refuse(w::RequestErrorCode::InvalidRange, "the joining range holds no cached object");
      return Poll::Pending;
    }
    phase_ = Phase::Answer;
    return Poll::Pending;
  }
  if (!track_) {
    TrackLookup lk = lookup_track(s_, fetch_.track_namespace, fetch_.track_name);
    if (!lk.track) {
      send(lk.error);
      phase_ = Phase::Linger;
      finish();
      return Poll::Pending;
    }
    track_ = std::move(lk.track);
  }
  if (track_->status() == TrackStatus::Pending) {
    wait_.wait(track_->state_changed());
    return Poll::Pending;
  }
  if (track_->status() == TrackStatus::Aborted) {
    refuse(w::RequestErrorCode::DoesNotExist, track_->error().message);
    return Poll::Pending;
  }
  publisher_priority_ = wire_priority(track_->info().priority);
  SpanResult r = fetch_span(fetch_, s_.v(), track_edge(*track_));
  if (r.error == RangeError::Violation) {
    s_.violation("FETCH: " + r.why);
    return Poll::Done;
  }
  if (r.error == RangeError::InvalidRange) {
    refuse(w::RequestErrorCode::InvalidRange, r.why);
    return Poll::Pending;
  }
  if (!plan(*track_, r.span)) {
    refuse(w::RequestErrorCode::DoesNotExist, "no cached object in the range");
    return Poll::Pending;
  }
  phase_ = Phase::Answer;
  return Poll::Pending;
}

bool FetchServer::write_data() {
  if (!data_) {
    Result<SendStreamPtr> r = s_.conn().open_uni();
    if (!r) return false;
    if (!*r) {
      open_.wait(s_.conn().can_open());
      closing_.wait(s_.closing());
      return true;
    }
    data_ = std::move(*r);
    data_->set_send_order(data_send_order(subscriber_priority_, 0, true));
    ++s_.stats().streams_opened[static_cast<size_t>(StreamKind::Fetch)];
    BufChain& chain = s_.chain();
    ByteArena& arena = s_.arena();
    uint8_t* p = arena.reserve(w::kMaxFetchHeaderSize);
    chain.push(arena.commit(w::encode_fetch_header(request_id_, p)));
    // Every object of the plan exists already: one gather write carries them all.
    w::FetchStreamState st;
    if (!fill_ && fetch_.params.group_order) st.group_order = *fetch_.params.group_order;
    w::FetchObject o;
    o.publisher_priority = publisher_priority_;
    const w::IetfVersion v = s_.v();
    uint64_t frames = 0;
    for (size_t p = 0; p < parts_.size(); ++p) {
      FetchPart& part = parts_[p];
      o.group_id = part.group.sequence();
      const size_t reached =
          push_objects(arena, chain, part.group, part.first, part.end, w::kMaxFetchObjectHeaderSize,
                       [&](size_t id, uint8_t* out) {
                         o.object_id = id;
                         o.payload_length = part.group.frame(id).size;
                         return w::encode_fetch_object(st, o, v, out);
                       });
      frames += reached - part.first;
      if (reached < part.end) {  // the codec refused an object: a bug, not the peer's doing
        chain.clear();
        if (data_->reset(kInternal)) ++s_.stats().streams_reset;
        return false;
      }
    }
    s_.stats().frames_sent += frames;
    parts_.clear();
    if (!data_out_.send(*data_, chain)) return false;
  } else if (!data_out_.flush(*data_)) {
    return false;
  }
  if (!data_out_.idle()) {
    data_wr_.wait(data_->writable());
    return true;
  }
  (void)data_->finish();
  data_done_ = true;
  return true;
}

Poll FetchServer::end() {
  phase_ = Phase::Done;
  return Poll::Done;
}

Poll FetchServer::poll() {
  if (phase_ == Phase::Done) return Poll::Done;
  if (!fill_) {
    // Watch the request stream: a reset cancels the fetch (spec 5.4).
    w::ControlMessage msg;
    for (bool more = true; more;) {
      switch (next_message(msg)) {
        case In::Message:
          s_.violation(std::string("FETCH request stream: unexpected ") +
                       w::control_name(msg, s_.v()));
          return end();
        case In::Pending:
          more = false;
          break;
        case In::Fin:
          more = false;
          break;
        case In::Reset:
          if (data_ && !data_done_ && data_->reset(kCancelled)) ++s_.stats().streams_reset;
          cancel_stream(kCancelled);
          return end();
        case In::Closed:
          return end();
      }
    }
    if (!flush()) return end();
  }
  if (phase_ == Phase::Resolve) {
    if (resolve() == Poll::Done) return end();
    if (phase_ == Phase::Resolve) return Poll::Pending;
  }
  if (phase_ == Phase::Answer) {
    // The end is known at once: the range never reaches past what existed when processed.
    w::FetchOk ok;
    const FetchPart* last = &parts_[0];
    for (size_t p = 1; p < parts_.size(); ++p)
      if (parts_[p].group.sequence() > last->group.sequence()) last = &parts_[p];
    const w::Location end_loc{last->group.sequence(), last->end - 1};
    ok.end = w::fetch_end_to_wire(end_loc, s_.v());
    if (track_ && track_->status() == TrackStatus::Finished && track_->end_sequence() &&
        *track_->end_sequence() == last->group.sequence() + 1 &&
        last->group.status() == GroupStatus::Finished && last->end == last->group.frame_count())
      ok.end_of_track = true;
    if (!send(ok) || !finish()) return end();
    phase_ = Phase::Data;
  }
  if (phase_ == Phase::Data) {
    if (!data_done_ && !write_data()) {
      data_done_ = true;
      if (fill_) return end();
    }
    if (!data_done_) return Poll::Pending;
    if (fill_) return end();
    phase_ = Phase::Linger;
  }
  if (phase_ == Phase::Linger) {
    if (!finish()) return end();
    // Done once our FIN is out and the requester finished (or reset) its side.
    if (fin_sent_ && peer_fin_) return end();
  }
  return Poll::Pending;
}

// ---- TrackStatusServer ----

TrackStatusServer::TrackStatusServer(IetfSession& s, SendStreamPtr send, StreamInput input,
                                     w::TrackStatus msg)
    : RequestTask(s, "ietf track status server", StreamKind::Track), msg_(std::move(msg)) {
  adopt_stream(std::move(send), std::move(input));
}

Poll TrackStatusServer::poll() {
  w::ControlMessage msg;
  for (bool more = true; more;) {
    switch (next_message(msg)) {
      case In::Message:
        s_.violation(std::string("TRACK_STATUS request stream: unexpected ") +
                     w::control_name(msg, s_.v()));
        return Poll::Done;
      case In::Pending:
        more = false;
        break;
      case In::Fin:
        more = false;
        break;
      case In::Reset:
        cancel_stream(kCancelled);
        return Poll::Done;
      case In::Closed:
        return Poll::Done;
    }
  }
  if (!answered_) {
    if (!track_) {
      TrackLookup lk = lookup_track(s_, msg_.track_namespace, msg_.track_name);
      if (!lk.track) {
        send(lk.error);
        answered_ = true;
      } else {
        track_ = std::move(lk.track);
      }
    }
    if (track_ && !answered_) {
      if (track_->status() == TrackStatus::Pending) {
        wait_.wait(track_->state_changed());
        return Poll::Pending;
      }
      if (track_->status() == TrackStatus::Aborted) {
        send(request_error(w::RequestErrorCode::DoesNotExist, track_->error().message));
      } else {
        w::RequestOk ok;
        const TrackEdge edge = track_edge(*track_);
        if (edge.any_object) ok.params.largest_object = edge.largest;
        ok.track_properties = track_properties(track_->info());
        send(ok);
      }
      answered_ = true;
      track_.reset();
    }
  }
  if (!finish()) return Poll::Done;
  return fin_sent_ && peer_fin_ ? Poll::Done : Poll::Pending;
}

// ---- NamespaceServer ----

NamespaceServer::NamespaceServer(IetfSession& s, SendStreamPtr send, StreamInput input,
                                 w::SubscribeNamespace msg)
    : RequestTask(s, "ietf namespace server", StreamKind::Announce), msg_(std::move(msg)) {
  adopt_stream(std::move(send), std::move(input));
}

Poll NamespaceServer::poll() {
  w::ControlMessage msg;
  for (bool more = true; more;) {
    switch (next_message(msg)) {
      case In::Message:
        s_.violation(std::string("SUBSCRIBE_NAMESPACE request stream: unexpected ") +
                     w::control_name(msg, s_.v()));
        return Poll::Done;
      case In::Pending:
        more = false;
        break;
      case In::Fin:
        more = false;
        break;  // -22: the subscriber sends nothing more
      case In::Reset:
        cancel_stream(kCancelled);
        return Poll::Done;
      case In::Closed:
        return Poll::Done;
    }
  }
  if (!started_) {
    started_ = true;
    std::optional<Path> prefix = path_of(msg_.prefix);
    if (prefix) prefix_ = *prefix;
    bool overlap = false;
    s_.namespace_servers.for_each([&](NamespaceServer& o) {
      overlap |= prefix && (o.prefix_.has_prefix(prefix_) || prefix_.has_prefix(o.prefix_));
    });
    if (overlap) {
      send(request_error(w::RequestErrorCode::PrefixOverlap,
                         "prefix '" + prefix_.str() + "' overlaps another SUBSCRIBE_NAMESPACE"));
      refused_ = true;
      if (!finish()) return Poll::Done;
      return fin_sent_ && peer_fin_ ? Poll::Done : Poll::Pending;
    }
    if (prefix) s_.namespace_servers.push_back(*this);
    send(w::RequestOk{});
    if (prefix && s_.config().publish) events_ = s_.config().publish.announced(prefix_);
  }
  if (refused_) {  // done once both sides finished
    if (!finish()) return Poll::Done;
    return fin_sent_ && peer_fin_ ? Poll::Done : Poll::Pending;
  }
  if (events_) {
    AnnounceEvent ev;
    while (events_.next(ev) == Next::Ready) {
      std::optional<Path> suffix = ev.path.strip_prefix(prefix_);
      if (!suffix) continue;
      bool sent;
      if (ev.kind == AnnounceEvent::Kind::Announce) {
        sent = send(w::Namespace{namespace_of(*suffix)});
      } else {
        sent = send(w::NamespaceDone{namespace_of(*suffix)});
      }
      if (!sent) {
        cancel_stream(kCancelled);
        return Poll::Done;
      }
    }
    ev_.wait(events_.events());
  }
  if (!flush()) return Poll::Done;
  return Poll::Pending;
}

// ---- PublishNamespaceClient ----

PublishNamespaceClient::PublishNamespaceClient(IetfSession& s, Path path)
    : RequestTask(s, "ietf publish namespace", StreamKind::Announce), path_(std::move(path)) {
  s.publishing_namespaces.push_back(*this);
}

void PublishNamespaceClient::withdraw() {
  withdrawn_ = true;
  wake();
}

Poll PublishNamespaceClient::poll() {
  if (withdrawn_) {
    cancel_stream(kCancelled);
    return Poll::Done;
  }
  if (!out_s_) {
    if (!open_stream()) return s_.is_closed() ? Poll::Done : Poll::Pending;
  }
  if (!sent_) {
    w::PublishNamespace m;
    m.request_id = s_.take_request_id();
    m.track_namespace = namespace_of(path_);
    if (!send(m)) return Poll::Done;
    sent_ = true;
  }
  w::ControlMessage msg;
  for (;;) {
    switch (next_message(msg)) {
      case In::Message:
        if (std::holds_alternative<w::RequestOk>(msg)) continue;
        if (std::holds_alternative<w::RequestError>(msg)) {
          finish();
          continue;
        }
        s_.violation(std::string("PUBLISH_NAMESPACE request stream: unexpected ") +
                     w::control_name(msg, s_.v()));
        return Poll::Done;
      case In::Pending:
        return flush() ? Poll::Pending : Poll::Done;
      case In::Fin:
      case In::Reset:
        if (!fin_sent_) cancel_stream(kCancelled);
        return Poll::Done;
      case In::Closed:
        return Poll::Done;
    }
  }
}

}  // namespace moq::session::ietf_session
