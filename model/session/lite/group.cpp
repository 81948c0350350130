#include "model/session/lite/group.h"

#include <algorithm>

#include "model/session/lite/lite_session.h"
#include "model/session/lite/stream_codes.h"
#include "model/session/lite/subscribe.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

// ---- Publisher ----

void GroupSendTask::start(SubscribeServeTask& parent, GroupConsumer group, uint64_t subscribe_id,
                          uint8_t priority, uint64_t frame_start, size_t frame_end) {
  parent_ = &parent;
  group_ = std::move(group);
  subscribe_id_ = subscribe_id;
  priority_ = priority;
  frame_start_ = frame_start;
  end_ = frame_end;
  group_.seek(frame_start);
  wake();
}

void GroupSendTask::clear() {
  if (parent_) {
    SubscribeServeTask* parent = parent_;
    parent_ = nullptr;
    parent->sender_done(*this);
  }
  Link<SenderTag>::unlink();
  group_ = GroupConsumer();
  stream_.reset();
  out_.clear();
  encoder_.reset();
  staleness_.clear();
  stream_waiter_.cancel();
  group_waiter_.cancel();
}

void GroupSendTask::cancel(uint64_t code) {
  if (stream_ && stream_->reset(code)) ++session_.stats().streams_reset;
  parent_ = nullptr;  // the parent is the one cancelling
  abandon(Error{code, "subscription cancelled"});
}

void GroupSendTask::drop_stale() {
  // Its stream is open (unsent()), so -07's SUBSCRIBE_END still counts it.
  if (stream_->reset(stream_code::kDeliveryTimeout)) ++session_.stats().streams_reset;
  abandon(Error{stream_code::kDeliveryTimeout, "group older than the subscriber's Max Age"});
}

Poll GroupSendTask::step() {
  if (!stream_) {
    Result<SendStreamPtr> opened = session_.conn().open_uni();
    if (!opened) return Poll::Done;
    if (!*opened) {
      stream_waiter_.wait(session_.conn().can_open());
      return Poll::Pending;
    }
    stream_ = std::move(*opened);
    session_.count_opened(StreamKind::Group);
    stream_->set_send_order(data_send_order(priority_, group_.sequence()));
    const wire::lite::GroupHeader header{subscribe_id_, group_.sequence(), frame_start_};
    uint8_t* p = session_.arena().reserve(wire::lite::kMaxGroupStreamHeaderSize);
    const size_t n = wire::lite::encode_group_stream_header(header, session_.wire_version(), p);
    if (n == 0) {
      (void)stream_->reset(stream_code::kInternalError);
      return Poll::Done;
    }
    out_.push(session_.arena().commit(n));
    if (parent_) parent_->sender_opened();
  }
  for (;;) {
    switch (out_.flush(*stream_, stream_waiter_)) {
      case core::Flush::Done:
        break;
      case core::Flush::Pending:
        return Poll::Pending;
      case core::Flush::Failed:
        return Poll::Done;
    }
    const GroupStatus status = group_.status();
    if (status == GroupStatus::Aborted) [[unlikely]] {
      if (stream_->reset(reset_code_for(group_.error()))) ++session_.stats().streams_reset;
      return Poll::Done;
    }
    const size_t limit = std::min(group_.frame_count(), end_);
    if (group_.index() < limit) {
      Result<size_t> n =
          encoder_.append(group_, limit, session_.wire_version(), session_.arena(), out_.chain());
      if (!n) [[unlikely]] {
        if (stream_->reset(n.error().code)) ++session_.stats().streams_reset;
        return Poll::Done;
      }
      session_.stats().frames_sent += *n;
      continue;
    }
    if (group_.index() >= end_ || status == GroupStatus::Finished) {
      (void)stream_->finish();
      return Poll::Done;
    }
    group_waiter_.wait(group_.readable());
    return Poll::Pending;
  }
}

// ---- Viewer ----

void GroupReceiver::clear() {
  group_ = GroupProducer();
  subscribe_id_ = 0;
  track_.clear();
  parser_.reset();
}

void GroupReceiver::abandon(const Error& reason) {
  if (group_) group_.abort(reason);
}

std::string GroupReceiver::describe() const {
  return "group " + std::to_string(group_ ? group_.sequence() : 0) + " of track '" + track_ +
         "' (subscription " + std::to_string(subscribe_id_) + ")";
}

Poll GroupReceiver::header(LiteSession& s, core::StreamInput& in, Waiter& waiter) {
  const wire::lite::LiteVersion v = s.wire_version();
  wire::lite::GroupHeader header;
  switch (in.next(
      waiter, wire::lite::GroupHeader::kName,
      [v](std::span<const uint8_t> bytes) { return wire::lite::decode_group_header(bytes, v); },
      header)) {
    case core::In::Message:
      break;
    case core::In::Pending:
      return Poll::Pending;
    case core::In::Malformed:
      s.violation(std::move(in.error()));
      return Poll::Pending;
    case core::In::Reset:
      ++s.stats().resets_received;
      return Poll::Done;
    case core::In::Fin:
    case core::In::Closed:
      return Poll::Done;
  }
  subscribe_id_ = header.subscribe_id;
  SubscribeRequestTask* sub = s.find_subscription(header.subscribe_id);
  if (!sub) {
    // Unknown (or already cancelled) subscription: refuse the stream, keep the session.
    in.stream().stop(stream_code::kCancelled);
    return Poll::Done;
  }
  track_.assign(sub->track_name());
  Result<GroupProducer> group = sub->open_group(header.sequence);
  if (!group) {
    // A duplicate group, or one past the track's end: drop this stream only.
    ++s.stats().protocol_errors;
    in.stream().stop(stream_code::kCancelled);
    return Poll::Done;
  }
  group_ = std::move(*group);
  return frames(s, in, waiter);  // frames that arrived with the header come first
}

Poll GroupReceiver::frames(LiteSession& s, core::StreamInput& in, Waiter& waiter) {
  const wire::lite::LiteVersion v = s.wire_version();
  FramesResult r = receive_frames(in, waiter, parser_, group_, v);
  s.stats().frames_received += parser_.take_frames();
  switch (r.end) {
    case FramesEnd::Pending:
      return Poll::Pending;
    case FramesEnd::Fin:
      (void)group_.finish();
      return Poll::Done;
    case FramesEnd::Reset:
      // A reset group stream aborts that group only.
      ++s.stats().resets_received;
      group_.abort(
          Error{r.code, describe() + " was reset by the peer with " + describe_code(r.code, v)});
      return Poll::Done;
    case FramesEnd::Failed:
      group_.abort(Error{r.code, describe() + " failed: the connection closed"});
      return Poll::Done;
    case FramesEnd::Bad:
      group_.abort(Error{r.error.code, describe() + ": " + r.error.message});
      if (r.malformed) {
        s.violation(std::move(r.error));
        return Poll::Pending;
      }
      in.stream().stop(reset_code_for(r.error));
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::lite
