// The viewer's ANNOUNCE_REQUEST and TRACK, our GOAWAY and AUTH, and our SETUP stream.
#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/stream_io.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;
using wire::lite::LiteVersion;

// ---- AnnounceRequestTask ----

void AnnounceRequestTask::start(const Path& prefix) {
  prefix_ = prefix;
  wire::lite::AnnounceRequest req;
  req.prefix = prefix.str();
  if (Result<Bytes> b =
          session_.encode(req, wire::lite::stream_type_byte(wire::lite::BidiStream::Announce))) {
    request_ = std::move(*b);
  }
  wake();
}

void AnnounceRequestTask::clear() {
  withdraw_all();
  RequestTask::clear();
  opened_ = false;
  ok_received_ = false;
  prefix_ = Path();
  next_id_ = 0;
}

void AnnounceRequestTask::on_abandon(const Error&) {
  withdraw_all();
}

void AnnounceRequestTask::withdraw_all() {
  for (const auto& [id, path] : routes_) {
    if (path) session_.route_ended(*path);
  }
  routes_.clear();
  live_.clear();
}

Status AnnounceRequestTask::on_message(const wire::lite::AnnounceMessage& m) {
  if (const auto* start = std::get_if<wire::lite::AnnounceStart>(&m)) {
    const uint64_t id = next_id_++;
    Path path = prefix_.join(Path(start->suffix));
    if (live_.count(path.str())) {
      return Error{0, "ANNOUNCE_START: field 'Route Prefix Suffix': route '" + path.str() +
                          "' is already live on this stream"};
    }
    live_.emplace(path.str(), id);
    if (start->hops.contains(session_.config().hop_id)) {
      routes_.emplace(id, std::nullopt);  // a loop through us: keep the ID, ignore the route
      return {};
    }
    session_.route_started(path);
    routes_.emplace(id, std::move(path));
    return {};
  }
  const uint64_t id = std::holds_alternative<wire::lite::AnnounceEnd>(m)
                          ? std::get<wire::lite::AnnounceEnd>(m).id
                          : std::get<wire::lite::AnnounceUpdate>(m).id;
  const char* name = std::holds_alternative<wire::lite::AnnounceEnd>(m)
                         ? wire::lite::AnnounceEnd::kName
                         : wire::lite::AnnounceUpdate::kName;
  auto it = routes_.find(id);
  if (it == routes_.end()) {
    return Error{0, std::string(name) + ": field 'Announce ID': " + std::to_string(id) +
                        (id < next_id_ ? " is already retired" : " was never assigned")};
  }
  if (std::holds_alternative<wire::lite::AnnounceUpdate>(m)) return {};
  if (it->second) {
    live_.erase(it->second->str());
    session_.route_ended(*it->second);
  } else {
    for (auto l = live_.begin(); l != live_.end(); ++l) {
      if (l->second == id) {
        live_.erase(l);
        break;
      }
    }
  }
  routes_.erase(it);
  return {};
}

Poll AnnounceRequestTask::step() {
  if (!opened_) {
    switch (open(StreamKind::Announce, kControlSendOrder)) {
      case Opened::Yes:
        opened_ = true;
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        return Poll::Done;
    }
  }
  if (flush(*stream_.send, out_, write_waiter_) == Flush::Failed) return Poll::Done;
  const LiteVersion v = session_.wire_version();
  for (;;) {
    Got got;
    wire::lite::AnnounceMessage m;
    if (!ok_received_) {
      wire::lite::AnnounceOk ok;
      got = reader_.next(
          *stream_.recv, read_waiter_, wire::lite::AnnounceOk::kName,
          [v](std::span<const uint8_t> in) { return wire::lite::AnnounceOk::decode(in, v); }, ok);
      if (got == Got::Message) {
        ++session_.stats().messages_decoded;
        ok_received_ = true;
        continue;
      }
    } else {
      got = reader_.next(
          *stream_.recv, read_waiter_, "ANNOUNCE message",
          [v](std::span<const uint8_t> in) { return wire::lite::decode_announce_message(in, v); },
          m);
      if (got == Got::Message) {
        ++session_.stats().messages_decoded;
        if (Status st = on_message(m); !st) {
          session_.violation(st.error().message);
          return Poll::Pending;
        }
        continue;
      }
    }
    switch (got) {
      case Got::Pending:
        return Poll::Pending;
      case Got::Malformed:
        session_.violation(std::move(reader_.error()));
        return Poll::Pending;
      case Got::Fin:
        finish_send();  // paired close; every route learned here is gone (clear())
        return Poll::Done;
      case Got::Reset:
        ++session_.stats().resets_received;
        finish_send();
        return Poll::Done;
      case Got::Failed:
      case Got::Message:
        return Poll::Done;
    }
  }
}

// ---- TrackInfoRequestTask ----

void TrackInfoRequestTask::start(Bytes request, ReplyProducer<TrackInfo> reply, std::string what) {
  request_ = std::move(request);
  reply_ = std::move(reply);
  what_ = std::move(what);
  wake();
}

void TrackInfoRequestTask::clear() {
  RequestTask::clear();
  opened_ = false;
  answered_ = false;
  reply_ = ReplyProducer<TrackInfo>();
}

void TrackInfoRequestTask::on_abandon(const Error& reason) {
  if (reply_) reply_.fail(reason);
}

Poll TrackInfoRequestTask::step() {
  if (answered_) return drain();
  if (!opened_) {
    switch (open(StreamKind::Track, kControlSendOrder)) {
      case Opened::Yes:
        opened_ = true;
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        reply_.fail(Error{stream_code::kSessionClosed, what_ + ": the connection is closed"});
        return Poll::Done;
    }
  }
  if (flush(*stream_.send, out_, write_waiter_) == Flush::Failed) {
    reply_.fail(Error{stream_code::kSessionClosed, what_ + ": the stream failed"});
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
      return Poll::Pending;
    case Got::Fin:
      reply_.fail(Error{wire::lite::session_code::kProtocolViolation,
                        what_ + ": finished without TRACK_INFO"});
      session_.violation("TRACK_INFO: the publisher finished the Track stream without it");
      return Poll::Pending;
    case Got::Reset:
      ++session_.stats().resets_received;
      reply_.fail(Error{reader_.code(),
                        what_ + " refused by the peer with " + describe_code(reader_.code(), v)});
      finish_send();
      return Poll::Done;
    case Got::Failed:
      reply_.fail(Error{reader_.code(), what_ + ": the connection closed"});
      return Poll::Done;
    case Got::Malformed:
      reply_.fail(Error{wire::lite::session_code::kProtocolViolation, reader_.error()});
      session_.violation(std::move(reader_.error()));
      return Poll::Pending;
  }
  ++session_.stats().messages_decoded;
  if (Status st = info.check(); !st) {
    ++session_.stats().protocol_errors;
    cancel(stream_code::kInternalError);
    reply_.fail(Error{st.error().code, what_ + ": " + st.error().message});
    return Poll::Done;
  }
  TrackInfo local;
  local.priority = info.priority;
  local.timescale = info.timescale;
  local.cache.max_age_ns = info.max_age_ms && *info.max_age_ms < UINT64_MAX / 1'000'000
                               ? *info.max_age_ms * 1'000'000
                               : UINT64_MAX;
  reply_.resolve(local);
  finish_send();  // paired close: the publisher FINs after TRACK_INFO
  answered_ = true;
  return drain();
}

// ---- GoawaySendTask ----

void GoawaySendTask::start(Bytes request) {
  request_ = std::move(request);
  wake();
}

Poll GoawaySendTask::step() {
  if (!opened_) {
    switch (open(StreamKind::Goaway, kControlSendOrder)) {
      case Opened::Yes:
        opened_ = true;
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        return Poll::Done;
    }
  }
  switch (flush(*stream_.send, out_, write_waiter_)) {
    case Flush::Done:
      finish_send();  // ready to terminate
      break;
    case Flush::Pending:
      return Poll::Pending;
    case Flush::Failed:
      return Poll::Done;
  }
  return drain();
}

// ---- AuthRequestTask ----

void AuthRequestTask::start(Bytes request, ReplyProducer<AuthGrant> reply) {
  request_ = std::move(request);
  reply_ = std::move(reply);
  wake();
}

void AuthRequestTask::clear() {
  RequestTask::clear();
  opened_ = false;
  reply_ = ReplyProducer<AuthGrant>();
}

void AuthRequestTask::on_abandon(const Error& reason) {
  if (reply_) reply_.fail(reason);
}

Poll AuthRequestTask::step() {
  if (!opened_) {
    switch (open(StreamKind::Auth, kControlSendOrder)) {
      case Opened::Yes:
        opened_ = true;
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        reply_.fail(Error{stream_code::kSessionClosed, "AUTH: the connection is closed"});
        return Poll::Done;
    }
  }
  if (flush(*stream_.send, out_, write_waiter_) == Flush::Failed) {
    reply_.fail(Error{stream_code::kSessionClosed, "AUTH: the stream failed"});
    return Poll::Done;
  }
  const LiteVersion v = session_.wire_version();
  for (;;) {
    wire::lite::AuthReply reply;
    const Got got = reader_.next(
        *stream_.recv, read_waiter_, "AUTH reply",
        [v](std::span<const uint8_t> in) { return wire::lite::decode_auth_reply(in, v); }, reply);
    switch (got) {
      case Got::Message:
        ++session_.stats().messages_decoded;
        if (auto* ok = std::get_if<wire::lite::AuthOk>(&reply)) {
          reply_.resolve(AuthGrant{ok->publish, ok->subscribe, ok->expires_ms});
        } else {
          auto& err = std::get<wire::lite::AuthError>(reply);
          // A refusal, or later a revocation (the Reply keeps its first answer).
          reply_.fail(Error{err.code, "AUTH refused by the peer: " + err.reason});
        }
        continue;
      case Got::Pending:
        return Poll::Pending;
      case Got::Malformed:
        reply_.fail(Error{wire::lite::session_code::kProtocolViolation, reader_.error()});
        session_.violation(std::move(reader_.error()));
        return Poll::Pending;
      case Got::Fin:
      case Got::Reset:
        if (got == Got::Reset) ++session_.stats().resets_received;
        reply_.fail(Error{reader_.code(), "AUTH: the peer ended the stream without an answer"});
        finish_send();  // paired close
        return Poll::Done;
      case Got::Failed:
        reply_.fail(Error{reader_.code(), "AUTH: the connection closed"});
        return Poll::Done;
    }
  }
}

// ---- SetupSendTask ----

void SetupSendTask::start(Bytes setup) {
  setup_ = std::move(setup);
  wake();
}

void SetupSendTask::clear() {
  setup_.reset();
  stream_.reset();
  out_.clear();
  waiter_.cancel();
}

Poll SetupSendTask::step() {
  if (!stream_) {
    Result<SendStreamPtr> opened = session_.conn().open_uni();
    if (!opened) return Poll::Done;
    if (!*opened) {
      waiter_.wait(session_.conn().can_open());
      return Poll::Pending;
    }
    stream_ = std::move(*opened);
    session_.count_opened(StreamKind::Setup);
    stream_->set_send_order(kControlSendOrder);
    out_.push(std::move(setup_));
  }
  switch (flush(*stream_, out_, waiter_)) {
    case Flush::Done:
      (void)stream_->finish();
      return Poll::Done;
    case Flush::Pending:
      return Poll::Pending;
    case Flush::Failed:
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::lite
