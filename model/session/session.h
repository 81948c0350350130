// The version-agnostic session interface: what a MoQ endpoint does over one Connection, whatever
// protocol family runs underneath (moq-lite in model/session/lite, moq-transport in
// model/session/ietf). Benchmark scenarios use only this header and create_session.h (which makes
// a session of any version), so they run on every version unchanged.
//
// Roles. A session plays both roles at once:
//  - publisher: it serves the broadcasts of SessionConfig::publish (an Origin) to the peer:
//    announcements, subscriptions, fetches and track info requests the peer sends are answered
//    from that origin;
//  - viewer: fetch(), subscribe(), announced() and track_info() send requests to the peer and
//    return data-model consumers (model/data) that fill as the answers arrive.
//
// Threading and time. Everything runs on the connection's executor (model/async). Calls return
// at once; the work happens as the executor runs. Sessions never read a clock on the data path.
//
// Errors. A call that cannot even start (closed session, bad argument, unsupported feature)
// returns an Error. A request that fails later surfaces through its consumer (Next::Aborted and
// error()). A peer that breaks the protocol closes the session with PROTOCOL_VIOLATION; error()
// then names the message and field.
//
// Lifetime. The Connection must outlive the session. Destroying a session that is still open
// closes it (code 0) and ends every consumer it handed out with an error (no reader hangs).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/async/executor.h"
#include "model/base/path.h"
#include "model/base/result.h"
#include "model/data/data.h"
#include "model/transport.h"
#include "model/wire/version.h"

namespace moq::session {

// ---- Versions ----

// The registry lives with the wire codecs (model/wire/version.h) so that their own version enums
// derive from it; sessions, scenarios and reports read it through these names.
using ::moq::Family;
using ::moq::kVersions;
using ::moq::parse_version;
using ::moq::Version;
using ::moq::version_alpn;
using ::moq::version_family;
using ::moq::version_from_alpn;
using ::moq::version_info;
using ::moq::version_name;
using ::moq::VersionInfo;

// ---- Counters ----

// What a stream carries, across both families (ietf maps its streams onto the same kinds).
enum class StreamKind : uint8_t {
  Setup,      // lite: uni SETUP stream; ietf: the control stream
  Group,      // lite: uni group stream; ietf: subgroup stream
  Announce,   // lite: announce stream; ietf: SUBSCRIBE_NAMESPACE / PUBLISH_NAMESPACE
  Subscribe,  // subscription requests
  Fetch,      // fetch requests
  Track,      // lite: TRACK / TRACK_INFO; ietf: TRACK_STATUS
  Goaway,
  Auth,
  Probe,
  Unknown,  // a type this version does not define (stopped / reset, session kept)
};
inline constexpr size_t kStreamKinds = 10;

// Per-session counters for benchmarks and tests. Plain integers, updated once per event (per
// batch of frames on the data path), never shared between sessions.
struct SessionCounters {
  std::array<uint64_t, kStreamKinds> streams_opened{};    // by this endpoint, per kind
  std::array<uint64_t, kStreamKinds> streams_accepted{};  // from the peer, per kind
  uint64_t messages_encoded = 0;  // control messages written (not FRAMEs / objects)
  uint64_t messages_decoded = 0;  // control messages read (not FRAMEs / objects)
  uint64_t frames_sent = 0;       // frames written on group and fetch streams
  uint64_t frames_received = 0;   // frames read from group and fetch streams
  uint64_t protocol_errors = 0;   // peer input that broke the protocol (session close or reset)
  uint64_t streams_reset = 0;     // streams this endpoint reset (abort, refusal, cancel)
  uint64_t resets_received = 0;   // streams the peer reset
  uint64_t unknown_streams = 0;   // unknown stream types stopped

  uint64_t opened(StreamKind k) const { return streams_opened[static_cast<size_t>(k)]; }
  uint64_t accepted(StreamKind k) const { return streams_accepted[static_cast<size_t>(k)]; }
};

// ---- What the viewer role hands out ----

// The frames of one fetched group. Frame i of this consumer is frame frame_start() + i of the
// group on the publisher. next() yields them in order as they arrive, End after the last one,
// Aborted when the fetch failed (error() says why: the peer reset, the session closed, ...).
class FetchConsumer {
 public:
  FetchConsumer() = default;
  FetchConsumer(uint64_t sequence, uint64_t frame_start, GroupConsumer frames)
      : sequence_(sequence), frame_start_(frame_start), frames_(std::move(frames)) {}

  explicit operator bool() const { return static_cast<bool>(frames_); }
  uint64_t sequence() const { return sequence_; }
  uint64_t frame_start() const { return frame_start_; }

  Next next(FrameView& out) { return frames_.next(out); }
  // Batch reading: frames [index(), frame_count()) are readable now without waiting.
  size_t index() const { return frames_.index(); }
  size_t frame_count() const { return frames_.frame_count(); }
  FrameView frame(size_t i) const { return frames_.frame(i); }
  void seek(size_t i) { frames_.seek(i); }

  GroupStatus status() const { return frames_.status(); }
  const Error& error() const { return frames_.error(); }
  uint64_t bytes() const { return frames_.bytes(); }
  // Notified on each frame and at the end.
  WaitList& readable() const { return frames_.readable(); }

 private:
  uint64_t sequence_ = 0;
  uint64_t frame_start_ = 0;
  GroupConsumer frames_;
};

struct FetchOptions {
  uint8_t priority = 0;               // higher is sent first under congestion
  uint64_t frame_start = 0;           // first frame wanted
  std::optional<uint64_t> frame_end;  // last frame wanted, inclusive; nullopt: to the group's end
};

namespace detail {
template <class T>
struct ReplyState {
  void add_ref() { ++refs; }
  void release() {
    if (--refs == 0) delete this;
  }
  uint32_t refs = 0;
  std::optional<T> value;
  std::optional<Error> error;
  WaitList ready{"session reply"};
};
}  // namespace detail

// One answer to come from the peer (track info, auth). Copyable handle.
template <class T>
class Reply {
 public:
  Reply() = default;
  explicit Reply(Ref<detail::ReplyState<T>> s) : s_(std::move(s)) {}
  explicit operator bool() const { return static_cast<bool>(s_); }
  // Ready (out set), Pending (wait on ready()) or Aborted (error()).
  Next get(T& out) const {
    if (s_->value) {
      out = *s_->value;
      return Next::Ready;
    }
    return s_->error ? Next::Aborted : Next::Pending;
  }
  bool done() const { return s_->value || s_->error; }
  const Error& error() const { return *s_->error; }
  WaitList& ready() const { return s_->ready; }

 private:
  Ref<detail::ReplyState<T>> s_;
};

// The session side of a Reply: answer once with a value or an error.
template <class T>
class ReplyProducer {
 public:
  static ReplyProducer create() { return ReplyProducer(new detail::ReplyState<T>()); }
  ReplyProducer() = default;
  Reply<T> consume() const { return Reply<T>(s_); }
  explicit operator bool() const { return static_cast<bool>(s_); }
  bool done() const { return s_->value || s_->error; }
  void resolve(T value) {
    if (done()) return;
    s_->value = std::move(value);
    s_->ready.notify_all();
  }
  // By value, and moved into the shared state: clang-tidy 14 does not see that move, whose
  // target depends on T, and takes the parameter for one only read.
  void fail(Error error) {  // NOLINT(performance-unnecessary-value-param)
    if (done()) return;
    s_->error = std::move(error);
    s_->ready.notify_all();
  }

 private:
  explicit ReplyProducer(detail::ReplyState<T>* s) : s_(s) {}
  Ref<detail::ReplyState<T>> s_;
};

// What an authorization grants (moq-lite-07 AUTH_OK): path patterns in canonical text ("*" one
// segment, "**" any number, "" the root only) and an expiry (0: never).
struct AuthGrant {
  std::vector<std::string> publish;
  std::vector<std::string> subscribe;
  uint64_t expires_ms = 0;
};

// ---- Configuration and the session ----

struct SessionConfig {
  // The broadcasts this endpoint serves to the peer. Empty: it serves nothing (requests are
  // refused with a stream reset).
  OriginConsumer publish;
  // Client only: the SETUP Path parameter (moq-lite on raw QUIC). Empty: not sent.
  std::string path;
  // This endpoint's Hop ID (moq-lite SETUP / ANNOUNCE_OK). Deterministic: the caller picks it.
  uint64_t hop_id = 1;
  // How long (virtual ns) a subscription to the peer outlives its last consumer before it is
  // cancelled (model/session/core/linger.h). 0: at once. A relay sets it, so that viewers who
  // come and go (or a moq-lite viewer's TRACK before its SUBSCRIBE) share one subscription.
  uint64_t linger_ns = 0;
  // What this endpoint keeps of each track it copies from the peer (a subscription's track): the
  // groups and payload bytes set here (the wire does not carry them), and the max age the peer
  // states when shorter than this one. A relay sets it (RelayConfig::cache), so that its memory
  // per track is its own choice.
  CacheLimits peer_track_cache;
  // Ask the peer for its hidden broadcasts too (a path segment below the prefix starting with
  // '.') where the version can ask: moq-lite-07's ANNOUNCE_REQUEST Hidden. moq-lite-06
  // publishers always leave them out; moq-transport has no hidden broadcasts. A relay sets it on
  // every session, so that it routes them to its cluster, and serves them to each peer that
  // asks (a viewer that does not ask does not see them).
  bool announce_hidden = false;
  // Take the tracks the peer pushes (moq-transport PUBLISH): each becomes a track of the peer's
  // broadcast at its namespace, which is announced while the PUBLISH stands. Unset: PUBLISH is
  // refused (REQUEST_ERROR UNINTERESTED). A relay sets it, so that publishers may push to it.
  bool accept_pushed_tracks = false;
  // Decides the peer's authorization requests (moq-lite-07 AUTH). Unset: grant everything.
  std::function<Result<AuthGrant>(std::span<const uint8_t> token)> authorize;
};

class Session {
 public:
  virtual ~Session() = default;

  virtual Version version() const = 0;
  virtual bool is_client() const = 0;

  // Viewer role. Each opens one request to the peer.

  // The frames of group `group` of a track (one FETCH).
  virtual Result<FetchConsumer> fetch(const Path& broadcast, std::string_view track, uint64_t group,
                                      const FetchOptions& options = {}) = 0;
  // A subscription: the returned consumer yields the track's groups as they arrive. It may be
  // Pending until the peer describes the track, then Active; it ends (End) when the publisher
  // ends the track and aborts when the peer refuses or the session closes. Subscribing to the
  // same track again shares one upstream subscription (preferences are aggregated). Dropping
  // every consumer cancels the subscription.
  virtual Result<TrackConsumer> subscribe(const Path& broadcast, std::string_view track,
                                          const TrackPreferences& preferences = {}) = 0;
  // The peer's announcements under prefix: Announce when a broadcast appears, Unannounce when it
  // goes. The request stays open until the session closes.
  virtual Result<AnnounceConsumer> announced(const Path& prefix) = 0;
  // The publisher's description of a track (priority, timescale, max age).
  virtual Result<Reply<TrackInfo>> track_info(const Path& broadcast, std::string_view track) = 0;

  // Session control.

  // Tells the peer to migrate (GOAWAY); uri empty: no redirect. Only once per session.
  virtual Status goaway(std::string_view uri) = 0;
  // The peer's GOAWAY URI once one arrived (empty string: no redirect). After it, new requests
  // fail.
  virtual const std::optional<std::string>& peer_goaway() const = 0;
  // Presents a token to the peer (moq-lite-07 AUTH); an Error where the version has no such
  // exchange.
  virtual Result<Reply<AuthGrant>> authenticate(std::span<const uint8_t> token) = 0;

  // Closes the connection with an application code and reason; every consumer handed out ends.
  virtual void close(uint64_t code, std::string_view reason) = 0;
  virtual bool is_closed() const = 0;
  // Why the session closed: our own close, the peer's close code and reason, or the protocol
  // violation that closed it (code 0x3 on both families, message naming the message).
  virtual const std::optional<Error>& error() const = 0;
  // Notified once, when the session closes.
  virtual WaitList& closed() = 0;

  virtual const SessionCounters& counters() const = 0;
};

}  // namespace moq::session
