// The publisher's half of ANNOUNCE_REQUEST and TRACK, and the peer's GOAWAY and AUTH.
#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/stream_io.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;
using wire::lite::LiteVersion;

namespace {

// Outcome of reading a request's first message, shared by the served tasks below.
template <class T, class Decode>
bool read_first(LiteSession& session, MessageReader& reader, BidiStream& stream, Waiter& waiter,
                const char* name, Decode&& decode, T& out, Poll& result) {
  switch (reader.next(*stream.recv, waiter, name, decode, out)) {
    case Got::Message:
      ++session.stats().messages_decoded;
      return true;
    case Got::Pending:
      result = Poll::Pending;
      return false;
    case Got::Malformed:
      session.violation(std::move(reader.error()));
      result = Poll::Pending;
      return false;
    case Got::Reset:
      ++session.stats().resets_received;
      result = Poll::Done;
      return false;
    case Got::Fin:
    case Got::Failed:
      result = Poll::Done;
      return false;
  }
  return false;
}

}  // namespace

// ---- AnnounceServeTask ----

void AnnounceServeTask::clear() {
  ServeTask::clear();
  started_ = false;
  prefix_ = Path();
  hidden_ = false;
  announcements_ = AnnounceConsumer();
  next_id_ = 0;
  ids_.clear();
  events_waiter_.cancel();
}

bool AnnounceServeTask::visible(const Path& path) const {
  if (hidden_) return true;
  // Without Hidden, routes with a segment starting with '.' below the prefix are left out.
  std::optional<Path> suffix = path.strip_prefix(prefix_);
  if (!suffix) return false;
  const std::string& s = suffix->str();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.' && (i == 0 || s[i - 1] == '/')) return false;
  }
  return true;
}

void AnnounceServeTask::announce(const AnnounceEvent& event) {
  if (!visible(event.path)) return;
  const std::string& key = event.path.str();
  if (event.kind == AnnounceEvent::Kind::Announce) {
    if (ids_.count(key)) return;  // already live on this stream
    wire::lite::AnnounceStart start;
    start.suffix = event.path.strip_prefix(prefix_)->str();
    if (Result<Bytes> b = session_.encode(start)) out_.push(std::move(*b));
    ids_.emplace(key, next_id_++);
    return;
  }
  auto it = ids_.find(key);
  if (it == ids_.end()) return;
  if (Result<Bytes> b = session_.encode(wire::lite::AnnounceEnd{it->second})) {
    out_.push(std::move(*b));
  }
  ids_.erase(it);
}

Poll AnnounceServeTask::step() {
  if (!started_) {
    const LiteVersion v = session_.wire_version();
    wire::lite::AnnounceRequest req;
    Poll result = Poll::Done;
    if (!read_first(
            session_, reader_, stream_, read_waiter_, wire::lite::AnnounceRequest::kName,
            [v](std::span<const uint8_t> in) { return wire::lite::AnnounceRequest::decode(in, v); },
            req, result)) {
      return result;
    }
    started_ = true;
    prefix_ = Path(req.prefix);
    hidden_ = req.hidden;
    stream_.send->set_send_order(kControlSendOrder);
    // The snapshot: count the visible broadcasts first (Active Count), then START each.
    uint64_t active = 0;
    std::vector<AnnounceEvent> snapshot;
    if (session_.config().publish) {
      announcements_ = session_.config().publish.announced(prefix_);
      AnnounceEvent event;
      for (size_t i = announcements_.initial_count(); i > 0; --i) {
        if (announcements_.next(event) != Next::Ready) break;
        if (visible(event.path)) ++active;
        snapshot.push_back(std::move(event));
      }
    }
    if (Result<Bytes> ok =
            session_.encode(wire::lite::AnnounceOk{session_.config().hop_id, active})) {
      out_.push(std::move(*ok));
    }
    for (const AnnounceEvent& event : snapshot)
      announce(event);
  }
  if (announcements_) {
    AnnounceEvent event;
    while (announcements_.next(event) == Next::Ready)
      announce(event);
    events_waiter_.wait(announcements_.events());
  }
  if (flush(*stream_.send, out_, write_waiter_) == Flush::Failed) return Poll::Done;
  // The subscriber sends nothing after the request; its FIN or reset ends the stream.
  for (;;) {
    const ReadResult r = reader_.read_more(*stream_.recv);
    switch (r.status) {
      case ReadStatus::Data: {
        reader_.clear();
        session_.violation("ANNOUNCE_REQUEST: unexpected bytes after the request");
        return Poll::Pending;
      }
      case ReadStatus::WouldBlock:
        read_waiter_.wait(stream_.recv->readable());
        return Poll::Pending;
      case ReadStatus::Fin:
        finish_send();  // paired close
        return Poll::Done;
      case ReadStatus::Reset:
        ++session_.stats().resets_received;
        refuse(stream_code::kCancelled);
        return Poll::Done;
      case ReadStatus::Error:
        return Poll::Done;
    }
  }
}

// ---- TrackServeTask ----

void TrackServeTask::clear() {
  ServeTask::clear();
  track_ = TrackConsumer();
  track_waiter_.cancel();
}

Poll TrackServeTask::step() {
  switch (state_) {
    case State::Request: {
      const LiteVersion v = session_.wire_version();
      wire::lite::Track req;
      Poll result = Poll::Done;
      if (!read_first(
              session_, reader_, stream_, read_waiter_, wire::lite::Track::kName,
              [v](std::span<const uint8_t> in) { return wire::lite::Track::decode(in, v); }, req,
              result)) {
        return result;
      }
      stream_.send->set_send_order(kControlSendOrder);
      const OriginConsumer& origin = session_.config().publish;
      std::optional<BroadcastConsumer> broadcast;
      if (origin) broadcast = origin.lookup(Path(req.broadcast));
      if (!broadcast) {
        refuse(stream_code::kNotFound);
        return Poll::Done;
      }
      Result<TrackConsumer> track = broadcast->subscribe(req.track);
      if (!track) {
        refuse(reset_code_for(track.error()));
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
          refuse(reset_code_for(track_.error()));
          return Poll::Done;
        case TrackStatus::Active:
        case TrackStatus::Finished:
          break;
      }
      const TrackInfo& info = track_.info();
      wire::lite::TrackInfo msg;
      msg.priority = info.priority;
      if (info.cache.max_age_ns != UINT64_MAX) msg.max_age_ms = info.cache.max_age_ns / 1'000'000;
      msg.timescale = info.timescale;
      Result<Bytes> bytes = session_.encode(msg);
      track_ = TrackConsumer();
      if (!bytes) {
        refuse(stream_code::kInternalError);  // e.g. a timescale of 0
        return Poll::Done;
      }
      out_.push(std::move(*bytes));
      finish_after_write_ = true;
      state_ = State::Write;
      [[fallthrough]];
    }
    case State::Write:
      if (Flush f = write(); f != Flush::Done)
        return f == Flush::Pending ? Poll::Pending : Poll::Done;
      [[fallthrough]];
    case State::Drain:
      return drain();
  }
  return Poll::Done;
}

// ---- GoawayServeTask ----

void GoawayServeTask::clear() {
  ServeTask::clear();
  received_ = false;
}

Poll GoawayServeTask::step() {
  if (!received_) {
    const LiteVersion v = session_.wire_version();
    wire::lite::Goaway msg;
    Poll result = Poll::Done;
    if (!read_first(
            session_, reader_, stream_, read_waiter_, wire::lite::Goaway::kName,
            [v](std::span<const uint8_t> in) { return wire::lite::Goaway::decode(in, v); }, msg,
            result)) {
      return result;
    }
    received_ = true;
    if (Status st = session_.on_peer_goaway(std::move(msg.uri)); !st) {
      session_.violation(st.error().message);
      return Poll::Pending;
    }
  }
  if (drain() == Poll::Pending) return Poll::Pending;
  finish_send();  // the peer FINed: paired close
  return Poll::Done;
}

// ---- AuthServeTask ----

void AuthServeTask::clear() {
  ServeTask::clear();
}

Poll AuthServeTask::step() {
  switch (state_) {
    case State::Request: {
      const LiteVersion v = session_.wire_version();
      wire::lite::Auth msg;
      Poll result = Poll::Done;
      if (!read_first(
              session_, reader_, stream_, read_waiter_, wire::lite::Auth::kName,
              [v](std::span<const uint8_t> in) { return wire::lite::Auth::decode(in, v); }, msg,
              result)) {
        return result;
      }
      stream_.send->set_send_order(kControlSendOrder);
      const auto& authorize = session_.config().authorize;
      Result<AuthGrant> grant =
          authorize ? authorize(msg.token) : Result<AuthGrant>(AuthGrant{{"**"}, {"**"}, 0});
      if (grant) {
        wire::lite::AuthOk ok;
        ok.publish = grant->publish;
        ok.subscribe = grant->subscribe;
        ok.expires_ms = grant->expires_ms;
        if (Result<Bytes> b = session_.encode(ok)) out_.push(std::move(*b));
      } else {
        wire::lite::AuthError err;
        err.code = grant.error().code;
        err.reason = grant.error().message.substr(0, wire::lite::kMaxReasonLength);
        if (Result<Bytes> b = session_.encode(err)) out_.push(std::move(*b));
        finish_after_write_ = true;  // AUTH_ERROR: the acceptor then closes the stream
      }
      state_ = State::Write;
      [[fallthrough]];
    }
    case State::Write:
    case State::Resolve:
      if (Flush f = write(); f != Flush::Done)
        return f == Flush::Pending ? Poll::Pending : Poll::Done;
      [[fallthrough]];
    case State::Drain:
      if (drain() == Poll::Pending) return Poll::Pending;
      finish_send();  // paired close (refused harmlessly when already finished)
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::lite
