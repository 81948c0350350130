#include "model/session/ietf/ietf_session.h"

#include <algorithm>
#include <string>
#include <utility>

#include "model/data/errors.h"
#include "model/session/core/dispatch.h"
#include "model/session/ietf/control.h"
#include "model/session/ietf/errors.h"
#include "model/session/ietf/names.h"
#include "model/session/ietf/pools.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::session::ietf {

namespace {
constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);
}  // namespace

Result<std::unique_ptr<Session>> create_ietf_session(Connection& conn, Version version,
                                                     SessionConfig config) {
  if (!w::ietf_version(version))
    return Error{0x15, "create_ietf_session: " + std::string(version_name(version)) +
                           " is not a moq-transport version"};
  if (conn.alpn() != version_alpn(version))
    return Error{0x15, "create_ietf_session: the connection negotiated ALPN '" +
                           std::string(conn.alpn()) + "', not '" +
                           std::string(version_alpn(version)) + "'"};
  if (conn.close_error())
    return Error{transport_error::kConnectionClosed, "create_ietf_session: connection closed"};
  return std::unique_ptr<Session>(new IetfSession(conn, version, std::move(config)));
}

int64_t data_send_order(uint8_t local_priority, uint64_t group, bool ascending) {
  constexpr uint64_t kMask = (uint64_t{1} << 40) - 1;
  const uint64_t g = group & kMask;
  return (int64_t{local_priority} << 40) + static_cast<int64_t>(ascending ? kMask - g : g);
}

bool PeerRequestIds::accept(uint64_t id) {
  if ((id & 1) != (next_ & 1) || id < next_) return false;
  if (id == next_) {
    next_ += 2;
    size_t used = 0;
    while (used < ahead_.size() && ahead_[used] == next_) {
      next_ += 2;
      ++used;
    }
    ahead_.erase(ahead_.begin(), ahead_.begin() + static_cast<ptrdiff_t>(used));
    return true;
  }
  auto it = std::lower_bound(ahead_.begin(), ahead_.end(), id);
  if (it != ahead_.end() && *it == id) return false;
  ahead_.insert(it, id);
  return true;
}

// ---- IetfSession ----

IetfSession::IetfSession(Connection& conn, Version version, SessionConfig config)
    : SessionBase(conn, version, std::move(config), {uint64_t(w::RequestErrorCode::GoingAway)}),
      v_(*w::ietf_version(version)),
      next_request_id_(conn.is_client() ? 0 : 1),
      peer_ids_(conn.is_client() ? 1 : 0),
      pools_(std::make_unique<Pools>(*this)),
      control_(std::make_unique<ControlTask>(*this)) {
  control_->wake();
}

IetfSession::~IetfSession() {
  end_jobs();
  control_.reset();
  pools_.reset();
}

bool IetfSession::accept_peer_request_id(uint64_t id, const char* message) {
  if (peer_ids_.accept(id)) return true;
  violation(Error{
      uint64_t(w::SessionError::InvalidRequestId),
      std::string(message) + ": field 'request id': " + w::describe_value(id) +
          ((id & 1) != (is_client() ? 1u : 0u) ? " has the wrong parity" : " was used before")});
  return false;
}

// ---- Viewer API ----

Result<FetchConsumer> IetfSession::fetch_into(const Path& broadcast, std::string_view track,
                                              uint64_t group, const FetchOptions& options,
                                              GroupProducer&& into) {
  if (Status st = check_open("FETCH"); !st) return st.error();
  if (options.frame_end && *options.frame_end < options.frame_start)
    return Error{data_error::kInvalid, "FETCH: frame_end " + std::to_string(*options.frame_end) +
                                           " is before frame_start " +
                                           std::to_string(options.frame_start)};
  FetchConsumer out(group, options.frame_start, into.consume());
  pools_->fetch_request.acquire().start(broadcast, track, group, options, std::move(into));
  return out;
}

void IetfSession::serve_subscription(const Path& broadcast, TrackRequest request) {
  pools_->subscribe_request.acquire().start(broadcast, std::move(request));
}

Result<AnnounceConsumer> IetfSession::announced(const Path& prefix) {
  Result<AnnounceConsumer> consumer = SessionBase::announced(prefix);
  if (!consumer) return consumer;
  bool covered = false;
  namespace_requests.for_each(
      [&](NamespaceRequestTask& r) { covered |= prefix.has_prefix(r.prefix()); });
  if (!covered) {
    // A broader prefix replaces the narrower requests (the peer refuses overlapping prefixes).
    namespace_requests.for_each([&](NamespaceRequestTask& r) {
      if (r.prefix().has_prefix(prefix)) r.withdraw();
    });
    pools_->namespace_request.acquire().start(prefix);
  }
  return consumer;
}

Result<Reply<TrackInfo>> IetfSession::track_info(const Path& broadcast, std::string_view track) {
  if (Status st = check_open("TRACK_STATUS"); !st) return st.error();
  ReplyProducer<TrackInfo> reply = ReplyProducer<TrackInfo>::create();
  Reply<TrackInfo> out = reply.consume();
  pools_->track_status_request.acquire().start(broadcast, track, std::move(reply));
  return out;
}

Status IetfSession::goaway(std::string_view uri) {
  if (is_closed())
    return Error{transport_error::kConnectionClosed, "GOAWAY: the session is closed"};
  if (goaway_sent()) return Error{w::kProtocolViolation, "GOAWAY: sent already"};
  if (is_client() && !uri.empty())
    return Error{w::kProtocolViolation, "GOAWAY: a client's New Session URI must be empty"};
  if (!w::sends_goaway(v_)) {
    // 17.4: a -17 peer (@moq/lite) closes the session on anything after SETUP on the control
    // stream, so new requests are refused (GOING_AWAY) without telling it.
    set_goaway_sent();
    return {};
  }
  w::GoAway g;
  g.new_session_uri = std::string(uri);
  if (w::goaway_has_request_id(v_)) g.request_id = peer_ids_.lowest_unseen();
  Result<Bytes> b = encode(g);
  if (!b) return b.error();
  set_goaway_sent();
  control_->queue(std::move(*b));
  return {};
}

Result<Reply<AuthGrant>> IetfSession::authenticate(std::span<const uint8_t>) {
  return Error{uint64_t(w::RequestErrorCode::NotSupported),
               "authenticate: moq-transport has no AUTH exchange (tokens travel in "
               "AUTHORIZATION_TOKEN parameters)"};
}

// ---- Streams the peer opens ----

bool IetfSession::route_fetch_stream(uint64_t request_id, core::StreamInput& input) {
  bool taken = false;
  fetching.for_each([&](FetchRequestTask& f) {
    if (!taken && f.request_id() == request_id) taken = f.take_data(input);
  });
  if (taken) return true;
  subscribed.for_each([&](SubscribeRequestTask& c) {
    if (!taken) taken = c.take_join_stream(request_id, input);
  });
  return taken;
}

void IetfSession::on_peer_setup(const w::Setup& setup) {
  // PATH and AUTHORITY come from clients only (draft-ietf-moq-transport, SETUP options).
  if (is_client() && (setup.path || setup.authority)) {
    violation(std::string("SETUP: field '") + (setup.path ? "PATH" : "AUTHORITY") +
              "': sent by a server");
    return;
  }
  for (const w::Token& t : setup.authorization_tokens) {
    if (t.alias_type == w::TokenAliasType::Delete || t.alias_type == w::TokenAliasType::UseAlias) {
      violation("SETUP: field 'AUTHORIZATION_TOKEN': DELETE and USE_ALIAS are not allowed");
      return;
    }
  }
}

void IetfSession::on_peer_goaway(const w::GoAway& goaway) {
  if (!is_client() && !goaway.new_session_uri.empty()) {
    violation("GOAWAY: field 'new session uri': a client's URI must be empty");
    return;
  }
  set_peer_goaway(goaway.new_session_uri);
}

namespace {

// The messages that may open a request stream (draft-ietf-moq-transport, session initialization),
// each started in its handler; any other first message is unexpected on a request stream.
struct RequestOpener {
  IetfSession& s;
  SendStreamPtr& send;
  core::StreamInput& input;
  w::ControlMessage& first;

  // Counts the stream, checks the Request ID and refuses new requests after our GOAWAY.
  bool admit(uint64_t id, StreamKind kind, const char* name) {
    s.count_accepted(kind);
    if (!s.accept_peer_request_id(id, name)) return false;
    if (s.refusing_requests()) {
      refuse(w::RequestErrorCode::GoingAway, "this endpoint sent GOAWAY");
      return false;
    }
    return true;
  }
  void refuse(w::RequestErrorCode code, std::string reason) {
    s.pools().refuse.acquire().start(std::move(send), input, code, std::move(reason));
  }

  bool on(const w::Subscribe& m) {
    if (admit(m.request_id, StreamKind::Subscribe, "SUBSCRIBE"))
      s.pools().subscribe_serve.acquire().start(std::move(send), input, first);
    return true;
  }
  bool on(const w::Fetch& m) {
    if (admit(m.request_id, StreamKind::Fetch, "FETCH"))
      s.pools().fetch_serve.acquire().start(std::move(send), input, first);
    return true;
  }
  bool on(const w::TrackStatus& m) {
    if (admit(m.request_id, StreamKind::Track, "TRACK_STATUS"))
      s.pools().track_status_serve.acquire().start(std::move(send), input, first);
    return true;
  }
  bool on(const w::SubscribeNamespace& m) {
    if (admit(m.request_id, StreamKind::Announce, "SUBSCRIBE_NAMESPACE"))
      s.pools().namespace_serve.acquire().start(std::move(send), input, first);
    return true;
  }
  bool on(const w::PublishNamespace& m) {
    if (!admit(m.request_id, StreamKind::Announce, "PUBLISH_NAMESPACE")) return true;
    std::optional<Path> path = path_of(m.track_namespace);
    if (!path) {
      refuse(w::RequestErrorCode::NotSupported,
             "a namespace field holding '/' names no broadcast path here");
      return true;
    }
    s.pools().publish_namespace_serve.acquire().start(std::move(send), input, std::move(*path));
    return true;
  }
  bool on(const w::Publish& m) {
    if (!admit(m.request_id, StreamKind::Subscribe, "PUBLISH")) return true;
    if (s.aliases.find(m.track_alias).kind == AliasTable::Kind::Bound) {
      s.violation(Error{uint64_t(w::SessionError::DuplicateTrackAlias),
                        "PUBLISH: field 'track alias': " + w::describe_value(m.track_alias) +
                            " is bound to another subscription"});
      return true;
    }
    std::optional<Path> path = path_of(m.track_namespace);
    if (!s.config().accept_pushed_tracks || !path) {
      refuse_publish(m, w::RequestErrorCode::Uninterested,
                     !path ? "a namespace field holding '/' names no broadcast path here"
                           : "this endpoint does not take PUBLISH");
      return true;
    }
    if (has_mandatory_property(m.track_properties)) {
      refuse_publish(m, w::RequestErrorCode::UnsupportedExtension,
                     "PUBLISH carries an unknown mandatory track property");
      return true;
    }
    Result<TrackProducer> track = s.peer().push_track(
        *path, m.track_name, s.copied_track_info(track_info_of(m.track_properties)));
    if (!track) {
      refuse_publish(m, w::RequestErrorCode::Uninterested, track.error().message);
      return true;
    }
    s.pools().subscribe_request.acquire().start_pushed(std::move(send), input, *path, m,
                                                       std::move(*track));
    return true;
  }
  // Spec 3.6: REQUEST_ERROR plus STOP_SENDING, and any data already sent for the alias stopped.
  void refuse_publish(const w::Publish& m, w::RequestErrorCode code, std::string reason) {
    s.aliases.tombstone(m.track_alias, nullptr);
    input.stream().stop(kCancelled);
    refuse(code, std::move(reason));
  }
  bool on(const w::SubscribeTracks& m) {
    if (admit(m.request_id, StreamKind::Announce, "SUBSCRIBE_TRACKS"))
      refuse(w::RequestErrorCode::NotSupported, "SUBSCRIBE_TRACKS is not supported");
    return true;
  }
};

}  // namespace

void IetfSession::dispatch_request(SendStreamPtr send, core::StreamInput& input,
                                   w::ControlMessage& first) {
  RequestOpener opener{*this, send, input, first};
  Status st = core::dispatch(opener, first, "request",
                             [this](const auto& m) { return message_name(m, v_); });
  if (!st) {
    ++stats().unknown_streams;
    violation(st.error());
  }
}

}  // namespace moq::session::ietf
