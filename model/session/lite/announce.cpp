#include "model/session/lite/announce.h"

#include <vector>

#include "model/session/core/dispatch.h"
#include "model/session/lite/lite_session.h"
#include "model/session/lite/stream_codes.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;
namespace session_code = wire::lite::session_code;
using wire::lite::LiteVersion;

// ---- Publisher ----

void AnnounceServeTask::start(SendStreamPtr send, core::StreamInput& input) {
  adopt(std::move(send), input);
  wake();
}

void AnnounceServeTask::clear() {
  BidiTask::clear();
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
    if (Result<Bytes> b = session_.encode(start)) send(std::move(*b));
    ids_.emplace(key, next_id_++);
    return;
  }
  auto it = ids_.find(key);
  if (it == ids_.end()) return;
  if (Result<Bytes> b = session_.encode(wire::lite::AnnounceEnd{it->second})) send(std::move(*b));
  ids_.erase(it);
}

Poll AnnounceServeTask::step() {
  if (!started_) {
    const LiteVersion v = session_.wire_version();
    wire::lite::AnnounceRequest req;
    if (core::Then<> p = core::on_read(next(wire::lite::AnnounceRequest::kName,
                                            decoder_of<wire::lite::AnnounceRequest>(v), req)))
      return *p;
    started_ = true;
    prefix_ = Path(req.prefix);
    hidden_ = req.hidden;
    send_->set_send_order(kControlSendOrder);
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
      send(std::move(*ok));
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
  if (flush() == core::Flush::Failed) return Poll::Done;
  // The subscriber sends nothing after the request; its FIN or reset ends the stream.
  switch (in_.fill()) {
    case ReadStatus::Data:
      session_.violation(Error{session_code::kProtocolViolation,
                               "ANNOUNCE_REQUEST: unexpected bytes after the request"});
      return Poll::Pending;
    case ReadStatus::WouldBlock:
      read_waiter_.wait(in_.readable());
      return Poll::Pending;
    case ReadStatus::Fin:
      (void)finish();  // paired close
      return Poll::Done;
    case ReadStatus::Reset:
      ++session_.stats().resets_received;
      cancel(stream_code::kCancelled);
      return Poll::Done;
    case ReadStatus::Error:
      return Poll::Done;
  }
  return Poll::Done;
}

// ---- Viewer ----

void AnnounceRequestTask::start(const Path& prefix) {
  prefix_ = prefix;
  wire::lite::AnnounceRequest req;
  req.prefix = prefix.str();
  req.hidden =
      session_.config().announce_hidden && wire::lite::has_hidden_flag(session_.wire_version());
  if (Result<Bytes> b =
          session_.encode(req, wire::lite::stream_type_byte(wire::lite::BidiStream::Announce))) {
    request_ = std::move(*b);
  }
  wake();
}

void AnnounceRequestTask::clear() {
  withdraw_all();
  BidiTask::clear();
  request_.reset();
  ok_received_ = false;
  prefix_ = Path();
  next_id_ = 0;
}

void AnnounceRequestTask::on_abandon(const Error&) {
  withdraw_all();
}

void AnnounceRequestTask::withdraw_all() {
  for (const auto& [id, path] : routes_) {
    if (path) session_.peer().unannounce(*path);
  }
  routes_.clear();
  live_.clear();
}

bool AnnounceRequestTask::on(const wire::lite::AnnounceStart& start) {
  const uint64_t id = next_id_++;
  Path path = prefix_.join(Path(start.suffix));
  if (live_.count(path.str())) {
    session_.violation(Error{session_code::kProtocolViolation,
                             "ANNOUNCE_START: field 'Route Prefix Suffix': route '" + path.str() +
                                 "' is already live on this stream"});
    return true;
  }
  live_.emplace(path.str(), id);
  if (start.hops.contains(session_.config().hop_id)) {
    routes_.emplace(id, std::nullopt);  // a loop through us: keep the ID, ignore the route
    return true;
  }
  session_.peer().announce(path);
  routes_.emplace(id, std::move(path));
  return true;
}

std::map<uint64_t, std::optional<Path>>::iterator AnnounceRequestTask::route(uint64_t id,
                                                                             const char* message) {
  auto it = routes_.find(id);
  if (it == routes_.end()) {
    session_.violation(Error{session_code::kProtocolViolation,
                             std::string(message) + ": field 'Announce ID': " + std::to_string(id) +
                                 (id < next_id_ ? " is already retired" : " was never assigned")});
  }
  return it;
}

bool AnnounceRequestTask::on(const wire::lite::AnnounceEnd& end) {
  auto it = route(end.id, wire::lite::AnnounceEnd::kName);
  if (it == routes_.end()) return true;
  if (it->second) {
    live_.erase(it->second->str());
    session_.peer().unannounce(*it->second);
  } else {
    for (auto l = live_.begin(); l != live_.end(); ++l) {
      if (l->second == end.id) {
        live_.erase(l);
        break;
      }
    }
  }
  routes_.erase(it);
  return true;
}

bool AnnounceRequestTask::on(const wire::lite::AnnounceUpdate& update) {
  (void)route(update.id, wire::lite::AnnounceUpdate::kName);  // only the ID is checked
  return true;
}

Poll AnnounceRequestTask::step() {
  if (!send_) {
    switch (open(StreamKind::Announce, kControlSendOrder)) {
      case Opened::Yes:
        send(std::move(request_));
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        return Poll::Done;
    }
  }
  if (flush() == core::Flush::Failed) return Poll::Done;
  const LiteVersion v = session_.wire_version();
  wire::lite::AnnounceOk ok;
  wire::lite::AnnounceMessage m;
  // Every end returns: the read never goes on past it.
  return core::read_each(
             [&] {
               if (!ok_received_) {
                 return next(
                     wire::lite::AnnounceOk::kName,
                     [v](std::span<const uint8_t> bytes) {
                       return wire::lite::AnnounceOk::decode(bytes, v);
                     },
                     ok);
               }
               return next(
                   "ANNOUNCE message",
                   [v](std::span<const uint8_t> bytes) {
                     return wire::lite::decode_announce_message(bytes, v);
                   },
                   m);
             },
             [&](core::on::Message) -> core::Then<> {
               if (!ok_received_) {  // the read was the ANNOUNCE_OK
                 ok_received_ = true;
                 return core::kGoOn;
               }
               if (Status st = core::dispatch(*this, m, "Announce",
                                              [](const auto& msg) { return message_name(msg); });
                   !st) {
                 session_.violation(st.error());
               }
               if (session_.is_closed()) return Poll::Pending;
               return core::kGoOn;
             },
             [&](core::on::Ended) {
               (void)finish();  // paired close; every route learned here is gone (clear())
               return Poll::Done;
             },
             [](core::on::Closed) { return Poll::Done; })
      .value_or(Poll::Done);
}

}  // namespace moq::session::lite
