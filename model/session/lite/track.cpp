#include "model/session/lite/track.h"

#include "model/session/lite/lite_session.h"
#include "model/session/lite/stream_codes.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

TrackInfo track_info_of(const wire::lite::TrackInfo& info) {
  TrackInfo local;
  local.priority = info.priority;
  local.timescale = info.timescale;
  local.cache.max_age_ns = info.max_age_ms && *info.max_age_ms < UINT64_MAX / 1'000'000
                               ? *info.max_age_ms * 1'000'000
                               : UINT64_MAX;
  return local;
}

wire::lite::TrackInfo track_info_message(const TrackInfo& info) {
  wire::lite::TrackInfo msg;
  msg.priority = info.priority;
  if (info.cache.max_age_ns != UINT64_MAX) msg.max_age_ms = info.cache.max_age_ns / 1'000'000;
  msg.timescale = info.timescale;
  return msg;
}

// ---- Publisher ----

void TrackServeTask::start(SendStreamPtr send, core::StreamInput& input) {
  adopt(std::move(send), input);
  wake();
}

void TrackServeTask::clear() {
  BidiTask::clear();
  state_ = State::Request;
  track_ = TrackConsumer();
  track_waiter_.cancel();
}

Poll TrackServeTask::step() {
  switch (state_) {
    case State::Request: {
      const wire::lite::LiteVersion v = session_.wire_version();
      wire::lite::Track req;
      if (core::Then<> p =
              core::on_read(next(wire::lite::Track::kName, decoder_of<wire::lite::Track>(v), req)))
        return *p;
      send_->set_send_order(kControlSendOrder);
      Result<TrackConsumer> track = session_.find_track(Path(req.broadcast), req.track);
      if (!track) {
        cancel(reset_code_for(track.error()));
        return Poll::Done;
      }
      track_ = std::move(*track);
      state_ = State::Resolve;
      [[fallthrough]];
    }
    case State::Resolve: {
      switch (track_.status()) {
        case TrackStatus::Pending:
          track_waiter_.wait(track_.state_changed());
          return Poll::Pending;
        case TrackStatus::Aborted:
          cancel(reset_code_for(track_.error()));
          return Poll::Done;
        case TrackStatus::Active:
        case TrackStatus::Finished:
          break;
      }
      Result<Bytes> bytes = session_.encode(track_info_message(track_.info()));
      track_ = TrackConsumer();
      if (!bytes) {
        cancel(stream_code::kInternalError);  // e.g. a timescale of 0
        return Poll::Done;
      }
      send(std::move(*bytes));
      state_ = State::Answer;
      [[fallthrough]];
    }
    case State::Answer:
      // TRACK_INFO, FIN, then the paired close.
      if (!finish()) return out_.idle() ? Poll::Done : Poll::Pending;
      return drain() ? Poll::Done : Poll::Pending;
  }
  return Poll::Done;
}

// ---- Viewer ----

TrackAsker::Answer TrackAsker::ask_track(Bytes& request, TrackInfo& info, Error& error) {
  if (!send_) {
    switch (open(StreamKind::Track, kControlSendOrder)) {
      case Opened::Yes:
        send(std::move(request));
        break;
      case Opened::Pending:
        return Answer::Pending;
      case Opened::Failed:
        error = Error{stream_code::kSessionClosed, describe() + ": the connection is closed"};
        return Answer::Failed;
    }
  }
  if (flush() == core::Flush::Failed) {
    error = Error{stream_code::kSessionClosed, describe() + ": the TRACK stream failed"};
    return Answer::Failed;
  }
  const wire::lite::LiteVersion v = session_.wire_version();
  wire::lite::TrackInfo msg;
  if (core::Then<Answer> a = core::on_read<Answer>(
          next(wire::lite::TrackInfo::kName, decoder_of<wire::lite::TrackInfo>(v), msg),
          [](core::on::Pending) { return Answer::Pending; },
          [](core::on::Malformed) { return Answer::Closing; },
          [&](core::on::Fin) {
            session_.violation(
                Error{wire::lite::session_code::kProtocolViolation,
                      "TRACK_INFO: the publisher finished the Track stream without it"});
            return Answer::Closing;
          },
          [&](core::on::Reset) {
            error = Error{in_.code(),
                          describe() + " refused by the peer with " + describe_code(in_.code(), v)};
            (void)finish();
            return Answer::Failed;
          },
          [&](core::on::Closed) {
            error = Error{in_.code(), describe() + ": the connection closed"};
            return Answer::Failed;
          }))
    return *a;
  if (Status st = msg.check(); !st) {
    // A timescale of 0: the spec resets the stream as a protocol violation.
    ++session_.stats().protocol_errors;
    cancel(stream_code::kInternalError);
    error = Error{st.error().code, describe() + ": " + st.error().message};
    return Answer::Failed;
  }
  info = track_info_of(msg);
  (void)finish();  // paired close: the publisher FINs after TRACK_INFO
  return Answer::Ready;
}

void TrackInfoRequestTask::start(Bytes request, ReplyProducer<TrackInfo> reply, std::string what) {
  request_ = std::move(request);
  reply_ = std::move(reply);
  what_ = std::move(what);
  wake();
}

void TrackInfoRequestTask::clear() {
  BidiTask::clear();
  request_.reset();
  answered_ = false;
  reply_ = ReplyProducer<TrackInfo>();
}

void TrackInfoRequestTask::on_abandon(const Error& reason) {
  if (reply_) reply_.fail(reason);
}

Poll TrackInfoRequestTask::step() {
  if (answered_) return drain() ? Poll::Done : Poll::Pending;
  TrackInfo info;
  Error error;
  switch (ask_track(request_, info, error)) {
    case Answer::Ready:
      reply_.resolve(info);
      answered_ = true;
      return drain() ? Poll::Done : Poll::Pending;
    case Answer::Pending:
    case Answer::Closing:
      return Poll::Pending;
    case Answer::Failed:
      reply_.fail(std::move(error));
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::lite
