#include "model/session/ietf/fetch.h"

#include <algorithm>
#include <string>
#include <utility>

#include "model/data/errors.h"
#include "model/session/core/dispatch.h"
#include "model/session/ietf/errors.h"
#include "model/session/ietf/names.h"
#include "model/session/ietf/subscribe.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::session::ietf {

namespace {
constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);
constexpr uint64_t kInternal = uint64_t(w::StreamResetCode::InternalError);
// A fetch looks at most this many consecutive group sequences, ending at its end.
constexpr uint64_t kMaxFetchGroups = 4096;

uint8_t subscriber_priority(const std::optional<uint8_t>& wire) {
  return local_priority(wire.value_or(kDefaultWirePriority));
}
}  // namespace

void deliver_fetch_stream(IetfSession& s, uint64_t request_id, core::StreamInput& input) {
  if (s.route_fetch_stream(request_id, input)) return;
  if (!s.issued_by_us(request_id)) {
    s.violation("FETCH_HEADER: field 'request id': " + w::describe_value(request_id) +
                " names no request of this endpoint");
    return;
  }
  input.stream().stop(kCancelled);  // a fetch that ended or was cancelled
}

// ---- Publisher ----

void FetchServeTask::start(SendStreamPtr send, core::StreamInput& input,
                           w::ControlMessage& request) {
  adopt_stream(std::move(send), input);
  std::swap(request_, request);
  request_id_ = fetch().request_id;
  subscriber_priority_ = subscriber_priority(fetch().params.subscriber_priority);
  wake();
}

void FetchServeTask::start_fill(SubscribeServeTask& owner, uint64_t request_id, const Span& span) {
  fill_ = true;
  owner_ = &owner;
  request_id_ = request_id;
  subscriber_priority_ = owner.track().preferences().priority;
  publisher_priority_ = wire_priority(owner.track().info().priority);
  plan(owner.track(), span);
  phase_ = Phase::Data;
  wake();
}

void FetchServeTask::clear() {
  if (SubscribeServeTask* owner = std::exchange(owner_, nullptr)) owner->fill_done(*this);
  Link<FillTag>::unlink();
  RequestTask::clear();
  phase_ = Phase::Resolve;
  fill_ = false;
  request_id_ = 0;
  track_.reset();
  span_ = Span{};
  forwarded_.clear();
  arriving_ = GroupConsumer();
  parts_.clear();
  data_.reset();
  data_out_.clear();
  data_done_ = false;
  data_wr_.cancel();
  wait_.cancel();
}

void FetchServeTask::cancel(uint64_t code) {
  owner_ = nullptr;  // the subscription is the one cancelling
  if (data_ && !data_done_ && data_->reset(code)) ++session_.stats().streams_reset;
  abandon(Error{code, "subscription cancelled"});
}

bool FetchServeTask::plan(const TrackConsumer& track, const Span& span, bool forward) {
  parts_.clear();
  arriving_ = GroupConsumer();
  size_t next_forwarded = 0;
  const w::Location start = span.start;
  const w::Location last = *span.end;
  const uint64_t first_group = last.group - start.group >= kMaxFetchGroups
                                   ? last.group - (kMaxFetchGroups - 1)
                                   : start.group;
  for (uint64_t seq = first_group;; ++seq) {
    std::optional<GroupConsumer> g = track.get_group(seq);
    if (!g && forward) g = forwarded(track, seq, next_forwarded);
    if (g) {
      const uint64_t first = seq == start.group ? start.object : 0;
      // What exists now; never beyond (draft-ietf-moq-transport, FETCH).
      uint64_t end = g->frame_count();
      if (seq == last.group && last.object != kWholeGroup) end = std::min(end, last.object + 1);
      if (first < end) parts_.push_back(FetchPart{std::move(*g), first, end});
    }
    if (seq == last.group) break;
  }
  const bool descending = !fill_ && fetch().params.group_order == w::GroupOrder::Descending;
  if (descending) parts_.reverse();
  return !parts_.empty();
}

std::optional<GroupConsumer> FetchServeTask::forwarded(const TrackConsumer& track,
                                                       uint64_t sequence, size_t& next) {
  while (next < forwarded_.size() && forwarded_[next].sequence() < sequence)
    ++next;  // cached since it was asked
  std::optional<GroupConsumer> g;
  if (next < forwarded_.size() && forwarded_[next].sequence() == sequence) {
    g = forwarded_[next];
  } else if ((g = track.request_group(sequence, subscriber_priority_))) {
    forwarded_.insert(forwarded_.begin() + static_cast<ptrdiff_t>(next), *g);
  } else {
    return g;
  }
  ++next;
  if (g->status() == GroupStatus::Open && !arriving_) arriving_ = *g;
  return g;
}

void FetchServeTask::plan_standalone() {
  const bool any = plan(*track_, span_, true);
  if (arriving_) {
    wait_.wait(arriving_.readable());
    phase_ = Phase::Forward;
    return;
  }
  if (any) {
    phase_ = Phase::Answer;
    return;
  }
  std::string why = "no cached object in the range";
  for (const GroupConsumer& g : forwarded_) {
    if (g.status() == GroupStatus::Aborted) {
      why = "no object in the range, cached or upstream (group " + std::to_string(g.sequence()) +
            ": " + g.error().message + ")";
      break;
    }
  }
  refuse(w::RequestErrorCode::DoesNotExist, std::move(why));
}

void FetchServeTask::refuse(w::RequestErrorCode code, std::string reason) {
  send_message(request_error(code, std::move(reason)));
  phase_ = Phase::Linger;
}

bool FetchServeTask::resolve_joining() {
  // -18 joining FETCH: the range comes from the subscription it joins (draft-ietf-moq-transport-18,
  // joining FETCH).
  SubscribeServeTask* sub = nullptr;
  if (auto it = session_.serving_by_id.find(fetch().joining_request_id);
      it != session_.serving_by_id.end())
    sub = it->second;
  if (!sub) {
    refuse(w::RequestErrorCode::InvalidJoiningRequestId,
           "no subscription with Request ID " + std::to_string(fetch().joining_request_id));
    return true;
  }
  if (!sub->established()) {
    wait_.wait(sub->state_changed());  // a joining FETCH may come before SUBSCRIBE_OK: wait
    return true;
  }
  const TrackEdge& edge = sub->edge_at_ok();
  if (!sub->forwarding() || !edge.any_object) {
    refuse(w::RequestErrorCode::InvalidRange, edge.any_object
                                                  ? "the joined subscription does not forward"
                                                  : "the joined track has no object");
    return true;
  }
  const w::Location jl = edge.largest;
  w::Location start{0, 0};
  if (fetch().fetch_type == w::FetchType::RelativeJoining) {
    start.group = jl.group - std::min(fetch().joining_start, jl.group);
  } else {
    start.group = fetch().joining_start;
  }
  std::optional<Span> span = cap_span(Span{start, jl}, edge, sub->start_location());
  publisher_priority_ = wire_priority(sub->track().info().priority);
  if (!span || !plan(sub->track(), *span)) {
    refuse(w::RequestErrorCode::InvalidRange, "the joining range holds no cached object");
    return true;
  }
  phase_ = Phase::Answer;
  return true;
}

bool FetchServeTask::resolve() {
  const w::Fetch& f = fetch();
  if (!f.params.range_filters.empty()) {
    session_.violation("FETCH: range filter parameter without MAX_FILTER_RANGES");
    return false;
  }
  if (w::fetch_has_fetch_type(session_.v()) && f.fetch_type != w::FetchType::Standalone)
    return resolve_joining();
  if (!track_) {
    TrackLookup lk = lookup_track(session_, f.track_namespace, f.track_name);
    if (!lk.track) {
      send_message(lk.error);
      phase_ = Phase::Linger;
      return true;
    }
    track_ = std::move(lk.track);
  }
  if (track_->status() == TrackStatus::Pending) {
    wait_.wait(track_->state_changed());
    return true;
  }
  if (track_->status() == TrackStatus::Aborted) {
    refuse(w::RequestErrorCode::DoesNotExist, track_->error().message);
    return true;
  }
  publisher_priority_ = wire_priority(track_->info().priority);
  SpanResult r = fetch_span(f, session_.v(), track_edge(*track_));
  if (r.error == RangeError::Violation) {
    session_.violation("FETCH: " + r.why);
    return false;
  }
  if (r.error == RangeError::InvalidRange) {
    refuse(w::RequestErrorCode::InvalidRange, r.why);
    return true;
  }
  span_ = r.span;
  plan_standalone();
  return true;
}

bool FetchServeTask::write_data() {
  if (!data_) {
    Result<SendStreamPtr> r = session_.conn().open_uni();
    if (!r) return false;
    if (!*r) {
      data_wr_.wait(session_.conn().can_open());
      return true;
    }
    data_ = std::move(*r);
    data_->set_send_order(data_send_order(subscriber_priority_, 0, true));
    session_.count_opened(StreamKind::Fetch);
    ByteArena& arena = session_.arena();
    BufChain& chain = data_out_.chain();
    uint8_t* p = arena.reserve(w::kMaxFetchHeaderSize);
    chain.push(arena.commit(w::encode_fetch_header(request_id_, p)));
    // Every object of the plan exists already: one gather write carries them all.
    w::FetchStreamState st;
    if (!fill_ && fetch().params.group_order) st.group_order = *fetch().params.group_order;
    w::FetchObject o;
    o.publisher_priority = publisher_priority_;
    const w::IetfVersion v = session_.v();
    uint64_t frames = 0;
    for (size_t i = 0; i < parts_.size(); ++i) {
      FetchPart& part = parts_[i];
      o.group_id = part.group.sequence();
      const size_t reached =
          push_objects(arena, chain, part.group, part.first, part.end, w::kMaxFetchObjectHeaderSize,
                       [&](size_t id, uint8_t* out) {
                         const uint64_t size = part.group.frame(id).size;
                         // After the part's first object, each is the next of the same group.
                         if (id != part.first) [[likely]]
                           return w::encode_next_fetch_object(st, size, out);
                         o.object_id = id;
                         o.payload_length = size;
                         return w::encode_fetch_object(st, o, v, out);
                       });
      frames += reached - part.first;
      if (reached < part.end) {  // the codec refused an object: a bug, not the peer's doing
        chain.clear();
        if (data_->reset(kInternal)) ++session_.stats().streams_reset;
        return false;
      }
    }
    session_.stats().frames_sent += frames;
    parts_.clear();
  }
  switch (data_out_.flush(*data_, data_wr_)) {
    case core::Flush::Done:
      break;
    case core::Flush::Pending:
      return true;
    case core::Flush::Failed:
      return false;
  }
  (void)data_->finish();
  data_done_ = true;
  return true;
}

Poll FetchServeTask::step() {
  if (!fill_) {
    // Watch the request stream: a reset cancels the fetch (draft-ietf-moq-transport, FETCH).
    w::ControlMessage msg;
    if (core::Then<> p =
            core::read_each([&] { return next_message(msg); },
                            [&](core::on::Message) {
                              session_.violation(core::unexpected_message(
                                  w::control_name(msg, session_.v()), "FETCH request"));
                              return Poll::Pending;
                            },
                            [](core::on::Pending) { return core::kGoOn; },
                            [](core::on::Fin) { return core::kGoOn; },
                            [&](core::on::Reset) {
                              // Not cancel(): it abandons the job, and a job abandoned inside its
                              // own step would retire twice (the pool then hands the task out
                              // twice).
                              if (data_ && !data_done_ && data_->reset(kCancelled))
                                ++session_.stats().streams_reset;
                              return Poll::Done;
                            }))
      return *p;
    if (!write()) return Poll::Done;
  }
  if (phase_ == Phase::Resolve) {
    if (!resolve()) return Poll::Pending;
    if (phase_ == Phase::Resolve) return Poll::Pending;
  }
  if (phase_ == Phase::Forward) {
    if (arriving_.status() == GroupStatus::Open) {
      wait_.wait(arriving_.readable());
      return Poll::Pending;
    }
    plan_standalone();
    if (phase_ == Phase::Forward) return Poll::Pending;
  }
  if (phase_ == Phase::Answer) {
    // The end is known at once: the range never reaches past what existed when processed.
    w::FetchOk ok;
    const FetchPart* last = &parts_[0];
    for (size_t i = 1; i < parts_.size(); ++i)
      if (parts_[i].group.sequence() > last->group.sequence()) last = &parts_[i];
    const w::Location end_loc{last->group.sequence(), last->end - 1};
    ok.end = w::fetch_end_to_wire(end_loc, session_.v());
    if (track_ && track_->status() == TrackStatus::Finished && track_->end_sequence() &&
        *track_->end_sequence() == last->group.sequence() + 1 &&
        last->group.status() == GroupStatus::Finished && last->end == last->group.frame_count())
      ok.end_of_track = true;
    if (!send_message(ok)) return Poll::Done;
    (void)end_send();
    phase_ = Phase::Data;
  }
  if (phase_ == Phase::Data) {
    if (!data_done_ && !write_data()) {
      data_done_ = true;
      if (fill_) return Poll::Done;
    }
    if (!data_done_) return Poll::Pending;
    if (fill_) return Poll::Done;
    phase_ = Phase::Linger;
  }
  if (phase_ == Phase::Linger) {
    if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
    // Done once our FIN is out and the requester finished (or reset) its side.
    if (both_ended()) return Poll::Done;
  }
  return Poll::Pending;
}

// ---- Viewer ----

void FetchRequestTask::start(const Path& broadcast, std::string_view track, uint64_t group,
                             const FetchOptions& options, GroupProducer out) {
  group_seq_ = group;
  group_ = std::move(out);
  request_id_ = session_.take_request_id();
  session_.fetching.push_back(*this);
  w::Fetch& f = fetch_;
  f.request_id = request_id_;
  assign_namespace(f.track_namespace, broadcast);
  f.track_name.assign(track);
  f.params = w::MessageParams{};
  if (w::fetch_has_fetch_type(session_.v())) {
    f.fetch_type = w::FetchType::Standalone;
    f.start = {group, options.frame_start};
    // -18 End is exclusive; object 0 means the whole group.
    f.end = {group, options.frame_end ? *options.frame_end + 1 : 0};
  } else {
    w::LocationFilter lf;
    lf.type = options.frame_end ? w::LocationFilterType::AbsoluteRangeEnd
                                : w::LocationFilterType::AbsoluteRange;
    lf.start_group = group;
    lf.start_object = options.frame_start;
    lf.end_group_delta = 0;
    lf.end_object = options.frame_end.value_or(0);
    f.params.location_filter = lf;
  }
  const uint8_t wire = wire_priority(options.priority);
  if (wire != kDefaultWirePriority) f.params.subscriber_priority = wire;
  wake();
}

void FetchRequestTask::on_abandon(const Error& reason) {
  if (group_ && group_.status() == GroupStatus::Open) group_.abort(reason);
}

void FetchRequestTask::clear() {
  if (group_ && group_.status() == GroupStatus::Open)
    group_.abort(Error{data_error::kCancelled, "fetch ended"});
  RequestTask::clear();
  Link<FetchTag>::unlink();
  group_ = GroupProducer();
  sent_ = false;
  ok_ = false;
  failed_ = false;
  finished_ = false;
  refused_ = false;
  data_.clear();
  state_ = w::FetchStreamState{};
  parser_.clear();
  data_done_ = false;
  data_rd_.cancel();
}

bool FetchRequestTask::take_data(core::StreamInput& input) {
  if (data_.attached() || failed_) return false;
  std::swap(data_, input);
  wake();
  return true;
}

Poll FetchRequestTask::fail(Error e) {
  if (group_.status() == GroupStatus::Open) group_.abort(std::move(e));
  if (data_.attached() && !data_done_) data_.stream().stop(kCancelled);
  data_done_ = true;
  failed_ = true;
  if (session_.is_closed()) return Poll::Done;
  cancel(kCancelled);
  return Poll::Done;
}

bool FetchRequestTask::on(const w::FetchOk& ok) {
  if (ok_ || failed_) return false;
  if (has_mandatory_property(ok.track_properties)) {
    fail(Error{uint64_t(w::RequestErrorCode::UnsupportedExtension),
               "FETCH_OK carries an unknown mandatory track property"});
    refused_ = true;
    return true;
  }
  ok_ = true;
  return true;
}

bool FetchRequestTask::on(const w::RequestError& e) {
  if (ok_ || failed_) return false;
  group_.abort(refusal("FETCH", e, session_.v()));
  if (data_.attached() && !data_done_) data_.stream().stop(kCancelled);
  data_done_ = true;
  failed_ = true;
  return true;
}

bool FetchRequestTask::read_data(Poll& result) {
  const w::IetfVersion v = session_.v();
  const uint64_t seq = group_seq_;
  GroupProducer& g = group_;
  uint64_t frames = 0;
  uint64_t outside = 0;
  const ObjectParser::Stop stop = run_fetch_objects(
      parser_, data_, state_, v, seq, outside,
      [&](auto&& payload) { append_object(g, std::forward<decltype(payload)>(payload)); }, frames);
  session_.stats().frames_received += frames;
  if (outside != 0) {
    session_.violation("fetch object: field 'group id': an object outside the fetched group " +
                       std::to_string(seq));
    result = Poll::Pending;
    return false;
  }
  switch (stop) {
    case ObjectParser::Stop::Blocked:
      data_rd_.wait(data_.readable());
      return true;
    case ObjectParser::Stop::Fin:
      if (parser_.mid_object(data_)) {
        session_.violation("fetch object: the stream ended in the middle of an object");
        result = Poll::Pending;
        return false;
      }
      data_done_ = true;
      return true;
    case ObjectParser::Stop::Reset:
      ++session_.stats().resets_received;
      result = fail(Error{data_.code(), "FETCH: the fetch stream was reset (code " +
                                            w::describe_value(data_.code()) + ")"});
      return false;
    case ObjectParser::Stop::Closed:
      result = fail(session_.session_error());
      return false;
    case ObjectParser::Stop::Malformed:
      session_.violation(std::move(parser_.error()));
      result = Poll::Pending;
      return false;
  }
  return true;
}

Poll FetchRequestTask::step() {
  if (!send_) {
    switch (open_stream(StreamKind::Fetch)) {
      case Opened::Yes:
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        return fail(session_.session_error());
    }
  }
  if (!sent_) {
    if (!send_message(fetch_)) return fail(session_.session_error());
    sent_ = true;
  }
  if (core::Then<> p = core::read_each(
          [&] { return next_handled(*this, "FETCH request"); },
          [&](core::on::Message) -> core::Then<> {
            if (session_.is_closed()) return Poll::Pending;
            if (refused_) return Poll::Done;
            return core::kGoOn;
          },
          [](core::on::Pending) { return core::kGoOn; },
          [&](core::on::Fin) -> core::Then<> {
            if (!ok_ && !failed_)
              return fail(Error{data_error::kCancelled,
                                "FETCH: the publisher ended the stream without a response"});
            return core::kGoOn;
          },
          [&](core::on::Reset) {
            return fail(Error{in_.code(), "FETCH: the publisher reset the request (code " +
                                              w::describe_value(in_.code()) + ")"});
          },
          [&](core::on::Closed) { return fail(session_.session_error()); }))
    return *p;
  if (data_.attached() && !data_done_) {
    Poll result = Poll::Pending;
    if (!read_data(result)) return result;
  }
  // Done once both FETCH_OK and the fetch stream's FIN arrived (both end the exchange).
  if (ok_ && data_done_ && !finished_ && !failed_) {
    (void)group_.finish();
    finished_ = true;
  }
  if (finished_ || failed_) {
    if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
    if (both_ended()) return Poll::Done;
  }
  return write() ? Poll::Pending : fail(session_.session_error());
}

}  // namespace moq::session::ietf
