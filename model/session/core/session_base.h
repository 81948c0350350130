// SessionBase: what both session engines share, so that each engine holds only what its
// protocol family does differently.
//
//  - the Session API's bookkeeping: version and role, counters, closing (our close, the
//    connection's, a protocol violation) and the error it leaves, the closed() wait list, the
//    peer's GOAWAY;
//  - the pooled tasks' host (model/async/task_pool.h): closing stops every active job;
//  - the arena and scratch buffer control messages are encoded into;
//  - the pool of groups handed out by fetch(), and the viewer's copy of the peer's broadcasts
//    (PeerOrigin), whose new track requests reach the engine through serve_subscription().
//
// An engine derives from it, implements the viewer-role requests (fetch, subscribe, ...) and
// serve_subscription(), and runs its streams as pooled tasks of this host.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/async/task_pool.h"
#include "model/base/bytes.h"
#include "model/base/codec.h"
#include "model/base/result.h"
#include "model/data/data.h"
#include "model/session/core/peer_origin.h"
#include "model/session/session.h"
#include "model/transport.h"

namespace moq::session::core {

// The codes a family answers a refused new request with.
struct RequestCodes {
  uint64_t going_away;  // after the peer's GOAWAY
};

// Request tasks waiting for the peer's bidi stream credit, woken one at a time: the first waits
// on the connection's can_open(); each that gets a stream (or gives up) passes the turn to the
// next. Waking every waiter on each change of credit cost O(waiters) per change: a moq-transport
// publisher of 1,024 broadcasts, whose PUBLISH_NAMESPACE requests beyond the credit wait, had
// ~900 tasks polled by every join on its relay.
struct BidiOpenQueue {
  bool watched = false;  // a task (the head) waits on can_open()
  WaitList queued{"bidi stream credit (queued behind another request)"};
};

class SessionBase : public Session, public TaskHost {
 public:
  ~SessionBase() override;

  // ---- Session (the parts that do not depend on the family) ----
  Version version() const final { return version_; }
  bool is_client() const final { return client_; }
  const std::optional<std::string>& peer_goaway() const final { return peer_goaway_; }
  Result<TrackConsumer> subscribe(const Path& broadcast, std::string_view track,
                                  const TrackPreferences& preferences) final;
  // Into a group of a private track whose cache keeps one group, used only as a pool of group
  // storage (its vectors keep their capacity between fetches).
  Result<FetchConsumer> fetch(const Path& broadcast, std::string_view track, uint64_t group,
                              const FetchOptions& options) final;
  Result<AnnounceConsumer> announced(const Path& prefix) override;
  void close(uint64_t code, std::string_view reason) final;
  bool is_closed() const final { return closed_; }
  const std::optional<Error>& error() const final { return error_; }
  WaitList& closed() final { return closed_list_; }
  const SessionCounters& counters() const final { return counters_; }

  // ---- For the engine's tasks ----
  Connection& conn() { return conn_; }
  const SessionConfig& config() const { return config_; }
  SessionCounters& stats() { return counters_; }
  ByteArena& arena() { return arena_; }
  PeerOrigin& peer() { return peer_; }
  BidiOpenQueue& bidi_open_queue() { return bidi_open_queue_; }
  // The info a track copied from the peer is accepted with: the peer's, with the cache of
  // SessionConfig::peer_track_cache (its max age bounding the peer's).
  TrackInfo copied_track_info(TrackInfo info) const;
  // What a job that found the connection gone ends with: the session's error, else the
  // connection's (the session learns of a peer close on its next poll).
  Error session_error() const;
  void count_opened(StreamKind k) { ++counters_.streams_opened[static_cast<size_t>(k)]; }
  void count_accepted(StreamKind k) { ++counters_.streams_accepted[static_cast<size_t>(k)]; }

  // Closes the session because the peer broke the protocol: PROTOCOL_VIOLATION (or the session
  // code the error names) and its text, which names the message and field.
  void violation(Error e);
  // The connection closed under the session (a peer close or a transport failure).
  void connection_closed();
  // A new request may start: Error when the session is closed or the peer sent GOAWAY.
  Status check_open(const char* what) const;

  // The served track a request names: kNotFound (with the reason) when this endpoint publishes
  // nothing or no broadcast has that path, else what the broadcast's subscribe() says (its
  // refusal names the track and the broadcast).
  Result<TrackConsumer> find_track(const Path& broadcast, std::string_view track,
                                   const TrackPreferences& preferences = {}) const;

  // Encodes one control message: write(Writer&) -> Status appends its bytes in form; the result
  // is pooled bytes from the arena. Counts it in messages_encoded.
  template <class Write>
  Result<Bytes> encode_with(VarintForm form, Write&& write) {
    scratch_.clear();
    Writer w(scratch_, form);
    if (Status st = write(w); !st) return st.error();
    ++counters_.messages_encoded;
    return arena_.copy(scratch_);
  }

 protected:
  SessionBase(Connection& conn, Version version, SessionConfig config, RequestCodes codes);

  // The engine's half of subscribe(): one upstream subscription for a new track of a peer
  // broadcast (request is Pending until the peer describes the track).
  virtual void serve_subscription(const Path& broadcast, TrackRequest request) = 0;
  // The engine's half of fetch(), and of a group the peer's broadcast copy is asked for: the
  // FETCH's frames are written into `into` (frame i of it is frame frame_start + i), which is
  // taken only when the request starts (on an Error the caller still holds it).
  virtual Result<FetchConsumer> fetch_into(const Path& broadcast, std::string_view track,
                                           uint64_t group, const FetchOptions& options,
                                           GroupProducer&& into) = 0;
  // Called once when the session closes, after every active job was told to stop.
  virtual void on_closed() {}
  // For the engine's destructor, before its task pools go: closes the session if it is still
  // open ("session dropped", code 0) and ends every active job with the session's error.
  void end_jobs();

  // The peer's GOAWAY arrived (new requests fail from now on).
  void set_peer_goaway(std::string uri) { peer_goaway_ = std::move(uri); }
  bool goaway_sent() const { return goaway_sent_; }
  void set_goaway_sent() { goaway_sent_ = true; }

 private:
  void shut(Error reason);

  Connection& conn_;
  Version version_;
  bool client_;
  SessionConfig config_;
  RequestCodes codes_;
  SessionCounters counters_;

  bool closed_ = false;
  std::optional<Error> error_;
  WaitList closed_list_{"session closed"};
  bool goaway_sent_ = false;
  std::optional<std::string> peer_goaway_;

  ByteArena arena_;
  BidiOpenQueue bidi_open_queue_;
  std::vector<uint8_t> scratch_;
  TrackProducer fetch_groups_;
  PeerOrigin peer_;
};

}  // namespace moq::session::core
