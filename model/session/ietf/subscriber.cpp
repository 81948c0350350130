#include "model/session/ietf/subscriber.h"

#include <string>
#include <utility>

#include "model/session/ietf/names.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::session::ietf_session {

namespace {

constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);

bool has_mandatory_property(const w::Properties& props) {
  for (const w::KeyValuePair& kv : props)
    if (w::is_mandatory_track_property(kv.type)) return true;
  return false;
}

// The error a consumer sees for a REQUEST_ERROR: DOES_NOT_EXIST maps to the data model's
// kNotFound; other codes keep their wire value. The text names the request and the code.
Error refusal(const char* request, const w::RequestError& e, w::IetfVersion v) {
  const uint64_t code = w::effective_request_error(e.error_code, v);
  const char* name = w::request_error_name(code, v);
  return Error{code == uint64_t(w::RequestErrorCode::DoesNotExist) ? data_error::kNotFound : code,
               std::string(request) + " refused: " + (name ? name : "?") + " (" +
                   w::describe_value(e.error_code) + ")" +
                   (e.reason.empty() ? std::string() : ": " + e.reason)};
}

}  // namespace

// ---- RemoteBroadcast ----

RemoteBroadcast::RemoteBroadcast(IetfSession& s, Path path)
    : Task(s.executor(), "ietf remote broadcast"),
      s_(s),
      path_(std::move(path)),
      producer_(BroadcastProducer::create(s.executor().clock())) {
  producer_.serve_requests();
}

RemoteBroadcast::~RemoteBroadcast() {
  producer_.close(s_.is_closed() ? s_.session_error() : Error{0, "no longer announced"});
  s_.forget_remote(path_, this);
}

void RemoteBroadcast::retire(Error reason) {
  retired_ = true;
  producer_.close(std::move(reason));
  wake();
}

Poll RemoteBroadcast::poll() {
  if (retired_ || s_.is_closed()) return Poll::Done;
  while (std::optional<TrackRequest> r = producer_.next_request()) {
    if (Status st = s_.can_request("SUBSCRIBE"); !st) {
      r->reject(st.error());
      continue;
    }
    s_.scope().spawn<SubscribeClient>(s_, path_, std::move(*r));
  }
  requests_.wait(producer_.requests());
  closing_.wait(s_.closing());
  return Poll::Pending;
}

// ---- SubscribeClient ----

SubscribeClient::SubscribeClient(IetfSession& s, Path path, TrackRequest request)
    : RequestTask(s, "ietf subscribe client", StreamKind::Subscribe),
      path_(std::move(path)),
      name_(request.name()),
      request_(std::move(request)),
      request_prefs_(request_.preferences()),
      request_id_(s.take_request_id()) {
  s.subscribed.push_back(*this);
}

SubscribeClient::~SubscribeClient() {
  while (UniReader* r = receivers_.pop_front())
    r->cancel(kCancelled);
  if (alias_) s_.aliases.tombstone(*alias_, this);
  if (join_out_s_ && !join_fin_sent_) (void)join_out_s_->reset(kCancelled);
  const Error e =
      s_.is_closed() ? s_.session_error() : Error{data_error::kCancelled, "subscription ended"};
  if (join_producer_) join_producer_.abort(e);
  if (producer_) {
    producer_.abort(e);
  } else if (request_) {
    request_.reject(e);
  }
}

w::Subscribe SubscribeClient::build_subscribe() {
  const w::IetfVersion v = s_.v();
  w::Subscribe m;
  m.request_id = request_id_;
  m.track_namespace = namespace_of(path_);
  m.track_name = name_;
  w::MessageParams& p = m.params;
  p.subscriber_priority = wire_priority(request_prefs_.priority);
  if (request_prefs_.ordered) p.group_order = w::GroupOrder::Ascending;
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
    return m;
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
  } else {
    w::SubscriptionFilter f;
    f.type = bounded ? w::SubscriptionFilterType::AbsoluteRange
                     : w::SubscriptionFilterType::AbsoluteStart;
    f.start = {start, 0};
    f.end_group_delta = delta;
    p.subscription_filter = f;
  }
  return m;
}

SubscribeClient::Attach SubscribeClient::attach(UniReader& reader, uint64_t group,
                                                GroupProducer& out) {
  if (reader.sub_ != this) {
    reader.sub_ = this;
    receivers_.push_back(reader);
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

void SubscribeClient::receiver_done(UniReader& reader) {
  IntrusiveList<UniReader, ReceiverTag>::remove(reader);
  reader.sub_ = nullptr;
  wake();
}

bool SubscribeClient::take_join_stream(uint64_t request_id, StreamInput& input) {
  const uint64_t id = w::has_fill(s_.v()) ? request_id_ : join_request_id_;
  if (request_id != id || join_data_.attached() || phase_ == Phase::Done) return false;
  join_data_ = std::move(input);
  join_state_ = w::FetchStreamState{};
  wake();
  return true;
}

void SubscribeClient::join_finished(bool ok) {
  if (!ok) join_failed_ = true;
  if (join_ != Join::Pending) return;
  join_ = Join::Done;
  join_ok_ = ok;
  if (!ok && join_producer_)
    join_producer_.abort(Error{data_error::kCancelled,
                               "the join of group " + std::to_string(join_group_) + " failed"});
  join_changed_.notify_all();
}

Poll SubscribeClient::fail(Error e) {
  if (producer_) {
    producer_.abort(e);
  } else if (request_) {
    request_.reject(e);
  }
  return cancel(kCancelled);
}

Poll SubscribeClient::cancel(uint64_t code) {
  cancel_stream(code);
  if (join_out_s_ && !join_fin_sent_) {
    if (join_out_s_->reset(code)) ++s_.stats().streams_reset;
    join_fin_sent_ = true;
  }
  if (join_in_.attached()) join_in_.stream().stop(code);
  if (join_data_.attached() && !join_data_done_) join_data_.stream().stop(code);
  while (UniReader* r = receivers_.pop_front())
    r->cancel(code);
  if (alias_) s_.aliases.tombstone(*alias_, this);
  alias_.reset();
  phase_ = Phase::Done;
  return Poll::Done;
}

bool SubscribeClient::open_join() {
  Result<BidiStream> r = s_.conn().open_bidi();
  if (!r) return false;
  if (!*r) {
    open_.wait(s_.conn().can_open());
    closing_.wait(s_.closing());
    return true;
  }
  r->send->set_send_order(kRequestSendOrder);
  join_out_s_ = std::move(r->send);
  join_in_.attach(std::move(r->recv));
  ++s_.stats().streams_opened[static_cast<size_t>(StreamKind::Fetch)];
  w::Fetch f;
  f.request_id = join_request_id_ = s_.take_request_id();
  f.fetch_type = w::FetchType::RelativeJoining;
  f.joining_request_id = request_id_;
  f.joining_start = 0;
  f.params.subscriber_priority = wire_priority(request_prefs_.priority);
  Result<Bytes> b = s_.encode(f);
  if (!b) return false;
  BufChain& chain = s_.chain();
  chain.push(std::move(*b));
  return static_cast<bool>(join_out_.send(*join_out_s_, chain));
}

void SubscribeClient::read_join_request() {
  if (!join_in_.attached()) return;
  w::ControlMessage m;
  for (;;) {
    switch (read_message(s_, join_in_, m, &join_rd_)) {
      case In::Message:
        if (std::holds_alternative<w::FetchOk>(m) && !join_answered_) {
          join_answered_ = true;
          continue;
        }
        if (std::holds_alternative<w::RequestError>(m) && !join_answered_) {
          join_answered_ = true;
          join_data_done_ = true;
          join_finished(false);  // no join data: the current group cannot be completed
          continue;
        }
        s_.violation(std::string("joining FETCH request stream: unexpected ") +
                     w::control_name(m, s_.v()));
        return;
      case In::Pending:
        break;
      case In::Fin:
        if (!join_answered_) {
          join_finished(false);
          join_data_done_ = true;
        }
        join_answered_ = true;
        if (!join_fin_sent_ && join_data_done_) {
          join_fin_sent_ = true;
          (void)join_out_s_->finish();
        }
        if (join_fin_sent_) {  // both sides done
          join_in_ = StreamInput();
          join_out_s_.reset();
        }
        return;
      case In::Reset:
        join_finished(false);
        join_data_done_ = true;
        join_in_ = StreamInput();
        join_fin_sent_ = true;
        join_out_s_.reset();
        return;
      case In::Closed:
        return;
    }
    break;
  }
  if (join_out_s_ && !join_out_.idle() && join_out_.flush(*join_out_s_) && !join_out_.idle())
    join_wr_.wait(join_out_s_->writable());
}

void SubscribeClient::read_join_data() {
  if (!join_data_.attached() || join_data_done_) return;
  if (!producer_) {  // SUBSCRIBE_OK not read yet: keep the chunks until the track exists
    const ReadStatus st = join_data_.hold(IetfSession::kMaxHeldBytes);
    if (st == ReadStatus::WouldBlock) join_data_rd_.wait(join_data_.readable());
    if (st == ReadStatus::Reset || st == ReadStatus::Error) {
      join_data_done_ = true;
      join_finished(false);
    }
    return;
  }
  const w::IetfVersion v = s_.v();
  const bool joining = join_ == Join::Pending;
  uint64_t frames = 0;
  uint64_t outside = 0;  // nonzero once an object of another group arrived
  const ObjectParser::Stop stop = join_parser_.run(
      join_data_,
      [&](std::span<const uint8_t> bytes, uint64_t& length, bool& is_frame) {
        Decoded<w::FetchObject> d = w::decode_fetch_object(bytes, join_state_, v);
        length = d.value.payload_length;
        is_frame = d.value.kind == w::FetchRecordKind::Object;  // a marker carries no frame
        // Branch-free, so that the codec's inline result stays in registers.
        outside |= (d.value.group_id ^ join_group_) & -uint64_t(d.ok() & is_frame);
        return join_parser_.outcome(std::move(d));
      },
      [&](auto&& payload) {
        if (!joining || outside != 0) return;  // not a join of ours: nothing to complete
        if (!join_producer_) {
          Result<GroupProducer> g = producer_.create_group(join_group_);
          if (!g) return;
          join_producer_ = std::move(*g);
        }
        (void)join_producer_.write_frame(0, std::forward<decltype(payload)>(payload));
      },
      frames);
  s_.stats().frames_received += frames;
  if (outside != 0) {
    s_.violation("fetch object: field 'group id': the join of group " +
                 std::to_string(join_group_) + " carried an object of another group");
    return;
  }
  switch (stop) {
    case ObjectParser::Stop::Blocked:
      join_data_rd_.wait(join_data_.readable());
      return;
    case ObjectParser::Stop::Fin:
      if (join_parser_.mid_object(join_data_)) {
        s_.violation("fetch object: the stream ended in the middle of an object");
        return;
      }
      join_data_done_ = true;
      join_finished(true);
      return;
    case ObjectParser::Stop::Reset:
    case ObjectParser::Stop::Closed:
      join_data_done_ = true;
      join_finished(false);
      return;
    case ObjectParser::Stop::Malformed:
      s_.violation(join_parser_.error());
      return;
  }
}

Poll SubscribeClient::poll() {
  if (phase_ == Phase::Done) return Poll::Done;
  if (s_.is_closed()) return fail(s_.session_error());
  if (phase_ == Phase::Open) {
    if (request_.consumer_count() == 0) return cancel(kCancelled);
    if (!out_s_) {
      if (!open_stream()) {
        if (s_.is_closed()) return fail(s_.session_error());
        unused_.wait(request_.unused());
        return Poll::Pending;
      }
      if (!send(build_subscribe())) return fail(s_.session_error());
    }
    phase_ = Phase::AwaitOk;
  }

  // -18: the joining FETCH, pipelined (the publisher waits for the subscription). It needs a
  // stream of its own; while none is available the subscription goes on without it, and only
  // the joined group waits.
  if (live() && !w::has_fill(s_.v()) && !join_out_s_ && !join_answered_ && !join_failed_) {
    if (!open_join()) return fail(s_.session_error());
  }

  // Everyone who wanted the track left: cancel (spec 3.6).
  if (phase_ == Phase::AwaitOk && request_.consumer_count() == 0) return cancel(kCancelled);
  if (phase_ == Phase::Active && producer_.consumer_count() == 0) return cancel(kCancelled);

  w::ControlMessage msg;
  for (bool more = true; more;) {
    switch (next_message(msg)) {
      case In::Message:
        if (phase_ == Phase::AwaitOk) {
          if (const w::SubscribeOk* ok = std::get_if<w::SubscribeOk>(&msg)) {
            if (has_mandatory_property(ok->track_properties))
              return fail(Error{uint64_t(w::RequestErrorCode::UnsupportedExtension),
                                "SUBSCRIBE_OK carries an unknown mandatory track property"});
            if (!s_.aliases.bind(ok->track_alias, *this)) {
              s_.violation(
                  Error{uint64_t(w::SessionError::DuplicateTrackAlias),
                        "SUBSCRIBE_OK: field 'track alias': " + w::describe_value(ok->track_alias) +
                            " is bound to another subscription"});
              return cancel(kCancelled);
            }
            alias_ = ok->track_alias;
            Result<TrackProducer> p = request_.accept(track_info_of(ok->track_properties));
            if (!p) return cancel(kCancelled);
            producer_ = std::move(*p);
            if (live() && ok->params.largest_object) {
              join_group_ = ok->params.largest_object->group;
              join_ = join_failed_ ? Join::Done : Join::Pending;
              join_ok_ = !join_failed_;
            }
            phase_ = Phase::Active;
            continue;
          }
          if (const w::RequestError* e = std::get_if<w::RequestError>(&msg)) {
            request_.reject(refusal("SUBSCRIBE", *e, s_.v()));
            return cancel(kCancelled);
          }
        } else {
          if (const w::PublishDone* d = std::get_if<w::PublishDone>(&msg); d && !done_) {
            done_ = *d;
            continue;
          }
          if (std::holds_alternative<w::PublishStateNotify>(msg) &&
              w::has_publish_state_notify(s_.v()))
            continue;  // nothing in it changes what the track holds
        }
        s_.violation(std::string("SUBSCRIBE request stream: unexpected ") +
                     w::control_name(msg, s_.v()));
        return cancel(kCancelled);
      case In::Pending:
        more = false;
        break;
      case In::Fin:
        if (!done_)
          return fail(
              Error{data_error::kCancelled,
                    phase_ == Phase::AwaitOk
                        ? "SUBSCRIBE: the publisher ended the stream without a response"
                        : "SUBSCRIBE: the publisher ended the stream without PUBLISH_DONE"});
        more = false;
        break;
      case In::Reset:
        return fail(Error{in_.code(), "SUBSCRIBE: the publisher reset the subscription (code " +
                                          w::describe_value(in_.code()) + ")"});
      case In::Closed:
        return fail(s_.session_error());
    }
  }
  read_join_request();
  read_join_data();
  if (s_.is_closed()) return fail(s_.session_error());

  if (phase_ == Phase::Active && done_) {
    phase_ = Phase::Ending;
    if (!join_out_s_ && !join_answered_) {  // -18: the joining FETCH never got a stream
      join_answered_ = true;
      join_data_done_ = true;
      join_finished(false);
    }
  }
  if (phase_ == Phase::Ending) {
    // PUBLISH_DONE: end the track once the streams it counts arrived and were read.
    const bool all_in =
        done_->stream_count == w::kUnknownStreamCount || streams_seen_ >= done_->stream_count;
    if (all_in && receivers_.empty() && join_ != Join::Pending) {
      if (producer_) {
        if (join_producer_) (void)join_producer_.finish();
        const uint64_t status = w::effective_publish_done_status(done_->status_code, s_.v());
        if (status == uint64_t(w::PublishDoneStatus::TrackEnded) ||
            status == uint64_t(w::PublishDoneStatus::SubscriptionEnded)) {
          (void)producer_.finish();
        } else {
          const char* name = w::publish_done_status_name(status, s_.v());
          producer_.abort(Error{status, std::string("PUBLISH_DONE ") + (name ? name : "?") +
                                            (done_->reason.empty() ? "" : ": " + done_->reason)});
        }
        producer_ = TrackProducer();
      }
      if (alias_) s_.aliases.tombstone(*alias_, this);
      alias_.reset();
      if (!finish()) return cancel(kCancelled);
      if (fin_sent_ && peer_fin_) {
        phase_ = Phase::Done;
        return Poll::Done;
      }
    }
  }
  if (!flush()) return fail(s_.session_error());
  if (phase_ == Phase::AwaitOk) unused_.wait(request_.unused());
  if (phase_ == Phase::Active) unused_.wait(producer_.unused());
  return Poll::Pending;
}

// ---- FetchClient ----

FetchClient::FetchClient(IetfSession& s, const Path& path, std::string track, uint64_t group,
                         const FetchOptions& options, GroupProducer out)
    : RequestTask(s, "ietf fetch client", StreamKind::Fetch),
      group_seq_(group),
      options_(options),
      group_(std::move(out)),
      request_id_(s.take_request_id()) {
  s.fetching.push_back(*this);
  w::Fetch& f = fetch_;
  f.request_id = request_id_;
  f.track_namespace = namespace_of(path);
  f.track_name = std::move(track);
  if (w::fetch_has_fetch_type(s_.v())) {
    f.fetch_type = w::FetchType::Standalone;
    f.start = {group_seq_, options_.frame_start};
    // -18 End is exclusive; object 0 means the whole group.
    f.end = {group_seq_, options_.frame_end ? *options_.frame_end + 1 : 0};
  } else {
    w::LocationFilter lf;
    lf.type = options_.frame_end ? w::LocationFilterType::AbsoluteRangeEnd
                                 : w::LocationFilterType::AbsoluteRange;
    lf.start_group = group_seq_;
    lf.start_object = options_.frame_start;
    lf.end_group_delta = 0;
    lf.end_object = options_.frame_end.value_or(0);
    f.params.location_filter = lf;
  }
  const uint8_t wire = wire_priority(options_.priority);
  if (wire != kDefaultWirePriority) f.params.subscriber_priority = wire;
}

FetchClient::~FetchClient() {
  if (group_ && group_.status() == GroupStatus::Open)
    group_.abort(s_.is_closed() ? s_.session_error()
                                : Error{data_error::kCancelled, "fetch ended"});
}

bool FetchClient::take_data(StreamInput& input) {
  if (data_.attached() || failed_) return false;
  data_ = std::move(input);
  wake();
  return true;
}

Poll FetchClient::fail(Error e) {
  if (group_.status() == GroupStatus::Open) group_.abort(std::move(e));
  if (data_.attached() && !data_done_) data_.stream().stop(kCancelled);
  data_done_ = true;
  failed_ = true;
  if (s_.is_closed()) return Poll::Done;
  cancel_stream(kCancelled);
  return Poll::Done;
}

Poll FetchClient::poll() {
  if (!out_s_) {
    if (!open_stream()) return s_.is_closed() ? fail(s_.session_error()) : Poll::Pending;
  }
  if (!sent_) {
    if (!send(fetch_)) return fail(s_.session_error());
    sent_ = true;
  }
  w::ControlMessage msg;
  for (bool more = true; more;) {
    switch (next_message(msg)) {
      case In::Message:
        if (const w::FetchOk* ok = std::get_if<w::FetchOk>(&msg); ok && !ok_ && !failed_) {
          if (has_mandatory_property(ok->track_properties))
            return fail(Error{uint64_t(w::RequestErrorCode::UnsupportedExtension),
                              "FETCH_OK carries an unknown mandatory track property"});
          ok_ = true;
          continue;
        }
        if (const w::RequestError* e = std::get_if<w::RequestError>(&msg); e && !ok_ && !failed_) {
          group_.abort(refusal("FETCH", *e, s_.v()));
          if (data_.attached() && !data_done_) data_.stream().stop(kCancelled);
          data_done_ = true;
          failed_ = true;
          continue;
        }
        s_.violation(std::string("FETCH request stream: unexpected ") +
                     w::control_name(msg, s_.v()));
        return fail(s_.session_error());
      case In::Pending:
        more = false;
        break;
      case In::Fin:
        if (!ok_ && !failed_)
          return fail(Error{data_error::kCancelled,
                            "FETCH: the publisher ended the stream without a response"});
        more = false;
        break;
      case In::Reset:
        return fail(Error{in_.code(), "FETCH: the publisher reset the request (code " +
                                          w::describe_value(in_.code()) + ")"});
      case In::Closed:
        return fail(s_.session_error());
    }
  }
  if (data_.attached() && !data_done_) {
    const w::IetfVersion v = s_.v();
    const uint64_t seq = group_seq_;
    GroupProducer& g = group_;
    w::FetchStreamState& st = state_;
    uint64_t frames = 0;
    uint64_t outside = 0;  // nonzero once an object of another group arrived
    const ObjectParser::Stop stop = parser_.run(
        data_,
        [&](std::span<const uint8_t> bytes, uint64_t& length, bool& is_frame) {
          Decoded<w::FetchObject> d = w::decode_fetch_object(bytes, st, v);
          length = d.value.payload_length;
          is_frame = d.value.kind == w::FetchRecordKind::Object;  // a marker carries no frame
          // Branch-free, so that the codec's inline result stays in registers.
          outside |= (d.value.group_id ^ seq) & -uint64_t(d.ok() & is_frame);
          return parser_.outcome(std::move(d));
        },
        [&](auto&& payload) { (void)g.write_frame(0, std::forward<decltype(payload)>(payload)); },
        frames);
    s_.stats().frames_received += frames;
    if (outside != 0) {
      s_.violation("fetch object: field 'group id': an object outside the fetched group " +
                   std::to_string(seq));
      return fail(s_.session_error());
    }
    switch (stop) {
      case ObjectParser::Stop::Blocked:
        data_rd_.wait(data_.readable());
        break;
      case ObjectParser::Stop::Fin:
        if (parser_.mid_object(data_)) {
          s_.violation("fetch object: the stream ended in the middle of an object");
          return fail(s_.session_error());
        }
        data_done_ = true;
        break;
      case ObjectParser::Stop::Reset:
        ++s_.stats().resets_received;
        return fail(Error{data_.code(), "FETCH: the fetch stream was reset (code " +
                                            w::describe_value(data_.code()) + ")"});
      case ObjectParser::Stop::Closed:
        return fail(s_.session_error());
      case ObjectParser::Stop::Malformed:
        s_.violation(parser_.error());
        return fail(s_.session_error());
    }
  }
  // Done once both FETCH_OK and the fetch stream's FIN arrived (spec 9b).
  if (ok_ && data_done_ && !finished_ && !failed_) {
    (void)group_.finish();
    finished_ = true;
  }
  if (finished_ || failed_) {
    if (!finish()) return Poll::Done;
    if (fin_sent_ && peer_fin_) return Poll::Done;
  }
  if (!flush()) return fail(s_.session_error());
  return Poll::Pending;
}

// ---- TrackStatusClient ----

TrackStatusClient::TrackStatusClient(IetfSession& s, const Path& path, std::string track,
                                     ReplyProducer<TrackInfo> reply)
    : RequestTask(s, "ietf track status client", StreamKind::Track),
      ns_(namespace_of(path)),
      track_(std::move(track)),
      reply_(std::move(reply)) {}

TrackStatusClient::~TrackStatusClient() {
  reply_.fail(s_.is_closed() ? s_.session_error()
                             : Error{data_error::kCancelled, "TRACK_STATUS ended unanswered"});
}

Poll TrackStatusClient::poll() {
  if (!out_s_) {
    if (!open_stream()) return s_.is_closed() ? Poll::Done : Poll::Pending;
  }
  if (!sent_) {
    w::TrackStatus m;
    m.request_id = s_.take_request_id();
    m.track_namespace = ns_;
    m.track_name = track_;
    if (!send(m)) return Poll::Done;
    sent_ = true;
  }
  w::ControlMessage msg;
  for (bool more = true; more;) {
    switch (next_message(msg)) {
      case In::Message:
        if (const w::RequestOk* ok = std::get_if<w::RequestOk>(&msg); ok && !reply_.done()) {
          reply_.resolve(track_info_of(ok->track_properties));
          continue;
        }
        if (const w::RequestError* e = std::get_if<w::RequestError>(&msg); e && !reply_.done()) {
          reply_.fail(refusal("TRACK_STATUS", *e, s_.v()));
          continue;
        }
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
      case In::Closed:
        return Poll::Done;
    }
  }
  if (reply_.done() || peer_fin_) {
    if (!finish()) return Poll::Done;
    if (fin_sent_ && peer_fin_) return Poll::Done;
  }
  return flush() ? Poll::Pending : Poll::Done;
}

// ---- NamespaceClient ----

NamespaceClient::NamespaceClient(IetfSession& s, Path prefix)
    : RequestTask(s, "ietf namespace client", StreamKind::Announce), prefix_(std::move(prefix)) {
  s.namespace_clients.push_back(*this);
}

NamespaceClient::~NamespaceClient() {
  for (const Path& p : announced_)
    s_.remote_unannounce(p);
}

void NamespaceClient::withdraw() {
  withdrawn_ = true;
  IntrusiveList<NamespaceClient, NsClientTag>::remove(*this);
  wake();
}

Poll NamespaceClient::poll() {
  if (withdrawn_) {
    cancel_stream(kCancelled);
    return Poll::Done;
  }
  if (!out_s_) {
    if (!open_stream()) return s_.is_closed() ? Poll::Done : Poll::Pending;
  }
  if (!sent_) {
    w::SubscribeNamespace m;
    m.request_id = s_.take_request_id();
    m.prefix = namespace_of(prefix_);
    if (!send(m)) return Poll::Done;
    sent_ = true;
  }
  w::ControlMessage msg;
  for (bool more = true; more;) {
    switch (next_message(msg)) {
      case In::Message:
        if (std::holds_alternative<w::RequestOk>(msg)) continue;
        if (std::holds_alternative<w::RequestError>(msg)) {
          IntrusiveList<NamespaceClient, NsClientTag>::remove(*this);
          continue;  // refused (e.g. PREFIX_OVERLAP): the publisher FINs next
        }
        if (const w::Namespace* n = std::get_if<w::Namespace>(&msg)) {
          if (std::optional<Path> suffix = path_of(n->suffix)) {
            Path path = prefix_.join(*suffix);
            if (announced_.insert(path).second) s_.remote_announce(path);
          }
          continue;
        }
        if (const w::NamespaceDone* n = std::get_if<w::NamespaceDone>(&msg)) {
          std::optional<Path> suffix = path_of(n->suffix);
          if (suffix && announced_.erase(prefix_.join(*suffix))) {
            s_.remote_unannounce(prefix_.join(*suffix));
            continue;
          }
          if (suffix) {
            s_.violation("NAMESPACE_DONE: field 'track namespace suffix': '" + suffix->str() +
                         "' was not announced");
            return Poll::Done;
          }
          continue;
        }
        s_.violation(std::string("SUBSCRIBE_NAMESPACE request stream: unexpected ") +
                     w::control_name(msg, s_.v()));
        return Poll::Done;
      case In::Pending:
        more = false;
        break;
      case In::Fin: {
        // The publisher's side ended: NAMESPACE_DONE for everything (spec 3.6).
        for (const Path& p : announced_)
          s_.remote_unannounce(p);
        announced_.clear();
        IntrusiveList<NamespaceClient, NsClientTag>::remove(*this);
        if (!finish()) return Poll::Done;
        return fin_sent_ ? Poll::Done : Poll::Pending;
      }
      case In::Reset:
        cancel_stream(kCancelled);
        return Poll::Done;
      case In::Closed:
        return Poll::Done;
    }
  }
  return flush() ? Poll::Pending : Poll::Done;
}

// ---- PublishNamespaceServer ----

PublishNamespaceServer::PublishNamespaceServer(IetfSession& s, SendStreamPtr send,
                                               StreamInput input, Path path)
    : RequestTask(s, "ietf publish namespace server", StreamKind::Announce),
      path_(std::move(path)) {
  adopt_stream(std::move(send), std::move(input));
}

PublishNamespaceServer::~PublishNamespaceServer() {
  if (answered_) s_.remote_unannounce(path_);
}

Poll PublishNamespaceServer::poll() {
  if (!answered_) {
    if (!send(w::RequestOk{})) return Poll::Done;
    answered_ = true;
    s_.remote_announce(path_);
  }
  w::ControlMessage msg;
  for (;;) {
    switch (next_message(msg)) {
      case In::Message:
        if (const w::RequestUpdate* u = std::get_if<w::RequestUpdate>(&msg)) {
          if (!s_.accept_peer_request_id(u->request_id, "REQUEST_UPDATE")) return Poll::Done;
          if (!send(w::RequestOk{})) return Poll::Done;
          continue;
        }
        s_.violation(std::string("PUBLISH_NAMESPACE request stream: unexpected ") +
                     w::control_name(msg, s_.v()));
        return Poll::Done;
      case In::Pending:
        return flush() ? Poll::Pending : Poll::Done;
      case In::Fin:  // withdrawn
        if (!finish()) return Poll::Done;
        return fin_sent_ ? Poll::Done : Poll::Pending;
      case In::Reset:
        cancel_stream(kCancelled);
        return Poll::Done;
      case In::Closed:
        return Poll::Done;
    }
  }
}

// ---- RefuseTask ----

RefuseTask::RefuseTask(IetfSession& s, SendStreamPtr send, StreamInput input, StreamKind kind,
                       w::RequestError error)
    : RequestTask(s, "ietf request refusal", kind), error_(std::move(error)) {
  adopt_stream(std::move(send), std::move(input));
}

Poll RefuseTask::poll() {
  if (!sent_) {
    sent_ = true;
    if (!send(error_)) return Poll::Done;
  }
  if (!finish()) return Poll::Done;
  // Done once our FIN is out and the requester's side ended (FIN, reset, or stopped by us: a
  // refused PUBLISH is stopped at once).
  bool peer_done = false;
  w::ControlMessage msg;
  for (bool more = true; more;) {
    switch (next_message(msg)) {
      case In::Message:
        continue;  // the request is refused: what follows does not matter
      case In::Pending:
        more = false;
        break;
      case In::Fin:
      case In::Reset:
      case In::Closed:
        peer_done = true;
        more = false;
        break;
    }
  }
  if (s_.is_closed()) return Poll::Done;
  return fin_sent_ && peer_done ? Poll::Done : Poll::Pending;
}

// ---- RequestOpener ----

RequestOpener::RequestOpener(IetfSession& s, SendStreamPtr send, StreamInput input)
    : Task(s.executor(), "ietf request opener"),
      s_(s),
      send_(std::move(send)),
      in_(std::move(input)) {}

Poll RequestOpener::poll() {
  w::ControlMessage msg;
  switch (read_message(s_, in_, msg, &rd_)) {
    case In::Message:
      s_.dispatch_request(std::move(send_), std::move(in_), std::move(msg));
      return Poll::Done;
    case In::Pending:
      return Poll::Pending;
    case In::Fin:
    case In::Reset:
    case In::Closed:
      return Poll::Done;  // abandoned before its first message
  }
  return Poll::Done;
}

}  // namespace moq::session::ietf_session
