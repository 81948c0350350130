#include "model/session/lite/fetch.h"

#include <algorithm>

#include "model/session/lite/lite_session.h"
#include "model/session/lite/stream_codes.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

// ---- Publisher ----

void FetchServeTask::start(SendStreamPtr send, core::StreamInput& input) {
  adopt(std::move(send), input);
  wake();
}

void FetchServeTask::clear() {
  BidiTask::clear();
  phase_ = Phase::Request;
  group_ = GroupConsumer();
  end_ = 0;
  encoder_.reset();
  group_waiter_.cancel();
}

Poll FetchServeTask::step() {
  switch (phase_) {
    case Phase::Request:
      return request();
    case Phase::Send:
      return send_frames();
    case Phase::Drain:
      return drain() ? Poll::Done : Poll::Pending;
  }
  return Poll::Done;
}

Poll FetchServeTask::request() {
  const wire::lite::LiteVersion v = session_.wire_version();
  if (core::Then<> p =
          core::on_read(next(wire::lite::Fetch::kName, decoder_of<wire::lite::Fetch>(v), req_)))
    return *p;
  Result<TrackConsumer> track = session_.find_track(Path(req_.broadcast), req_.track);
  if (!track) {
    cancel(reset_code_for(track.error()));
    return Poll::Done;
  }
  std::optional<GroupConsumer> group = track->get_group(req_.group);
  // Not cached: a relay's copy asks upstream for it; its frames are sent as they arrive.
  if (!group) group = track->request_group(req_.group, req_.priority);
  if (!group) {
    cancel(stream_code::kNotFound);
    return Poll::Done;
  }
  group_ = std::move(*group);
  group_.seek(req_.frame_start);
  end_ = req_.frame_end ? static_cast<size_t>(*req_.frame_end) + 1 : SIZE_MAX;
  send_->set_send_order(data_send_order(req_.priority, 0));
  phase_ = Phase::Send;
  return send_frames();
}

Poll FetchServeTask::send_frames() {
  for (;;) {
    switch (flush()) {
      case core::Flush::Done:
        break;
      case core::Flush::Pending:
        return Poll::Pending;
      case core::Flush::Failed:
        return Poll::Done;  // the peer stopped it or the connection closed
    }
    const GroupStatus status = group_.status();
    if (status == GroupStatus::Aborted) [[unlikely]] {
      cancel(reset_code_for(group_.error()));
      return Poll::Done;
    }
    const size_t limit = std::min(group_.frame_count(), end_);
    if (group_.index() < limit) {
      Result<size_t> n =
          encoder_.append(group_, limit, session_.wire_version(), session_.arena(), out_.chain());
      if (!n) [[unlikely]] {
        cancel(n.error().code);
        return Poll::Done;
      }
      session_.stats().frames_sent += *n;
      continue;  // write the batch
    }
    if (group_.index() >= end_ || status == GroupStatus::Finished) {
      (void)finish();
      phase_ = Phase::Drain;
      return drain() ? Poll::Done : Poll::Pending;
    }
    group_waiter_.wait(group_.readable());
    return Poll::Pending;
  }
}

// ---- Viewer ----

void FetchRequestTask::start(Bytes request, GroupProducer group, const Path& broadcast,
                             std::string_view track, uint64_t sequence) {
  request_ = std::move(request);
  group_ = std::move(group);
  sequence_ = sequence;
  broadcast_.assign(broadcast.str());
  track_.assign(track);
  wake();
}

void FetchRequestTask::clear() {
  BidiTask::clear();
  request_.reset();
  group_ = GroupProducer();
  parser_.reset();
}

void FetchRequestTask::on_abandon(const Error& reason) {
  if (group_) group_.abort(reason);
}

std::string FetchRequestTask::describe() const {
  return "FETCH of group " + std::to_string(sequence_) + " of '" + broadcast_ + "' track '" +
         track_ + "'";
}

Poll FetchRequestTask::step() {
  if (!send_) {
    switch (open(StreamKind::Fetch, kControlSendOrder)) {
      case Opened::Yes:
        send(std::move(request_));
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        group_.abort(Error{stream_code::kSessionClosed, describe() + ": the connection is closed"});
        return Poll::Done;
    }
  }
  switch (flush()) {
    case core::Flush::Done:
      break;
    case core::Flush::Pending:
      return Poll::Pending;  // the answer cannot come before the request left
    case core::Flush::Failed:
      group_.abort(Error{out_.error().code, describe() + ": " + out_.error().message});
      return Poll::Done;
  }
  const wire::lite::LiteVersion v = session_.wire_version();
  FramesResult r = receive_frames(in_, read_waiter_, parser_, group_, v);
  session_.stats().frames_received += parser_.take_frames();
  switch (r.end) {
    case FramesEnd::Pending:
      return Poll::Pending;
    case FramesEnd::Fin:
      (void)group_.finish();
      (void)finish();  // paired close: the publisher FINed
      return Poll::Done;
    case FramesEnd::Reset:
      ++session_.stats().resets_received;
      group_.abort(
          Error{r.code, describe() + " was reset by the peer with " + describe_code(r.code, v)});
      (void)finish();
      return Poll::Done;
    case FramesEnd::Failed:
      group_.abort(Error{r.code, describe() + " failed: the connection closed"});
      return Poll::Done;
    case FramesEnd::Bad:
      group_.abort(Error{r.error.code, describe() + ": " + r.error.message});
      if (r.malformed) {
        session_.violation(std::move(r.error));
        return Poll::Pending;
      }
      cancel(reset_code_for(r.error));
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::lite
