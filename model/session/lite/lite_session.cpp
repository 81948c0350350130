#include "model/session/lite/lite_session.h"

#include "model/data/errors.h"
#include "model/session/lite/inbound.h"
#include "model/session/lite/pools.h"

namespace moq::session::lite {

namespace session_code = wire::lite::session_code;
using wire::lite::LiteVersion;

Result<std::unique_ptr<Session>> create_lite_session(Connection& conn, Version version,
                                                     SessionConfig config) {
  if (!wire::lite::lite_version(version)) {
    return Error{session_code::kVersionNegotiationFailed,
                 std::string(version_name(version)) + " is not a moq-lite version"};
  }
  return std::unique_ptr<Session>(new LiteSession(conn, version, std::move(config)));
}

LiteSession::LiteSession(Connection& conn, Version version, SessionConfig config)
    : conn_(conn),
      version_(version),
      wire_(*wire::lite::lite_version(version)),
      config_(std::move(config)),
      client_(conn.is_client()),
      pools_(std::make_unique<Pools>()) {
  TrackInfo scratch;
  scratch.cache.max_groups = 1;  // fetched groups live with their consumers, not in a cache
  fetch_groups_ = TrackProducer::create("fetched groups", conn.executor().clock(), scratch);
  mirror_origin_ = OriginProducer::create();
  accept_ = std::make_unique<AcceptTask>(*this);
  accept_->wake();

  // Our SETUP goes out at once; nothing waits for the peer's.
  wire::lite::SetupMessage setup;
  if (client_ && !config_.path.empty()) setup.path = config_.path;
  if (config_.hop_id != 0) setup.hop = config_.hop_id;
  Result<Bytes> bytes = encode(setup, wire::lite::stream_type_byte(wire::lite::UniStream::Setup));
  if (bytes) pools_->setup_send.acquire(*this).start(std::move(*bytes));
}

LiteSession::~LiteSession() {
  if (!closed_) close(session_code::kNoError, "session dropped");
  // No task runs now: end every job in progress with the session's error, then free them.
  while (SessionTask* t = active_.front())
    t->abandon(*error_);
  accept_.reset();
  pools_.reset();
}

// ---- Closing ----

void LiteSession::close(uint64_t code, std::string_view reason) {
  if (closed_) return;
  conn_.close(code, reason);
  shut(Error{code, std::string(reason)});
}

void LiteSession::violation(std::string message) {
  if (closed_) return;
  ++counters_.protocol_errors;
  close(session_code::kProtocolViolation, message);
}

void LiteSession::connection_closed() {
  if (closed_) return;
  const std::optional<Error>& e = conn_.close_error();
  shut(e ? *e : Error{session_code::kNoError, "connection closed"});
}

void LiteSession::shut(Error reason) {
  closed_ = true;
  error_ = std::move(reason);
  // Viewers of the peer's broadcasts see the end (announce listeners get Unannounce).
  for (auto& [path, m] : mirrors_)
    m.broadcast.close(*error_);
  // ...and then the end of the announcements, so no announced() consumer waits forever.
  mirror_origin_.close(*error_);
  // Every task ends its job on its next poll (SessionTask::poll).
  active_.for_each([](SessionTask& t) { t.wake(); });
  closed_list_.notify_all();
}

Status LiteSession::check_open(const char* what) const {
  if (closed_) {
    return Error{error_->code,
                 std::string(what) + ": the session is closed (" + error_->message + ")"};
  }
  if (peer_goaway_) {
    return Error{wire::lite::stream_code::kGoingAway,
                 std::string(what) + ": the peer sent GOAWAY; open no new requests"};
  }
  return {};
}

// ---- Viewer role ----

Result<FetchConsumer> LiteSession::fetch(const Path& broadcast, std::string_view track,
                                         uint64_t group, const FetchOptions& options) {
  if (Status st = check_open("fetch"); !st) return st.error();
  if (options.frame_end && *options.frame_end < options.frame_start) {
    return Error{data_error::kInvalid, "fetch: frame_end " + std::to_string(*options.frame_end) +
                                           " is below frame_start " +
                                           std::to_string(options.frame_start)};
  }
  // The message struct is a member so that its strings keep their capacity between fetches.
  fetch_msg_.broadcast.assign(broadcast.str());
  fetch_msg_.track.assign(track);
  fetch_msg_.priority = options.priority;
  fetch_msg_.group = group;
  fetch_msg_.frame_start = options.frame_start;
  fetch_msg_.frame_end = options.frame_end;
  Result<Bytes> bytes =
      encode(fetch_msg_, wire::lite::stream_type_byte(wire::lite::BidiStream::Fetch));
  if (!bytes) return bytes.error();
  Result<GroupProducer> producer = fetch_groups_.append_group();
  if (!producer) return producer.error();
  FetchConsumer consumer(group, options.frame_start, producer->consume());
  pools_->fetch_request.acquire(*this).start(std::move(*bytes), std::move(*producer),
                                             kControlSendOrder, broadcast, track, group);
  return consumer;
}

LiteSession::Mirror& LiteSession::mirror(const Path& path) {
  auto it = mirrors_.find(path.str());
  if (it != mirrors_.end()) return it->second;
  Mirror m;
  m.broadcast = BroadcastProducer::create(executor().clock());
  m.broadcast.serve_requests();
  return mirrors_.emplace(path.str(), std::move(m)).first->second;
}

Result<TrackConsumer> LiteSession::subscribe(const Path& broadcast, std::string_view track,
                                             const TrackPreferences& preferences) {
  if (Status st = check_open("subscribe"); !st) return st.error();
  Mirror& m = mirror(broadcast);
  Result<TrackConsumer> consumer = m.broadcast.consume().subscribe(track, preferences);
  if (!consumer) return consumer.error();
  // A new track name queued a request: that is one upstream subscription (a known one shares).
  while (std::optional<TrackRequest> request = m.broadcast.next_request()) {
    pools_->subscribe_request.acquire(*this).start(broadcast, std::move(*request),
                                                   next_subscribe_id_++);
  }
  return consumer;
}

Result<AnnounceConsumer> LiteSession::announced(const Path& prefix) {
  if (Status st = check_open("announced"); !st) return st.error();
  AnnounceConsumer consumer = mirror_origin_.consume().announced(prefix);
  pools_->announce_request.acquire(*this).start(prefix);
  return consumer;
}

Result<Reply<TrackInfo>> LiteSession::track_info(const Path& broadcast, std::string_view track) {
  if (Status st = check_open("track_info"); !st) return st.error();
  wire::lite::Track msg;
  msg.broadcast = broadcast.str();
  msg.track = track;
  Result<Bytes> bytes = encode(msg, wire::lite::stream_type_byte(wire::lite::BidiStream::Track));
  if (!bytes) return bytes.error();
  ReplyProducer<TrackInfo> reply = ReplyProducer<TrackInfo>::create();
  Reply<TrackInfo> out = reply.consume();
  pools_->track_info_request.acquire(*this).start(
      std::move(*bytes), std::move(reply),
      "TRACK '" + broadcast.str() + "' track '" + std::string(track) + "'");
  return out;
}

// ---- Session control ----

Status LiteSession::goaway(std::string_view uri) {
  if (closed_) return check_open("goaway");
  if (goaway_sent_) return Error{data_error::kInvalid, "goaway: GOAWAY was sent already"};
  if (client_ && !uri.empty()) {
    return Error{data_error::kInvalid, "goaway: only a server may send a redirect URI"};
  }
  wire::lite::Goaway msg;
  msg.uri = uri;
  Result<Bytes> bytes = encode(msg, wire::lite::stream_type_byte(wire::lite::BidiStream::Goaway));
  if (!bytes) return bytes.error();
  goaway_sent_ = true;
  pools_->goaway_send.acquire(*this).start(std::move(*bytes));
  return {};
}

Result<Reply<AuthGrant>> LiteSession::authenticate(std::span<const uint8_t> token) {
  if (Status st = check_open("authenticate"); !st) return st.error();
  if (!wire::lite::has_auth(wire_)) {
    return Error{data_error::kInvalid,
                 "authenticate: AUTH is not defined on " + std::string(version_name(version_))};
  }
  wire::lite::Auth msg;
  msg.token.assign(token.begin(), token.end());
  Result<Bytes> bytes = encode(msg, wire::lite::stream_type_byte(wire::lite::BidiStream::Auth));
  if (!bytes) return bytes.error();
  ReplyProducer<AuthGrant> reply = ReplyProducer<AuthGrant>::create();
  Reply<AuthGrant> out = reply.consume();
  pools_->auth_request.acquire(*this).start(std::move(*bytes), std::move(reply));
  return out;
}

// ---- Peer control messages ----

Status LiteSession::on_peer_setup(const wire::lite::SetupMessage& setup) {
  if (peer_setup_) return Error{session_code::kProtocolViolation, "SETUP: a second Setup stream"};
  if (client_ && setup.path) {
    return Error{session_code::kProtocolViolation,
                 "SETUP: field 'Path': a server may not send the Path parameter"};
  }
  if (client_ && setup.role) {
    return Error{session_code::kProtocolViolation,
                 "SETUP: field 'Role': a server may not send the Role parameter"};
  }
  peer_setup_ = setup;
  return {};
}

Status LiteSession::on_peer_goaway(std::string uri) {
  if (peer_goaway_) return Error{session_code::kProtocolViolation, "GOAWAY: received twice"};
  if (!client_ && !uri.empty()) {
    return Error{session_code::kProtocolViolation,
                 "GOAWAY: field 'New Session URI': a client may not send a redirect"};
  }
  peer_goaway_ = std::move(uri);
  return {};
}

// ---- Registries ----

SubscribeRequestTask* LiteSession::find_subscription(uint64_t id) const {
  auto it = subscriptions_.find(id);
  return it == subscriptions_.end() ? nullptr : it->second;
}

void LiteSession::register_subscription(uint64_t id, SubscribeRequestTask& task) {
  subscriptions_[id] = &task;
}

void LiteSession::unregister_subscription(uint64_t id) {
  subscriptions_.erase(id);
}

void LiteSession::route_started(const Path& path) {
  if (closed_) return;
  Mirror& m = mirror(path);
  if (m.routes++ == 0) (void)mirror_origin_.publish(path, m.broadcast.consume());
}

void LiteSession::route_ended(const Path& path) {
  auto it = mirrors_.find(path.str());
  if (it == mirrors_.end() || it->second.routes == 0) return;
  if (--it->second.routes == 0 && !closed_) (void)mirror_origin_.unpublish(path);
}

}  // namespace moq::session::lite
