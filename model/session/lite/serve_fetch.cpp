// The publisher's half of FETCH, and the ServeTask base every served request shares.
#include <algorithm>

#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/stream_io.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

// ---- ServeTask ----

void ServeTask::start(BidiStream stream, MessageReader& reader) {
  stream_ = std::move(stream);
  std::swap(reader_, reader);
  wake();
}

void ServeTask::clear() {
  stream_.send.reset();
  stream_.recv.reset();
  reader_.clear();
  out_.clear();
  read_waiter_.cancel();
  write_waiter_.cancel();
  state_ = State::Request;
  finish_after_write_ = false;
}

void ServeTask::refuse(uint64_t code) {
  if (stream_.send && stream_.send->reset(code)) ++session_.stats().streams_reset;
  if (stream_.recv) stream_.recv->stop(code);
}

void ServeTask::finish_send() {
  if (stream_.send) (void)stream_.send->finish();
}

Flush ServeTask::write() {
  const Flush f = flush(*stream_.send, out_, write_waiter_);
  if (f != Flush::Done) return f;
  if (finish_after_write_) finish_send();
  state_ = State::Drain;
  return Flush::Done;
}

Poll ServeTask::drain() {
  return lite::drain(*stream_.recv, reader_, read_waiter_, session_.stats().resets_received)
             ? Poll::Done
             : Poll::Pending;
}

// ---- FetchServeTask ----

void FetchServeTask::clear() {
  ServeTask::clear();
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
      return send();
    case Phase::Drain:
      return drain();
  }
  return Poll::Done;
}

Poll FetchServeTask::request() {
  const wire::lite::LiteVersion v = session_.wire_version();
  const Got got = reader_.next(
      *stream_.recv, read_waiter_, wire::lite::Fetch::kName,
      [v](std::span<const uint8_t> in) { return wire::lite::Fetch::decode(in, v); }, req_);
  switch (got) {
    case Got::Message:
      break;
    case Got::Pending:
      return Poll::Pending;
    case Got::Malformed:
      session_.violation(std::move(reader_.error()));
      return Poll::Pending;
    case Got::Reset:
      ++session_.stats().resets_received;
      return Poll::Done;
    case Got::Fin:
    case Got::Failed:
      return Poll::Done;
  }
  ++session_.stats().messages_decoded;
  const OriginConsumer& origin = session_.config().publish;
  std::optional<BroadcastConsumer> broadcast;
  if (origin) broadcast = origin.lookup(Path(req_.broadcast));
  if (!broadcast) {
    refuse(stream_code::kNotFound);
    return Poll::Done;
  }
  {
    Result<TrackConsumer> track = broadcast->subscribe(req_.track);
    if (!track) {
      refuse(reset_code_for(track.error()));
      return Poll::Done;
    }
    std::optional<GroupConsumer> group = track->get_group(req_.group);
    if (!group) {
      refuse(stream_code::kNotFound);
      return Poll::Done;
    }
    group_ = std::move(*group);
  }
  group_.seek(req_.frame_start);
  end_ = req_.frame_end ? static_cast<size_t>(*req_.frame_end) + 1 : SIZE_MAX;
  stream_.send->set_send_order(data_send_order(req_.priority, 0));
  phase_ = Phase::Send;
  return send();
}

Poll FetchServeTask::send() {
  SendStream& send = *stream_.send;
  for (;;) {
    switch (flush(send, out_, write_waiter_)) {
      case Flush::Done:
        break;
      case Flush::Pending:
        return Poll::Pending;
      case Flush::Failed:
        return Poll::Done;  // the peer stopped it or the connection closed
    }
    const GroupStatus status = group_.status();
    if (status == GroupStatus::Aborted) [[unlikely]] {
      refuse(reset_code_for(group_.error()));
      return Poll::Done;
    }
    const size_t limit = std::min(group_.frame_count(), end_);
    if (group_.index() < limit) {
      Result<size_t> n =
          encoder_.append(group_, limit, session_.wire_version(), session_.arena(), out_);
      if (!n) [[unlikely]] {
        refuse(n.error().code);
        return Poll::Done;
      }
      session_.stats().frames_sent += *n;
      continue;  // write the batch
    }
    if (group_.index() >= end_ || status == GroupStatus::Finished) {
      finish_send();
      phase_ = Phase::Drain;
      return drain();
    }
    group_waiter_.wait(group_.readable());
    return Poll::Pending;
  }
}

}  // namespace moq::session::lite
