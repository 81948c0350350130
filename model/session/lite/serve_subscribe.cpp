// The publisher's half of SUBSCRIBE, and the group streams it sends.
#include <algorithm>

#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/stream_io.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;
using wire::lite::LiteVersion;

// ---- GroupSendTask ----

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
  stream_waiter_.cancel();
  group_waiter_.cancel();
}

void GroupSendTask::cancel(uint64_t code) {
  if (stream_ && stream_->reset(code)) ++session_.stats().streams_reset;
  parent_ = nullptr;  // the parent is the one cancelling
  abandon(Error{code, "subscription cancelled"});
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
    switch (flush(*stream_, out_, stream_waiter_)) {
      case Flush::Done:
        break;
      case Flush::Pending:
        return Poll::Pending;
      case Flush::Failed:
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
          encoder_.append(group_, limit, session_.wire_version(), session_.arena(), out_);
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

// ---- SubscribeServeTask ----

void SubscribeServeTask::clear() {
  cancel_senders(stream_code::kCancelled);
  ServeTask::clear();
  phase_ = Phase::Request;
  track_ = TrackConsumer();
  ok_sent_ = false;
  end_known_ = false;
  end_group_ = 0;
  end_sent_ = false;
  peer_fin_ = false;
  fin_sent_ = false;
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

void SubscribeServeTask::queue(Result<Bytes> message) {
  if (message) out_.push(std::move(*message));
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
  switch (flush(*stream_.send, out_, write_waiter_)) {
    case Flush::Done:
    case Flush::Pending:
      break;
    case Flush::Failed:
      cancel_senders(stream_code::kCancelled);
      return Poll::Done;
  }
  // -07 counts the group streams in SUBSCRIBE_END, so it waits until every one is open.
  const bool counts = wire::lite::subscribe_end_has_stream_count(session_.wire_version());
  if (end_known_ && !end_sent_ && (!counts || streams_open_ == streams_started_)) {
    wire::lite::SubscribeEnd end{end_group_, counts ? streams_started_ : 0};
    queue(session_.encode(end));
    end_sent_ = true;
    if (flush(*stream_.send, out_, write_waiter_) == Flush::Failed) return Poll::Done;
  }
  // Our FIN: after SUBSCRIBE_END once every group stream is done; on -07 also after the
  // subscriber's FIN (its tail accounting settled).
  const bool wait_peer = wire::lite::subscribe_completes_on_subscriber_fin(session_.wire_version());
  if (end_sent_ && !fin_sent_ && senders_.empty() && out_.empty() && (!wait_peer || peer_fin_)) {
    finish_send();
    fin_sent_ = true;
  }
  if (fin_sent_ && peer_fin_) return Poll::Done;
  return Poll::Pending;
}

Poll SubscribeServeTask::request() {
  const LiteVersion v = session_.wire_version();
  const Got got = reader_.next(
      *stream_.recv, read_waiter_, wire::lite::Subscribe::kName,
      [v](std::span<const uint8_t> in) { return wire::lite::Subscribe::decode(in, v); }, req_);
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
  if (!req_.check()) {
    // A frame-range rule broken: the spec answers with a stream reset, not a session close.
    ++session_.stats().protocol_errors;
    refuse(stream_code::kInternalError);
    return Poll::Done;
  }
  const OriginConsumer& origin = session_.config().publish;
  std::optional<BroadcastConsumer> broadcast;
  if (origin) broadcast = origin.lookup(Path(req_.broadcast));
  if (!broadcast) {
    refuse(stream_code::kNotFound);
    return Poll::Done;
  }
  Result<TrackConsumer> track = broadcast->subscribe(req_.track, preferences());
  if (!track) {
    refuse(reset_code_for(track.error()));
    return Poll::Done;
  }
  track_ = std::move(*track);
  stream_.send->set_send_order(kControlSendOrder);
  phase_ = Phase::Active;
  return step();
}

bool SubscribeServeTask::read_updates(Poll& result) {
  const LiteVersion v = session_.wire_version();
  while (!peer_fin_) {
    wire::lite::SubscribeUpdate update;
    const Got got = reader_.next(
        *stream_.recv, read_waiter_, wire::lite::SubscribeUpdate::kName,
        [v](std::span<const uint8_t> in) { return wire::lite::SubscribeUpdate::decode(in, v); },
        update);
    switch (got) {
      case Got::Message:
        ++session_.stats().messages_decoded;
        if (!update.check()) {
          ++session_.stats().protocol_errors;
          refuse(stream_code::kInternalError);
          result = Poll::Done;
          return false;
        }
        req_.options = update.options;
        track_.update(preferences());
        continue;
      case Got::Pending:
        return true;
      case Got::Malformed:
        session_.violation(std::move(reader_.error()));
        result = Poll::Pending;
        return false;
      case Got::Fin:
        peer_fin_ = true;
        if (!end_sent_) {
          // The subscriber closed first: paired close, no more groups.
          cancel_senders(stream_code::kCancelled);
          finish_send();
          result = Poll::Done;
          return false;
        }
        return true;
      case Got::Reset:
        // The routine unsubscribe (CANCELLED) or any abort: end everything.
        ++session_.stats().resets_received;
        cancel_senders(stream_code::kCancelled);
        refuse(stream_code::kCancelled);
        result = Poll::Done;
        return false;
      case Got::Failed:
        result = Poll::Done;
        return false;
    }
  }
  return true;
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
          queue(session_.encode(wire::lite::SubscribeOk{group.sequence()}));
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
        refuse(reset_code_for(track_.error()));
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
  GroupSendTask& sender = session_.pools().group_send.acquire(session_);
  senders_.push_back(sender);
  ++streams_started_;
  sender.start(*this, group, req_.id, o.priority, frame_start, end);
}

}  // namespace moq::session::lite
