#include "model/session/lite/lite_session.h"

#include "model/data/errors.h"
#include "model/session/lite/pools.h"

namespace moq::session::lite {

namespace session_code = wire::lite::session_code;

Result<std::unique_ptr<Session>> create_lite_session(Connection& conn, Version version,
                                                     SessionConfig config) {
  if (!wire::lite::lite_version(version)) {
    return Error{session_code::kVersionNegotiationFailed,
                 std::string(version_name(version)) + " is not a moq-lite version"};
  }
  return std::unique_ptr<Session>(new LiteSession(conn, version, std::move(config)));
}

LiteSession::LiteSession(Connection& conn, Version version, SessionConfig config)
    : SessionBase(conn, version, std::move(config), {wire::lite::stream_code::kGoingAway}),
      wire_(*wire::lite::lite_version(version)),
      pools_(std::make_unique<Pools>(*this)) {
  accept_ = std::make_unique<AcceptTask>(*this);
  accept_->wake();

  // Our SETUP goes out at once; nothing waits for the peer's.
  wire::lite::SetupMessage setup;
  if (is_client() && !this->config().path.empty()) setup.path = this->config().path;
  if (this->config().hop_id != 0) setup.hop = this->config().hop_id;
  Result<Bytes> bytes = encode(setup, wire::lite::stream_type_byte(wire::lite::UniStream::Setup));
  if (bytes) pools_->setup_send.acquire().start(std::move(*bytes));
}

LiteSession::~LiteSession() {
  end_jobs();
  accept_.reset();
  pools_.reset();
}

// ---- Viewer role ----

Result<FetchConsumer> LiteSession::fetch_into(const Path& broadcast, std::string_view track,
                                              uint64_t group, const FetchOptions& options,
                                              GroupProducer&& into) {
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
  FetchConsumer consumer(group, options.frame_start, into.consume());
  pools_->fetch_request.acquire().start(std::move(*bytes), std::move(into), broadcast, track,
                                        group);
  return consumer;
}

void LiteSession::serve_subscription(const Path& broadcast, TrackRequest request) {
  pools_->subscribe_request.acquire().start(broadcast, std::move(request), next_subscribe_id_++);
}

Result<AnnounceConsumer> LiteSession::announced(const Path& prefix) {
  Result<AnnounceConsumer> consumer = SessionBase::announced(prefix);
  if (consumer) pools_->announce_request.acquire().start(prefix);
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
  pools_->track_info_request.acquire().start(
      std::move(*bytes), std::move(reply),
      "TRACK '" + broadcast.str() + "' track '" + std::string(track) + "'");
  return out;
}

// ---- Session control ----

Status LiteSession::goaway(std::string_view uri) {
  if (is_closed()) return check_open("goaway");
  if (goaway_sent()) return Error{data_error::kInvalid, "goaway: GOAWAY was sent already"};
  if (is_client() && !uri.empty()) {
    return Error{data_error::kInvalid, "goaway: only a server may send a redirect URI"};
  }
  wire::lite::Goaway msg;
  msg.uri = uri;
  Result<Bytes> bytes = encode(msg, wire::lite::stream_type_byte(wire::lite::BidiStream::Goaway));
  if (!bytes) return bytes.error();
  set_goaway_sent();
  pools_->goaway_send.acquire().start(std::move(*bytes));
  return {};
}

Result<Reply<AuthGrant>> LiteSession::authenticate(std::span<const uint8_t> token) {
  if (Status st = check_open("authenticate"); !st) return st.error();
  if (!wire::lite::has_auth(wire_)) {
    return Error{data_error::kInvalid,
                 "authenticate: AUTH is not defined on " + std::string(version_name(version()))};
  }
  wire::lite::Auth msg;
  msg.token.assign(token.begin(), token.end());
  Result<Bytes> bytes = encode(msg, wire::lite::stream_type_byte(wire::lite::BidiStream::Auth));
  if (!bytes) return bytes.error();
  ReplyProducer<AuthGrant> reply = ReplyProducer<AuthGrant>::create();
  Reply<AuthGrant> out = reply.consume();
  pools_->auth_request.acquire().start(std::move(*bytes), std::move(reply));
  return out;
}

// ---- Peer control messages ----

Status LiteSession::on_peer_setup(const wire::lite::SetupMessage& setup) {
  if (peer_setup_) return Error{session_code::kProtocolViolation, "SETUP: a second Setup stream"};
  if (is_client() && setup.path) {
    return Error{session_code::kProtocolViolation,
                 "SETUP: field 'Path': a server may not send the Path parameter"};
  }
  if (is_client() && setup.role) {
    return Error{session_code::kProtocolViolation,
                 "SETUP: field 'Role': a server may not send the Role parameter"};
  }
  peer_setup_ = true;
  return {};
}

Status LiteSession::on_peer_goaway(std::string uri) {
  if (peer_goaway()) return Error{session_code::kProtocolViolation, "GOAWAY: received twice"};
  if (!is_client() && !uri.empty()) {
    return Error{session_code::kProtocolViolation,
                 "GOAWAY: field 'New Session URI': a client may not send a redirect"};
  }
  set_peer_goaway(std::move(uri));
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

}  // namespace moq::session::lite
