#include "model/session/core/session_base.h"

#include <algorithm>
#include <utility>

#include "model/data/errors.h"

namespace moq::session::core {

namespace {
TrackProducer fetch_group_pool(Clock& clock) {
  TrackInfo info;
  info.cache.max_groups = 1;  // fetched groups live with their consumers, not in a cache
  return TrackProducer::create("fetched groups", clock, info);
}
}  // namespace

SessionBase::SessionBase(Connection& conn, Version version, SessionConfig config,
                         RequestCodes codes)
    : TaskHost(conn.executor()),
      conn_(conn),
      version_(version),
      client_(conn.is_client()),
      config_(std::move(config)),
      codes_(codes),
      fetch_groups_(fetch_group_pool(conn.executor().clock())),
      peer_(
          conn.executor(),
          [this](const Path& path, TrackRequest request) {
            if (Status st = check_open("subscribe"); !st) {
              request.reject(st.error());
              return;
            }
            serve_subscription(path, std::move(request));
          },
          [this](const Path& path, GroupRequest request) {
            FetchOptions options;
            options.priority = request.priority;
            const uint64_t sequence = request.group.sequence();
            Result<FetchConsumer> started =
                fetch_into(path, request.track, sequence, options, std::move(request.group));
            if (!started) request.group.abort(started.error());
          }) {}

SessionBase::~SessionBase() = default;

void SessionBase::end_jobs() {
  if (!closed_) close(0, "session dropped");
  abandon_all(*error_);
}

Result<TrackConsumer> SessionBase::subscribe(const Path& broadcast, std::string_view track,
                                             const TrackPreferences& preferences) {
  if (Status st = check_open("subscribe"); !st) return st.error();
  return peer_.broadcast(broadcast).subscribe(track, preferences);
}

Result<FetchConsumer> SessionBase::fetch(const Path& broadcast, std::string_view track,
                                         uint64_t group, const FetchOptions& options) {
  Result<GroupProducer> into = fetch_groups_.append_group();
  if (!into) return into.error();
  return fetch_into(broadcast, track, group, options, std::move(*into));
}

Result<AnnounceConsumer> SessionBase::announced(const Path& prefix) {
  if (Status st = check_open("announced"); !st) return st.error();
  return peer_.announced(prefix);
}

void SessionBase::close(uint64_t code, std::string_view reason) {
  if (closed_) return;
  conn_.close(code, reason);
  shut(Error{code, std::string(reason)});
}

void SessionBase::violation(Error e) {
  if (closed_) return;
  ++counters_.protocol_errors;
  if (e.code == 0) e.code = Reader::kMalformedCode;
  close(e.code, e.message);
}

void SessionBase::connection_closed() {
  if (closed_) return;
  const std::optional<Error>& e = conn_.close_error();
  shut(e ? *e : Error{0, "connection closed"});
}

Error SessionBase::session_error() const {
  if (error_) return *error_;
  if (const std::optional<Error>& e = conn_.close_error()) return *e;
  return Error{transport_error::kConnectionClosed, "connection closed"};
}

void SessionBase::shut(Error reason) {
  closed_ = true;
  error_ = std::move(reason);
  // Every job ends what it produces with the session's error on its next poll.
  stop(*error_);
  // Viewers of the peer's broadcasts see them go, then the end of the announcements.
  peer_.close(*error_);
  on_closed();
  closed_list_.notify_all();
}

TrackInfo SessionBase::copied_track_info(TrackInfo info) const {
  const CacheLimits& bound = config_.peer_track_cache;
  info.cache.max_groups = bound.max_groups;
  info.cache.max_bytes = bound.max_bytes;
  info.cache.max_age_ns = std::min(info.cache.max_age_ns, bound.max_age_ns);
  return info;
}

Result<TrackConsumer> SessionBase::find_track(const Path& broadcast, std::string_view track,
                                              const TrackPreferences& preferences) const {
  if (!config_.publish) return Error{data_error::kNotFound, "this endpoint publishes nothing"};
  std::optional<BroadcastConsumer> b = config_.publish.lookup(broadcast);
  if (!b) return Error{data_error::kNotFound, "no broadcast at '" + broadcast.str() + "'"};
  Result<TrackConsumer> t = b->subscribe(track, preferences);
  if (!t) {
    return Error{t.error().code, "track '" + std::string(track) + "' of '" + broadcast.str() +
                                     "': " + t.error().message};
  }
  return t;
}

Status SessionBase::check_open(const char* what) const {
  if (closed_) {
    return Error{error_->code,
                 std::string(what) + ": the session is closed (" + error_->message + ")"};
  }
  if (peer_goaway_) {
    return Error{codes_.going_away,
                 std::string(what) + ": the peer sent GOAWAY; open no new requests"};
  }
  return {};
}

}  // namespace moq::session::core
