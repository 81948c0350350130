// The viewer's half of a subscription: TRACK, then SUBSCRIBE, SUBSCRIBE_UPDATE and the tail.
#include "model/data/errors.h"
#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/stream_io.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;
using wire::lite::LiteVersion;

namespace {
// -07: how long the subscriber waits for group streams announced by SUBSCRIBE_END's Stream
// Count (streams reset before their header never show up).
constexpr uint64_t kTailGraceNs = 1'000'000'000;

bool same_on_wire(const PreferenceSummary& a, const PreferenceSummary& b) {
  return a.priority == b.priority && a.max_age_ms == b.max_age_ms &&
         a.group_start == b.group_start && a.group_end == b.group_end;
}
}  // namespace

void SubscribeRequestTask::start(const Path& broadcast, TrackRequest request, uint64_t id) {
  broadcast_.assign(broadcast.str());
  track_.assign(request.name());
  track_request_ = std::move(request);
  id_ = id;
  wire::lite::Track msg;
  msg.broadcast = broadcast_;
  msg.track = track_;
  Result<Bytes> bytes =
      session_.encode(msg, wire::lite::stream_type_byte(wire::lite::BidiStream::Track));
  if (bytes) RequestTask::request_ = std::move(*bytes);
  encode_error_ = bytes ? std::optional<Error>() : bytes.error();
  wake();
}

void SubscribeRequestTask::clear() {
  RequestTask::clear();
  if (registered_) session_.unregister_subscription(id_);
  registered_ = false;
  state_ = State::TrackInfo;
  opened_ = false;
  track_request_ = TrackRequest();
  producer_ = TrackProducer();
  encode_error_.reset();
  sent_ = PreferenceSummary();
  ok_received_ = false;
  end_received_ = false;
  end_streams_ = 0;
  headers_seen_ = 0;
  fin_sent_ = false;
  tail_started_ = false;
  track_waiter_.cancel();
  prefs_waiter_.cancel();
  tail_timer_.cancel();
}

void SubscribeRequestTask::on_abandon(const Error& reason) {
  if (track_request_) track_request_.reject(reason);
  if (producer_ && producer_.status() == TrackStatus::Active) producer_.abort(reason);
}

std::string SubscribeRequestTask::describe() const {
  return "SUBSCRIBE to '" + broadcast_ + "' track '" + track_ + "'";
}

wire::lite::SubscribeOptions SubscribeRequestTask::options(const PreferenceSummary& p) const {
  wire::lite::SubscribeOptions o;
  o.priority = p.priority;
  o.max_age_ms = p.max_age_ms;
  o.group_start = p.group_start.value_or(0);  // 0 with Frame Start 0: live
  o.group_end = p.group_end;
  return o;
}

Result<GroupProducer> SubscribeRequestTask::open_group(uint64_t sequence) {
  ++headers_seen_;
  if (end_received_) wake();  // the -07 tail counts headers
  if (!producer_) {
    return Error{data_error::kClosed, describe() + ": group " + std::to_string(sequence) +
                                          " arrived before the track was described"};
  }
  return producer_.create_group(sequence);
}

Poll SubscribeRequestTask::step() {
  return state_ == State::TrackInfo ? track_info() : active();
}

Poll SubscribeRequestTask::track_info() {
  if (track_request_.consumer_count() == 0) {
    // Every consumer left before the track was described: nothing to subscribe to.
    if (opened_) cancel(stream_code::kCancelled);
    return Poll::Done;
  }
  if (encode_error_) {
    track_request_.reject(*encode_error_);
    return Poll::Done;
  }
  if (!opened_) {
    switch (open(StreamKind::Track, kControlSendOrder)) {
      case Opened::Yes:
        opened_ = true;
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        track_request_.reject(
            Error{stream_code::kSessionClosed, describe() + ": the connection is closed"});
        return Poll::Done;
    }
  }
  if (flush(*stream_.send, out_, write_waiter_) == Flush::Failed) {
    track_request_.reject(
        Error{stream_code::kSessionClosed, describe() + ": the TRACK stream failed"});
    return Poll::Done;
  }
  const LiteVersion v = session_.wire_version();
  wire::lite::TrackInfo info;
  const Got got = reader_.next(
      *stream_.recv, read_waiter_, wire::lite::TrackInfo::kName,
      [v](std::span<const uint8_t> in) { return wire::lite::TrackInfo::decode(in, v); }, info);
  switch (got) {
    case Got::Message:
      break;
    case Got::Pending:
      track_waiter_.wait(track_request_.unused());
      return Poll::Pending;
    case Got::Fin:
      track_request_.reject(Error{wire::lite::session_code::kProtocolViolation,
                                  describe() + ": TRACK finished without TRACK_INFO"});
      session_.violation("TRACK_INFO: the publisher finished the Track stream without it");
      return Poll::Pending;
    case Got::Reset:
      ++session_.stats().resets_received;
      track_request_.reject(Error{reader_.code(), describe() + ": TRACK refused by the peer with " +
                                                      describe_code(reader_.code(), v)});
      finish_send();
      return Poll::Done;
    case Got::Failed:
      track_request_.reject(Error{reader_.code(), describe() + ": the connection closed"});
      return Poll::Done;
    case Got::Malformed:
      track_request_.reject(Error{wire::lite::session_code::kProtocolViolation, reader_.error()});
      session_.violation(std::move(reader_.error()));
      return Poll::Pending;
  }
  ++session_.stats().messages_decoded;
  if (Status st = info.check(); !st) {
    // A timescale of 0: the spec resets the stream as a protocol violation.
    ++session_.stats().protocol_errors;
    cancel(stream_code::kInternalError);
    track_request_.reject(Error{st.error().code, describe() + ": " + st.error().message});
    return Poll::Done;
  }
  TrackInfo local;
  local.priority = info.priority;
  local.timescale = info.timescale;
  local.cache.max_age_ns = info.max_age_ms && *info.max_age_ms < UINT64_MAX / 1'000'000
                               ? *info.max_age_ms * 1'000'000
                               : UINT64_MAX;
  Result<TrackProducer> producer = track_request_.accept(local);
  finish_send();  // paired close of the Track stream: the publisher FINs after TRACK_INFO
  stream_.send.reset();
  stream_.recv.reset();
  reader_.clear();
  if (!producer) return Poll::Done;  // the request was withdrawn meanwhile
  producer_ = std::move(*producer);
  // Now the subscription itself.
  sent_ = producer_.preferences();
  wire::lite::Subscribe sub;
  sub.id = id_;
  sub.broadcast = broadcast_;
  sub.track = track_;
  sub.options = options(sent_);
  Result<Bytes> bytes =
      session_.encode(sub, wire::lite::stream_type_byte(wire::lite::BidiStream::Subscribe));
  if (!bytes) {
    producer_.abort(bytes.error());
    return Poll::Done;
  }
  RequestTask::request_ = std::move(*bytes);
  session_.register_subscription(id_, *this);
  registered_ = true;
  opened_ = false;
  state_ = State::Active;
  return active();
}

void SubscribeRequestTask::unsubscribe() {
  cancel(stream_code::kCancelled);
  producer_.abort(Error{data_error::kCancelled, describe() + " cancelled: no consumers left"});
}

Poll SubscribeRequestTask::active() {
  const LiteVersion v = session_.wire_version();
  if (!opened_) {
    if (producer_.consumer_count() == 0) {
      producer_.abort(Error{data_error::kCancelled, describe() + " cancelled: no consumers left"});
      return Poll::Done;
    }
    switch (open(StreamKind::Subscribe, kControlSendOrder)) {
      case Opened::Yes:
        opened_ = true;
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        producer_.abort(
            Error{stream_code::kSessionClosed, describe() + ": the connection is closed"});
        return Poll::Done;
    }
  }
  if (!end_received_) {
    if (producer_.consumer_count() == 0) {
      unsubscribe();
      return Poll::Done;
    }
    const PreferenceSummary now = producer_.preferences();
    if (!same_on_wire(now, sent_)) {
      wire::lite::SubscribeUpdate update;
      update.options = options(now);
      if (Result<Bytes> b = session_.encode(update)) out_.push(std::move(*b));
      sent_ = now;
    }
  }
  if (flush(*stream_.send, out_, write_waiter_) == Flush::Failed) {
    if (!end_received_)
      producer_.abort(Error{stream_code::kSessionClosed, describe() + ": the stream failed"});
    return Poll::Done;
  }
  for (;;) {
    wire::lite::SubscribeReply reply;
    const Got got = reader_.next(
        *stream_.recv, read_waiter_, "SUBSCRIBE reply",
        [v](std::span<const uint8_t> in) { return wire::lite::decode_subscribe_reply(in, v); },
        reply);
    if (got == Got::Pending) break;
    switch (got) {
      case Got::Message:
        ++session_.stats().messages_decoded;
        if (auto* ok = std::get_if<wire::lite::SubscribeOk>(&reply)) {
          (void)ok;
          ok_received_ = true;
        } else if (auto* end = std::get_if<wire::lite::SubscribeEnd>(&reply)) {
          if (end_received_) {
            session_.violation("SUBSCRIBE_END: received twice for " + describe());
            return Poll::Pending;
          }
          end_received_ = true;
          end_streams_ = end->stream_count;
          if (producer_.status() == TrackStatus::Active) {
            if (Status st = producer_.finish_at(end->group); !st) {
              session_.violation("SUBSCRIBE_END: field 'Group': " + st.error().message);
              return Poll::Pending;
            }
          }
        }
        continue;  // SUBSCRIBE_DROP (-06): those groups will not come; nothing to do
      case Got::Fin:
        if (!end_received_) {
          session_.violation("SUBSCRIBE_END: the publisher finished the Subscribe stream of " +
                             describe() + " without it");
          return Poll::Pending;
        }
        if (!fin_sent_) finish_send();  // paired close
        return Poll::Done;
      case Got::Reset:
        ++session_.stats().resets_received;
        if (!end_received_) {
          producer_.abort(Error{reader_.code(), describe() + " was reset by the peer with " +
                                                    describe_code(reader_.code(), v)});
        }
        if (!fin_sent_) finish_send();
        return Poll::Done;
      case Got::Failed:
        if (!end_received_) {
          producer_.abort(Error{reader_.code(), describe() + " failed: the connection closed"});
        }
        return Poll::Done;
      case Got::Malformed:
        session_.violation(std::move(reader_.error()));
        return Poll::Pending;
      case Got::Pending:
        break;
    }
  }
  if (end_received_ && !fin_sent_ && wire::lite::subscribe_end_has_stream_count(v)) {
    // -07 tail: FIN once every announced group stream showed its header (or after a grace
    // period for streams reset before their header).
    if (headers_seen_ >= end_streams_ || (tail_started_ && !tail_timer_.armed())) {
      finish_send();
      fin_sent_ = true;
    } else if (!tail_started_) {
      tail_started_ = true;
      tail_timer_.arm_after(kTailGraceNs);
    }
  }
  if (!end_received_) {
    track_waiter_.wait(producer_.unused());
    prefs_waiter_.wait(producer_.preferences_changed());
  }
  return Poll::Pending;
}

}  // namespace moq::session::lite
