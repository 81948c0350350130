#include "model/session/ietf/track_status.h"

#include "model/data/errors.h"
#include "model/session/core/dispatch.h"
#include "model/session/ietf/errors.h"
#include "model/session/ietf/names.h"
#include "model/session/ietf/ranges.h"

namespace moq::session::ietf {

// ---- Publisher ----

void TrackStatusServeTask::start(SendStreamPtr send, core::StreamInput& input,
                                 w::ControlMessage& request) {
  adopt_stream(std::move(send), input);
  std::swap(request_, request);
  wake();
}

void TrackStatusServeTask::clear() {
  RequestTask::clear();
  track_.reset();
  answered_ = false;
  track_waiter_.cancel();
}

Poll TrackStatusServeTask::step() {
  w::ControlMessage msg;
  if (core::Then<> p = core::read_each(
          [&] { return next_message(msg); },
          [&](core::on::Message) {
            session_.violation(core::unexpected_message(w::control_name(msg, session_.v()),
                                                        "TRACK_STATUS request"));
            return Poll::Pending;
          },
          [](core::on::Pending) { return core::kGoOn; }, [](core::on::Fin) { return core::kGoOn; },
          [&](core::on::Reset) {
            cancel(uint64_t(w::StreamResetCode::Cancelled));
            return Poll::Done;
          }))
    return *p;
  if (!answered_) {
    const w::TrackStatus& req = std::get<w::TrackStatus>(request_);
    if (!track_) {
      TrackLookup lk = lookup_track(session_, req.track_namespace, req.track_name);
      if (!lk.track) {
        send_message(lk.error);
        answered_ = true;
      } else {
        track_ = std::move(lk.track);
      }
    }
    if (track_ && !answered_) {
      if (track_->status() == TrackStatus::Pending) {
        track_waiter_.wait(track_->state_changed());
        return Poll::Pending;
      }
      if (track_->status() == TrackStatus::Aborted) {
        send_message(request_error(w::RequestErrorCode::DoesNotExist, track_->error().message));
      } else {
        w::RequestOk ok;
        const TrackEdge edge = track_edge(*track_);
        if (edge.any_object) ok.params.largest_object = edge.largest;
        ok.track_properties = track_properties(track_->info());
        send_message(ok);
      }
      answered_ = true;
      track_.reset();
    }
  }
  if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
  return both_ended() ? Poll::Done : Poll::Pending;
}

// ---- Viewer ----

void TrackStatusRequestTask::start(const Path& broadcast, std::string_view track,
                                   ReplyProducer<TrackInfo> reply) {
  assign_namespace(request_.track_namespace, broadcast);
  request_.track_name.assign(track);
  reply_ = std::move(reply);
  wake();
}

void TrackStatusRequestTask::clear() {
  RequestTask::clear();
  if (reply_) {
    reply_.fail(Error{data_error::kCancelled, "TRACK_STATUS ended unanswered"});
    reply_ = ReplyProducer<TrackInfo>();
  }
  sent_ = false;
}

void TrackStatusRequestTask::on_abandon(const Error& reason) {
  if (reply_) reply_.fail(reason);
}

bool TrackStatusRequestTask::on(const w::RequestOk& ok) {
  if (reply_.done()) return false;
  reply_.resolve(track_info_of(ok.track_properties));
  return true;
}

bool TrackStatusRequestTask::on(const w::RequestError& e) {
  if (reply_.done()) return false;
  reply_.fail(refusal("TRACK_STATUS", e, session_.v()));
  return true;
}

Poll TrackStatusRequestTask::step() {
  if (!send_) {
    switch (open_stream(StreamKind::Track)) {
      case Opened::Yes:
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        return Poll::Done;  // the connection closed: clear() fails the reply
    }
  }
  if (!sent_) {
    request_.request_id = session_.take_request_id();
    if (!send_message(request_)) return Poll::Done;
    sent_ = true;
  }
  w::ControlMessage msg;
  if (core::Then<> p = core::read_each(
          [&] { return next_message(msg); },
          [&](core::on::Message) -> core::Then<> {
            const w::IetfVersion v = session_.v();
            if (Status st = core::dispatch(*this, msg, "TRACK_STATUS request",
                                           [v](const auto& m) { return message_name(m, v); });
                !st) {
              session_.violation(st.error());
              return Poll::Pending;
            }
            return core::kGoOn;
          },
          [](core::on::Pending) { return core::kGoOn; }, [](core::on::Fin) { return core::kGoOn; }))
    return *p;
  if (reply_.done() || peer_fin_) {
    if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
    if (both_ended()) return Poll::Done;
  }
  return write() ? Poll::Pending : Poll::Done;
}

}  // namespace moq::session::ietf
