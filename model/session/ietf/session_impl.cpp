#include "model/session/ietf/session_impl.h"

#include <algorithm>
#include <string>
#include <utility>

#include "model/session/ietf/names.h"
#include "model/session/ietf/publisher.h"
#include "model/session/ietf/receiver.h"
#include "model/session/ietf/request_task.h"
#include "model/session/ietf/subscriber.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::session::ietf_session {

namespace {

constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);
constexpr std::string_view kImplementation = "moqbench";

}  // namespace

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

// ---- The driver: control stream, incoming streams, datagrams, local announcements ----

class Driver final : public Task {
 public:
  explicit Driver(IetfSession& s) : Task(s.executor(), "ietf session driver"), s_(s) {
    // A client that publishes announces each broadcast with PUBLISH_NAMESPACE.
    if (s.is_client() && s.config().publish) announcements_ = s.config().publish.announced(Path());
  }
  ~Driver() override { s_.driver_gone(); }

  void wake_for_control() { wake(); }

  Poll poll() override {
    Connection& conn = s_.conn();
    if (conn.close_error()) {
      s_.on_connection_closed();
      return Poll::Done;
    }
    if (s_.is_closed()) return Poll::Done;
    if (!open_control()) return s_.is_closed() ? Poll::Done : Poll::Pending;
    for (;;) {
      Result<RecvStreamPtr> u = conn.accept_uni();
      if (!u || !*u) break;
      accept_uni_stream(s_, std::move(*u));
    }
    for (;;) {
      Result<BidiStream> b = conn.accept_bidi();
      if (!b || !*b) break;
      accept_request(std::move(*b));
      if (s_.is_closed()) return Poll::Done;
    }
    while (std::optional<Bytes> d = conn.recv_datagram()) {
      // Objects travel on streams here; a datagram is checked and dropped (spec 4.4 lets a
      // receiver drop one it cannot place).
      Decoded<w::ObjectDatagram> r = w::decode_datagram(d->span());
      if (!r.ok()) {
        s_.violation(std::move(r.error));
        return Poll::Done;
      }
    }
    if (announcements_) {
      AnnounceEvent ev;
      while (announcements_.next(ev) == Next::Ready) {
        if (ev.kind == AnnounceEvent::Kind::Announce) {
          s_.scope().spawn<PublishNamespaceClient>(s_, ev.path);
        } else {
          s_.publishing_namespaces.for_each([&](PublishNamespaceClient& c) {
            if (c.path() == ev.path) {
              IntrusiveList<PublishNamespaceClient, PubNsTag>::remove(c);
              c.withdraw();
            }
          });
        }
      }
      announce_.wait(announcements_.events());
    }
    incoming_.wait(conn.incoming());
    datagrams_.wait(conn.datagrams());
    closed_.wait(conn.closed());
    return Poll::Pending;
  }

 private:
  // Opens our control stream and writes SETUP (spec 1.2), then anything queued (GOAWAY).
  bool open_control() {
    if (!s_.control_out) {
      Result<SendStreamPtr> r = s_.conn().open_uni();
      if (!r) return false;
      if (!*r) {
        open_.wait(s_.conn().can_open());
        return false;
      }
      s_.control_out = std::move(*r);
      s_.control_out->set_send_order(kControlSendOrder);
      ++s_.stats().streams_opened[static_cast<size_t>(StreamKind::Setup)];
      w::Setup setup;
      if (s_.is_client() && !s_.config().path.empty()) setup.path = s_.config().path;
      setup.implementation = std::string(kImplementation);
      Result<Bytes> b = s_.encode(setup);
      if (!b) {
        s_.violation(Error{0x1, "SETUP: " + b.error().message});
        return false;
      }
      BufChain chain;
      chain.push(std::move(*b));
      chain.append(s_.control_pending);
      s_.control_pending.clear();
      if (!s_.control_outbox.send(*s_.control_out, chain)) return false;
    } else if (!s_.control_pending.empty()) {
      if (!s_.control_outbox.send(*s_.control_out, s_.control_pending)) return false;
    } else if (!s_.control_outbox.flush(*s_.control_out)) {
      return false;
    }
    if (!s_.control_outbox.idle()) control_wr_.wait(s_.control_out->writable());
    return true;
  }

  // The first message of a request stream usually arrived with the stream: dispatch at once.
  void accept_request(BidiStream stream) {
    StreamInput input(std::move(stream.recv));
    w::ControlMessage first;
    switch (read_message(s_, input, first, nullptr)) {
      case In::Message:
        s_.dispatch_request(std::move(stream.send), std::move(input), std::move(first));
        return;
      case In::Pending:
        // The rest of the first message is still on its way (what arrived stays in input).
        s_.scope().spawn<RequestOpener>(s_, std::move(stream.send), std::move(input));
        return;
      case In::Fin:
      case In::Reset:
      case In::Closed:
        return;
    }
  }

  IetfSession& s_;
  AnnounceConsumer announcements_;
  Waiter incoming_{*this};
  Waiter datagrams_{*this};
  Waiter closed_{*this};
  Waiter open_{*this};
  Waiter control_wr_{*this};
  Waiter announce_{*this};
};

// ---- IetfSession ----

IetfSession::IetfSession(Connection& conn, Version version, SessionConfig config)
    : conn_(conn),
      version_(version),
      v_(*w::ietf_version(version)),
      config_(std::move(config)),
      next_request_id_(conn.is_client() ? 0 : 1),
      peer_ids_(conn.is_client() ? 1 : 0),
      remote_(OriginProducer::create()) {
  TrackInfo sink_info;
  sink_info.cache.max_groups = 1;  // only recycles group storage; nothing reads it
  fetch_sink_ = TrackProducer::create("fetch", conn.executor().clock(), sink_info);
  driver_ = &scope_.spawn<Driver>(*this);
}

IetfSession::~IetfSession() {
  if (!closed_) close(0, "session dropped");
  scope_.cancel(Error{0, "session destroyed"});
}

void IetfSession::driver_gone() {
  driver_ = nullptr;
}

Error IetfSession::session_error() const {
  if (error_) return *error_;
  if (conn_.close_error()) return *conn_.close_error();
  return Error{transport_error::kConnectionClosed, "connection closed"};
}

void IetfSession::violation(Error e) {
  if (closed_) return;
  ++counters_.protocol_errors;
  if (e.code == 0) e.code = w::kProtocolViolation;
  close(e.code, e.message);
}

void IetfSession::close(uint64_t code, std::string_view reason) {
  if (closed_) return;
  conn_.close(code, reason);
  shut(Error{code, std::string(reason)});
}

void IetfSession::on_connection_closed() {
  if (!closed_) shut(session_error());
}

void IetfSession::shut(Error reason) {
  closed_ = true;
  error_ = std::move(reason);
  // Viewers of the peer's broadcasts see them go (announce listeners get Unannounce), then the
  // end of the announcements, so no announced() consumer waits forever.
  while (!remote_broadcasts_.empty()) {
    RemoteBroadcast* rb = remote_broadcasts_.begin()->second;
    remote_broadcasts_.erase(remote_broadcasts_.begin());
    rb->retire(*error_);
  }
  remote_.close(*error_);
  closed_list_.notify_all();
  closing_.notify_all();
}

Result<Bytes> IetfSession::pack_scratch() {
  if (scratch_.size() <= 4096) return arena_.copy(scratch_);
  return Bytes::copy(scratch_);
}

Status IetfSession::can_request(const char* what) const {
  if (closed_)
    return Error{transport_error::kConnectionClosed,
                 std::string(what) + ": the session is closed (" + session_error().message + ")"};
  if (peer_goaway_)
    return Error{uint64_t(w::RequestErrorCode::GoingAway),
                 std::string(what) + ": the peer sent GOAWAY"};
  return {};
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

Result<FetchConsumer> IetfSession::fetch(const Path& broadcast, std::string_view track,
                                         uint64_t group, const FetchOptions& options) {
  if (Status st = can_request("FETCH"); !st) return st.error();
  if (options.frame_end && *options.frame_end < options.frame_start)
    return Error{data_error::kInvalid, "FETCH: frame_end " + std::to_string(*options.frame_end) +
                                           " is before frame_start " +
                                           std::to_string(options.frame_start)};
  Result<GroupProducer> g = fetch_sink_.append_group();
  if (!g) return g.error();
  FetchConsumer out(group, options.frame_start, g->consume());
  scope_.spawn<FetchClient>(*this, broadcast, std::string(track), group, options, std::move(*g));
  return out;
}

Result<TrackConsumer> IetfSession::subscribe(const Path& broadcast, std::string_view track,
                                             const TrackPreferences& preferences) {
  if (Status st = can_request("SUBSCRIBE"); !st) return st.error();
  return remote_broadcast(broadcast).consume().subscribe(track, preferences);
}

Result<AnnounceConsumer> IetfSession::announced(const Path& prefix) {
  if (Status st = can_request("SUBSCRIBE_NAMESPACE"); !st) return st.error();
  bool covered = false;
  namespace_clients.for_each([&](NamespaceClient& c) { covered |= prefix.has_prefix(c.prefix()); });
  if (!covered) {
    // A broader prefix replaces the narrower requests (the peer refuses overlapping prefixes).
    namespace_clients.for_each([&](NamespaceClient& c) {
      if (c.prefix().has_prefix(prefix)) c.withdraw();
    });
    scope_.spawn<NamespaceClient>(*this, prefix);
  }
  return remote_.consume().announced(prefix);
}

Result<Reply<TrackInfo>> IetfSession::track_info(const Path& broadcast, std::string_view track) {
  if (Status st = can_request("TRACK_STATUS"); !st) return st.error();
  ReplyProducer<TrackInfo> reply = ReplyProducer<TrackInfo>::create();
  Reply<TrackInfo> out = reply.consume();
  scope_.spawn<TrackStatusClient>(*this, broadcast, std::string(track), std::move(reply));
  return out;
}

Status IetfSession::goaway(std::string_view uri) {
  if (closed_) return Error{transport_error::kConnectionClosed, "GOAWAY: the session is closed"};
  if (goaway_sent_) return Error{w::kProtocolViolation, "GOAWAY: sent already"};
  if (is_client() && !uri.empty())
    return Error{w::kProtocolViolation, "GOAWAY: a client's New Session URI must be empty"};
  w::GoAway g;
  g.new_session_uri = std::string(uri);
  if (w::goaway_has_request_id(v_)) g.request_id = peer_ids_.lowest_unseen();
  Result<Bytes> b = encode(g);
  if (!b) return b.error();
  control_pending.push(std::move(*b));
  goaway_sent_ = true;
  if (driver_) driver_->wake_for_control();
  return {};
}

Result<Reply<AuthGrant>> IetfSession::authenticate(std::span<const uint8_t>) {
  return Error{uint64_t(w::RequestErrorCode::NotSupported),
               "authenticate: moq-transport has no AUTH exchange (tokens travel in "
               "AUTHORIZATION_TOKEN parameters)"};
}

// ---- The peer's announcements ----

RemoteBroadcast& IetfSession::remote_broadcast(const Path& path) {
  auto it = remote_broadcasts_.find(path);
  if (it != remote_broadcasts_.end()) return *it->second;
  RemoteBroadcast& rb = scope_.spawn<RemoteBroadcast>(*this, path);
  remote_broadcasts_.emplace(path, &rb);
  return rb;
}

void IetfSession::forget_remote(const Path& path, RemoteBroadcast* rb) {
  auto it = remote_broadcasts_.find(path);
  if (it != remote_broadcasts_.end() && it->second == rb) remote_broadcasts_.erase(it);
}

void IetfSession::remote_announce(const Path& path) {
  if (closed_) return;
  RemoteBroadcast& rb = remote_broadcast(path);
  if (rb.announce_refs++ == 0) (void)remote_.publish(path, rb.consume());
}

void IetfSession::remote_unannounce(const Path& path) {
  auto it = remote_broadcasts_.find(path);
  if (it == remote_broadcasts_.end() || it->second->announce_refs == 0) return;
  RemoteBroadcast* rb = it->second;
  if (--rb->announce_refs > 0) return;
  remote_broadcasts_.erase(it);
  // Closing it unpublishes it; the tracks already running go on.
  rb->retire(Error{0, "broadcast '" + path.str() + "' no longer announced"});
}

bool IetfSession::route_fetch_stream(uint64_t request_id, StreamInput& input) {
  bool taken = false;
  fetching.for_each([&](FetchClient& f) {
    if (!taken && f.request_id() == request_id) taken = f.take_data(input);
  });
  if (taken) return true;
  subscribed.for_each([&](SubscribeClient& c) {
    if (!taken) taken = c.take_join_stream(request_id, input);
  });
  return taken;
}

// ---- The peer's control stream ----

void IetfSession::on_peer_setup(const w::Setup& setup) {
  // PATH and AUTHORITY come from clients only (spec 1.3).
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

void IetfSession::on_peer_goaway(const w::GoAway& goaway, bool control_stream) {
  if (!is_client() && !goaway.new_session_uri.empty()) {
    violation("GOAWAY: field 'new session uri': a client's URI must be empty");
    return;
  }
  if (control_stream) peer_goaway_ = goaway.new_session_uri;
}

// ---- Incoming requests ----

void IetfSession::dispatch_request(SendStreamPtr send, StreamInput input, w::ControlMessage first) {
  const char* name = w::control_name(first, v_);
  auto count = [&](StreamKind k) { ++counters_.streams_accepted[static_cast<size_t>(k)]; };
  auto refuse = [&](StreamKind k, w::RequestErrorCode code, std::string reason) {
    w::RequestError e;
    e.error_code = uint64_t(code);
    e.reason = std::move(reason);
    scope_.spawn<RefuseTask>(*this, std::move(send), std::move(input), k, std::move(e));
  };
  auto admit = [&](uint64_t id, StreamKind k) {
    count(k);
    if (!accept_peer_request_id(id, name)) return false;
    if (goaway_sent_) {
      refuse(k, w::RequestErrorCode::GoingAway, "this endpoint sent GOAWAY");
      return false;
    }
    return true;
  };
  if (auto* m = std::get_if<w::Subscribe>(&first)) {
    if (admit(m->request_id, StreamKind::Subscribe))
      scope_.spawn<SubscribeServer>(*this, std::move(send), std::move(input), std::move(*m));
  } else if (auto* m = std::get_if<w::Fetch>(&first)) {
    if (admit(m->request_id, StreamKind::Fetch))
      scope_.spawn<FetchServer>(*this, std::move(send), std::move(input), std::move(*m));
  } else if (auto* m = std::get_if<w::TrackStatus>(&first)) {
    if (admit(m->request_id, StreamKind::Track))
      scope_.spawn<TrackStatusServer>(*this, std::move(send), std::move(input), std::move(*m));
  } else if (auto* m = std::get_if<w::SubscribeNamespace>(&first)) {
    if (admit(m->request_id, StreamKind::Announce))
      scope_.spawn<NamespaceServer>(*this, std::move(send), std::move(input), std::move(*m));
  } else if (auto* m = std::get_if<w::PublishNamespace>(&first)) {
    if (!admit(m->request_id, StreamKind::Announce)) return;
    std::optional<Path> path = path_of(m->track_namespace);
    if (!path) {
      refuse(StreamKind::Announce, w::RequestErrorCode::NotSupported,
             "a namespace field holding '/' names no broadcast path here");
      return;
    }
    scope_.spawn<PublishNamespaceServer>(*this, std::move(send), std::move(input),
                                         std::move(*path));
  } else if (auto* m = std::get_if<w::Publish>(&first)) {
    if (!admit(m->request_id, StreamKind::Subscribe)) return;
    // Pushed tracks have no place in session.h: refuse, and stop any data already sent for the
    // alias (spec 3.6: REQUEST_ERROR UNINTERESTED plus STOP_SENDING).
    if (aliases.find(m->track_alias).kind != AliasTable::Kind::Bound)
      aliases.tombstone(m->track_alias, nullptr);
    input.stream().stop(kCancelled);
    refuse(StreamKind::Subscribe, w::RequestErrorCode::Uninterested,
           "this endpoint does not take PUBLISH");
  } else if (auto* m = std::get_if<w::SubscribeTracks>(&first)) {
    if (admit(m->request_id, StreamKind::Announce))
      refuse(StreamKind::Announce, w::RequestErrorCode::NotSupported,
             "SUBSCRIBE_TRACKS is not supported");
  } else {
    ++counters_.unknown_streams;
    violation(std::string("request stream: ") + name +
              " cannot open a request (expected TRACK_STATUS, SUBSCRIBE, PUBLISH, FETCH, "
              "PUBLISH_NAMESPACE, SUBSCRIBE_NAMESPACE or SUBSCRIBE_TRACKS)");
  }
}

}  // namespace moq::session::ietf_session
