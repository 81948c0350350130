#include "model/session/lite/subscribe.h"

#include <algorithm>
#include <optional>

#include "model/data/errors.h"
#include "model/session/core/dispatch.h"
#include "model/session/lite/group.h"
#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/stream_codes.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;
using wire::lite::LiteVersion;

namespace {
bool same_on_wire(const PreferenceSummary& a, const PreferenceSummary& b) {
  return a.priority == b.priority && a.max_age_ms == b.max_age_ms &&
         a.group_start == b.group_start && a.group_end == b.group_end;
}
}  // namespace

// ---- Publisher ----

void SubscribeServeTask::start(SendStreamPtr send, core::StreamInput& input) {
  adopt(std::move(send), input);
  wake();
}

void SubscribeServeTask::clear() {
  cancel_senders(stream_code::kCancelled);
  BidiTask::clear();
  phase_ = Phase::Request;
  track_ = TrackConsumer();
  ok_sent_ = false;
  end_known_ = false;
  end_group_ = 0;
  end_sent_ = false;
  streams_started_ = 0;
  streams_open_ = 0;
  track_waiter_.cancel();
}

void SubscribeServeTask::sender_done(GroupSendTask& sender) {
  IntrusiveList<GroupSendTask, SenderTag>::remove(sender);
  wake();
}

void SubscribeServeTask::cancel_senders(uint64_t code) {
  while (GroupSendTask* s = senders_.pop_front())
    s->cancel(code);
}

TrackPreferences SubscribeServeTask::preferences() const {
  const wire::lite::SubscribeOptions& o = req_.options;
  TrackPreferences p;
  p.priority = o.priority;
  p.max_age_ms = o.max_age_ms;
  if (!o.live()) p.group_start = o.group_start;
  p.group_end = o.group_end;
  return p;
}

Poll SubscribeServeTask::step() {
  if (phase_ == Phase::Request) return request();
  Poll result = Poll::Pending;
  if (!read_updates(result)) return result;
  if (!take_groups(result)) return result;
  if (flush() == core::Flush::Failed) {
    cancel_senders(stream_code::kCancelled);
    return Poll::Done;
  }
  // -07 counts the group streams in SUBSCRIBE_END, so it waits until every one is open.
  const LiteVersion v = session_.wire_version();
  const bool counts = wire::lite::subscribe_end_has_stream_count(v);
  if (end_known_ && !end_sent_ && (!counts || streams_open_ == streams_started_)) {
    if (Result<Bytes> end =
            session_.encode(wire::lite::SubscribeEnd{end_group_, counts ? streams_started_ : 0}))
      send(std::move(*end));
    end_sent_ = true;
    if (flush() == core::Flush::Failed) return Poll::Done;
  }
  // Our FIN: after SUBSCRIBE_END once every group stream is done; on -07 also after the
  // subscriber's FIN (its tail accounting settled).
  const bool wait_peer = wire::lite::subscribe_completes_on_subscriber_fin(v);
  if (end_sent_ && !send_ended_ && senders_.empty() && out_.idle() && (!wait_peer || peer_fin_))
    (void)finish();
  if (send_ended_ && peer_fin_) return Poll::Done;
  return Poll::Pending;
}

Poll SubscribeServeTask::request() {
  const LiteVersion v = session_.wire_version();
  if (core::Then<> p = core::on_read(
          next(wire::lite::Subscribe::kName, decoder_of<wire::lite::Subscribe>(v), req_)))
    return *p;
  if (!req_.check()) {
    // A frame-range rule broken: the spec answers with a stream reset, not a session close.
    ++session_.stats().protocol_errors;
    cancel(stream_code::kInternalError);
    return Poll::Done;
  }
  Result<TrackConsumer> track =
      session_.find_track(Path(req_.broadcast), req_.track, preferences());
  if (!track) {
    cancel(reset_code_for(track.error()));
    return Poll::Done;
  }
  track_ = std::move(*track);
  send_->set_send_order(kControlSendOrder);
  phase_ = Phase::Active;
  return step();
}

bool SubscribeServeTask::read_updates(Poll& result) {
  if (peer_fin_) return true;
  const LiteVersion v = session_.wire_version();
  wire::lite::SubscribeUpdate update;
  const core::Then<> then = core::read_each(
      [&] {
        return next(wire::lite::SubscribeUpdate::kName, decoder_of<wire::lite::SubscribeUpdate>(v),
                    update);
      },
      [&](core::on::Message) -> core::Then<> {
        if (!update.check()) {
          ++session_.stats().protocol_errors;
          cancel(stream_code::kInternalError);
          return Poll::Done;
        }
        req_.options = update.options;
        track_.update(preferences());
        return core::kGoOn;
      },
      [](core::on::Pending) { return core::kGoOn; },
      [&](core::on::Fin) -> core::Then<> {
        if (end_sent_) return core::kGoOn;
        // The subscriber closed first: paired close, no more groups.
        cancel_senders(stream_code::kCancelled);
        (void)finish();
        return Poll::Done;
      },
      [&](core::on::Reset) {
        // The routine unsubscribe (CANCELLED) or any abort: end everything.
        cancel_senders(stream_code::kCancelled);
        cancel(stream_code::kCancelled);
        return Poll::Done;
      });
  if (!then) return true;
  result = *then;
  return false;
}

bool SubscribeServeTask::take_groups(Poll& result) {
  while (!end_known_) {
    if (track_.status() == TrackStatus::Pending) {
      track_waiter_.wait(track_.state_changed());
      return true;
    }
    GroupConsumer group;
    switch (track_.next(group)) {
      case Next::Ready:
        if (!ok_sent_) {
          if (Result<Bytes> ok = session_.encode(wire::lite::SubscribeOk{group.sequence()}))
            send(std::move(*ok));
          ok_sent_ = true;
        }
        start_sender(group);
        continue;
      case Next::Pending:
        track_waiter_.wait(track_.groups());
        return true;
      case Next::End: {
        end_known_ = true;
        std::optional<uint64_t> end = track_.end_sequence();
        if (!end) {
          // The subscription's own Group End was reached.
          end = req_.options.group_end ? *req_.options.group_end + 1 : 0;
        }
        end_group_ = *end;
        return true;
      }
      case Next::Aborted:
        cancel_senders(reset_code_for(track_.error()));
        cancel(reset_code_for(track_.error()));
        result = Poll::Done;
        return false;
    }
  }
  return true;
}

void SubscribeServeTask::start_sender(const GroupConsumer& group) {
  const wire::lite::SubscribeOptions& o = req_.options;
  uint64_t frame_start = 0;
  if (!o.live() && group.sequence() == o.group_start) frame_start = o.frame_start;
  size_t end = SIZE_MAX;
  if (o.group_end && o.frame_end && group.sequence() == *o.group_end) {
    end = static_cast<size_t>(*o.frame_end) + 1;
  }
  // Max Age: an older group still waiting for credit is let go (core/stale_groups.h).
  core::drop_stale_senders(senders_, group.sequence(), executor().now_ns(),
                           core::stale_bound_ns(o.max_age_ms));
  GroupSendTask& sender = session_.pools().group_send.acquire();
  senders_.push_back(sender);
  ++streams_started_;
  sender.start(*this, group, req_.id, o.priority, frame_start, end);
}

// ---- Viewer ----

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
  if (bytes) request_ = std::move(*bytes);
  encode_error_ = bytes ? std::optional<Error>() : bytes.error();
  wake();
}

void SubscribeRequestTask::clear() {
  BidiTask::clear();
  linger_.reset();
  if (registered_) session_.unregister_subscription(id_);
  registered_ = false;
  state_ = State::TrackInfo;
  request_.reset();
  track_request_ = TrackRequest();
  producer_ = TrackProducer();
  encode_error_.reset();
  sent_ = PreferenceSummary();
  end_received_ = false;
  track_ended_ = false;
  end_group_ = 0;
  end_streams_ = 0;
  headers_seen_ = 0;
  ok_received_ = false;
  first_group_ = 0;
  in_range_ = 0;
  dropped_ = 0;
  early_.clear();
  track_waiter_.cancel();
  prefs_waiter_.cancel();
  tail_.reset();
}

void SubscribeRequestTask::on_abandon(const Error& reason) {
  if (track_request_) track_request_.reject(reason);
  if (!producer_ || producer_.status() != TrackStatus::Active) return;
  // A session that closes after the track's end keeps the groups that all arrived.
  if (end_received_) {
    stop_after_end(reason);
  } else {
    producer_.abort(reason);
  }
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
  if (end_received_) {
    wake();  // the tail counts headers
    if (sequence >= end_group_) {
      return Error{data_error::kClosed, describe() + ": group " + std::to_string(sequence) +
                                            " arrived past the end " + std::to_string(end_group_)};
    }
  }
  if (!producer_) {
    return Error{data_error::kClosed, describe() + ": group " + std::to_string(sequence) +
                                          " arrived before the track was described"};
  }
  return producer_.create_group(sequence);
}

bool SubscribeRequestTask::abandoned(uint32_t consumers) {
  return linger_.expired(consumers, session_.config().linger_ns, executor().now_ns());
}

Poll SubscribeRequestTask::step() {
  return state_ == State::TrackInfo ? track_info() : active();
}

Poll SubscribeRequestTask::track_info() {
  if (abandoned(track_request_.consumer_count())) {
    // Every consumer left before the track was described: nothing to subscribe to.
    if (send_) cancel(stream_code::kCancelled);
    return Poll::Done;
  }
  if (encode_error_) {
    track_request_.reject(*encode_error_);
    return Poll::Done;
  }
  TrackInfo info;
  Error error;
  switch (ask_track(request_, info, error)) {
    case Answer::Ready:
      break;
    case Answer::Pending:
      track_waiter_.wait(track_request_.unused());
      return Poll::Pending;
    case Answer::Closing:
      return Poll::Pending;
    case Answer::Failed:
      track_request_.reject(std::move(error));
      return Poll::Done;
  }
  Result<TrackProducer> producer = track_request_.accept(session_.copied_track_info(info));
  // The Track stream is done (ask_track FINed our half); the subscription gets its own.
  BidiTask::clear();
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
  request_ = std::move(*bytes);
  session_.register_subscription(id_, *this);
  registered_ = true;
  state_ = State::Active;
  return active();
}

bool SubscribeRequestTask::on(const wire::lite::SubscribeOk& ok) {
  if (ok_received_) return true;
  ok_received_ = true;
  first_group_ = ok.group;
  for (uint64_t sequence : early_)
    if (sequence >= first_group_) ++in_range_;
  early_.clear();
  return true;
}

bool SubscribeRequestTask::on(const wire::lite::SubscribeEnd& end) {
  if (end_received_) return false;  // only one SUBSCRIBE_END
  end_received_ = true;
  end_group_ = end.group;
  end_streams_ = end.stream_count;
  // The track itself ends once its group streams are in (tail_complete()); a group already here
  // at or past the end is the publisher's mistake now.
  if (producer_.status() == TrackStatus::Active) {
    if (std::optional<uint64_t> latest = producer_.latest_sequence();
        latest && *latest >= end.group)
      session_.violation(Error{wire::lite::session_code::kProtocolViolation,
                               "SUBSCRIBE_END: field 'Group': " + std::to_string(end.group) +
                                   " is not above group " + std::to_string(*latest) +
                                   ", which arrived"});
  }
  return true;
}

bool SubscribeRequestTask::on(const wire::lite::SubscribeDrop& drop) {
  // -06: those groups will not come, so the tail does not wait for them (counted from the first
  // group delivered, and below the end once it is known).
  if (!ok_received_ || drop.group_end < drop.group_start) return true;
  const uint64_t low = std::max(drop.group_start, first_group_);
  uint64_t high = drop.group_end;  // inclusive
  if (end_received_) {
    if (end_group_ == 0) return true;
    high = std::min(high, end_group_ - 1);
  }
  if (high >= low) dropped_ += high - low + 1;
  return true;
}

bool SubscribeRequestTask::all_arrived(LiteVersion v) const {
  if (wire::lite::subscribe_end_has_stream_count(v)) return headers_seen_ >= end_streams_;
  // Without SUBSCRIBE_OK no group was delivered: the track was over before it began.
  const uint64_t expected =
      ok_received_ && end_group_ > first_group_ ? end_group_ - first_group_ : 0;
  return in_range_ + dropped_ >= expected;
}

bool SubscribeRequestTask::tail_complete(LiteVersion v) {
  if (all_arrived(v)) return true;
  // A group stream reset before its header arrived never shows one. -07 counts the streams and
  // asks for a grace period after SUBSCRIBE_END for those. -06 names no count: its publisher FINs
  // "once every group in range has been delivered (stream completed or reset) or dropped", but
  // a stream reset before its header names no group, so after that FIN the same grace period
  // (core/tail_grace.h) waits for such streams.
  if (!wire::lite::subscribe_end_has_stream_count(v) && !peer_fin_) return false;
  return tail_.over(false);
}

void SubscribeRequestTask::end_track() {
  track_ended_ = true;
  if (producer_.status() != TrackStatus::Active) return;
  if (Status st = producer_.finish_at(end_group_); !st)
    session_.violation(Error{wire::lite::session_code::kProtocolViolation,
                             "SUBSCRIBE_END: field 'Group': " + st.error().message});
}

void SubscribeRequestTask::stop_after_end(Error why) {
  if (track_ended_) return;
  if (all_arrived(session_.wire_version())) {
    end_track();
    return;
  }
  track_ended_ = true;
  if (producer_.status() != TrackStatus::Active) return;
  why.message = describe() + " stopped before every group of the track arrived: " + why.message;
  producer_.abort(std::move(why));
}

Poll SubscribeRequestTask::active() {
  const LiteVersion v = session_.wire_version();
  if (!send_) {
    if (abandoned(producer_.consumer_count())) {
      producer_.abort(Error{data_error::kCancelled, describe() + " cancelled: no consumers left"});
      return Poll::Done;
    }
    switch (open(StreamKind::Subscribe, kControlSendOrder)) {
      case Opened::Yes:
        send(std::move(request_));
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
    if (abandoned(producer_.consumer_count())) {
      cancel(stream_code::kCancelled);
      producer_.abort(Error{data_error::kCancelled, describe() + " cancelled: no consumers left"});
      return Poll::Done;
    }
    const PreferenceSummary now = producer_.preferences();
    if (!same_on_wire(now, sent_)) {
      wire::lite::SubscribeUpdate update;
      update.options = options(now);
      if (Result<Bytes> b = session_.encode(update)) send(std::move(*b));
      sent_ = now;
    }
  }
  if (flush() == core::Flush::Failed) {
    if (!end_received_)
      producer_.abort(Error{stream_code::kSessionClosed, describe() + ": the stream failed"});
    return Poll::Done;
  }
  wire::lite::SubscribeReply reply;
  // After the publisher's FIN nothing is left to read; the tail may still wait for groups.
  if (core::Then<> p =
          peer_fin_
              ? core::Then<>()
              : core::read_each(
                    [&] {
                      return next(
                          "SUBSCRIBE reply",
                          [v](std::span<const uint8_t> in) {
                            return wire::lite::decode_subscribe_reply(in, v);
                          },
                          reply);
                    },
                    [&](core::on::Message) -> core::Then<> {
                      if (Status st = core::dispatch(*this, reply, "Subscribe",
                                                     [](const auto& m) { return message_name(m); });
                          !st) {
                        session_.violation(st.error());
                      }
                      if (session_.is_closed()) return Poll::Pending;
                      return core::kGoOn;
                    },
                    [](core::on::Pending) { return core::kGoOn; },
                    [&](core::on::Fin) -> core::Then<> {
                      if (!end_received_) {
                        session_.violation(
                            Error{wire::lite::session_code::kProtocolViolation,
                                  "SUBSCRIBE_END: the publisher finished the Subscribe stream of " +
                                      describe() + " without it"});
                        return Poll::Pending;
                      }
                      return core::kGoOn;  // the tail below decides when the track ends
                    },
                    [&](core::on::Reset) {
                      const Error why{in_.code(), describe() + " was reset by the peer with " +
                                                      describe_code(in_.code(), v)};
                      if (end_received_) {
                        stop_after_end(why);
                      } else {
                        producer_.abort(why);
                      }
                      (void)finish();
                      return Poll::Done;
                    },
                    [&](core::on::Closed) {
                      const Error why{in_.code(), describe() + " failed: the connection closed"};
                      if (end_received_) {
                        stop_after_end(why);
                      } else {
                        producer_.abort(why);
                      }
                      return Poll::Done;
                    }))
    return *p;
  if (end_received_) {
    if (!track_ended_ && tail_complete(v)) end_track();
    if (track_ended_) {
      // -07: our FIN once the tail settled (the publisher waits for it); -06: paired close.
      if (!send_ended_ && (peer_fin_ || wire::lite::subscribe_end_has_stream_count(v)))
        (void)finish();
      if (peer_fin_) return Poll::Done;
    }
  }
  if (!end_received_) {
    track_waiter_.wait(producer_.unused());
    prefs_waiter_.wait(producer_.preferences_changed());
  }
  return Poll::Pending;
}

}  // namespace moq::session::lite
