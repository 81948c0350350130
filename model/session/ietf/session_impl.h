// The moq-transport session engine (draft-18 and draft-22). Internal: the public entry point is
// ietf_session.h. README.md describes the stream and request mapping.
//
// IetfSession implements session::Session. It owns every task it runs through one Scope: the
// driver (control stream, accepting streams, datagrams, closing), one task per request stream
// (publisher role: SubscribeServer, FetchServer, TrackStatusServer, NamespaceServer,
// PublishNamespaceServer; viewer role: SubscribeClient, FetchClient, TrackStatusClient,
// NamespaceClient, PublishNamespaceClient), one SubgroupSender per group and subscription, and
// one UniReader per incoming unidirectional stream. Tasks reach shared state through the
// session's public internals below; the lists are intrusive, so a task unlinks itself in O(1)
// whatever order teardown takes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/async/list.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/codec.h"
#include "model/data/data.h"
#include "model/session/ietf/alias_table.h"
#include "model/session/ietf/stream_io.h"
#include "model/session/session.h"
#include "model/transport.h"
#include "model/wire/ietf/control.h"

namespace moq::session::ietf_session {

namespace w = ::moq::wire::ietf;

struct ServeTag;
struct FetchTag;
struct SubTag;
struct NsServeTag;
struct NsClientTag;
struct PubNsTag;

class SubscribeServer;
class FetchClient;
class SubscribeClient;
class NamespaceServer;
class NamespaceClient;
class PublishNamespaceClient;
class RemoteBroadcast;
class Driver;

// Send orders (higher first): control stream, then request streams, then data by priority.
inline constexpr int64_t kControlSendOrder = INT64_MAX;
inline constexpr int64_t kRequestSendOrder = INT64_MAX - 1;
int64_t data_send_order(uint8_t local_priority, uint64_t group, bool ascending);

// Request IDs the peer has used: each parity-correct ID once (spec 6). IDs may arrive out of
// order (they travel on different streams), so IDs seen above the lowest unseen one are kept in
// a sorted vector that keeps its capacity.
class PeerRequestIds {
 public:
  explicit PeerRequestIds(uint64_t first) : next_(first) {}
  // False for a wrong parity or an ID seen before.
  bool accept(uint64_t id);
  // The lowest ID not seen yet (the -18 GOAWAY Request ID).
  uint64_t lowest_unseen() const { return next_; }

 private:
  uint64_t next_;
  std::vector<uint64_t> ahead_;
};

class IetfSession final : public Session {
 public:
  IetfSession(Connection& conn, Version version, SessionConfig config);
  ~IetfSession() override;

  // ---- session::Session ----
  Version version() const override { return version_; }
  bool is_client() const override { return conn_.is_client(); }
  Result<FetchConsumer> fetch(const Path& broadcast, std::string_view track, uint64_t group,
                              const FetchOptions& options) override;
  Result<TrackConsumer> subscribe(const Path& broadcast, std::string_view track,
                                  const TrackPreferences& preferences) override;
  Result<AnnounceConsumer> announced(const Path& prefix) override;
  Result<Reply<TrackInfo>> track_info(const Path& broadcast, std::string_view track) override;
  Status goaway(std::string_view uri) override;
  const std::optional<std::string>& peer_goaway() const override { return peer_goaway_; }
  Result<Reply<AuthGrant>> authenticate(std::span<const uint8_t> token) override;
  void close(uint64_t code, std::string_view reason) override;
  bool is_closed() const override { return closed_; }
  const std::optional<Error>& error() const override { return error_; }
  WaitList& closed() override { return closed_list_; }
  const SessionCounters& counters() const override { return counters_; }

  // ---- Internals shared with the tasks ----
  Connection& conn() { return conn_; }
  Executor& executor() { return conn_.executor(); }
  w::IetfVersion v() const { return v_; }
  const SessionConfig& config() const { return config_; }
  Scope& scope() { return scope_; }
  SessionCounters& stats() { return counters_; }
  ByteArena& arena() { return arena_; }
  // A gather list for building one write; empty between uses.
  BufChain& chain() { return chain_; }

  // Why the session ended: its recorded error, else the connection's.
  Error session_error() const;
  // Closes the session because the peer broke the protocol: code (PROTOCOL_VIOLATION, or the
  // session code the codec named) and a text naming the message.
  void violation(Error e);
  void violation(const std::string& text) { violation(Error{w::kProtocolViolation, text}); }
  // Notified when the session closes (tasks that wait only on the data model also wait here).
  WaitList& closing() { return closing_; }

  // Frames one control message into a Bytes (from the arena when small).
  template <class M>
  Result<Bytes> encode(const M& m) {
    Status st = m.check(v_);
    if (!st) return st.error();
    scratch_.clear();
    Writer wr(scratch_, w::kVarint);
    const char* name = w::message_type_name(uint64_t(M::kType), v_);
    Status f = w::encode_framed(wr, uint64_t(M::kType), name ? name : "message",
                                [&](Writer& body) { m.encode(body, v_); });
    if (!f) return f.error();
    ++counters_.messages_encoded;
    return pack_scratch();
  }

  // Request IDs (spec 6): ours, and checking the peer's (closes the session on a bad one).
  uint64_t take_request_id() {
    const uint64_t id = next_request_id_;
    next_request_id_ += 2;
    return id;
  }
  bool issued_by_us(uint64_t id) const {
    return (id & 1) == (is_client() ? 0u : 1u) && id < next_request_id_;
  }
  bool accept_peer_request_id(uint64_t id, const char* message);
  // After our GOAWAY, new peer requests are refused with GOING_AWAY.
  bool refusing_requests() const { return goaway_sent_; }
  // Fails a new local request once the session closed or the peer sent GOAWAY.
  Status can_request(const char* what) const;

  // The viewer's copy of the peer's announcements (announced() reads it).
  void remote_announce(const Path& path);
  void remote_unannounce(const Path& path);
  RemoteBroadcast& remote_broadcast(const Path& path);
  void forget_remote(const Path& path, RemoteBroadcast* rb);

  // Incoming uni stream with a FETCH_HEADER: hands it to the request it answers. False when no
  // live request has this ID (the caller stops the stream or, for an ID never issued, closes).
  bool route_fetch_stream(uint64_t request_id, StreamInput& input);

  // Peer's control stream.
  void on_peer_setup(const w::Setup& setup);
  void on_peer_goaway(const w::GoAway& goaway, bool control_stream);
  bool peer_control_seen = false;

  // Incoming bidi stream whose first message was read: starts its handler.
  void dispatch_request(SendStreamPtr send, StreamInput input, w::ControlMessage first);

  // Called by the driver once the connection closed.
  void on_connection_closed();

  AliasTable aliases;
  uint64_t next_alias = 0;    // publisher role: the Track Alias of the next SUBSCRIBE_OK
  size_t parked_streams = 0;  // uni streams waiting for an unknown alias
  static constexpr size_t kMaxParkedStreams = 64;
  // Bytes one parked stream (or a join arriving before SUBSCRIBE_OK) holds before it withholds
  // flow-control credit.
  static constexpr size_t kMaxHeldBytes = 64 << 10;

  IntrusiveList<SubscribeServer, ServeTag> serving;
  IntrusiveList<FetchClient, FetchTag> fetching;
  IntrusiveList<SubscribeClient, SubTag> subscribed;
  IntrusiveList<NamespaceServer, NsServeTag> namespace_servers;
  IntrusiveList<NamespaceClient, NsClientTag> namespace_clients;
  IntrusiveList<PublishNamespaceClient, PubNsTag> publishing_namespaces;

  // Our control stream (GOAWAY goes there); control_pending waits for it to open.
  SendStreamPtr control_out;
  Outbox control_outbox;
  BufChain control_pending;
  void driver_gone();

 private:
  Result<Bytes> pack_scratch();
  void shut(Error reason);

  Connection& conn_;
  Version version_;
  w::IetfVersion v_;
  SessionConfig config_;
  SessionCounters counters_;
  ByteArena arena_;
  BufChain chain_;
  std::vector<uint8_t> scratch_;

  uint64_t next_request_id_;
  PeerRequestIds peer_ids_;
  bool goaway_sent_ = false;
  std::optional<std::string> peer_goaway_;

  OriginProducer remote_;  // the peer's announcements as the viewer sees them
  std::map<Path, RemoteBroadcast*> remote_broadcasts_;
  TrackProducer fetch_sink_;  // pools the groups handed out by fetch()

  bool closed_ = false;
  std::optional<Error> error_;
  WaitList closed_list_{"session closed"};
  WaitList closing_{"session closing"};

  Scope scope_{"ietf session"};
  Driver* driver_ = nullptr;
};

}  // namespace moq::session::ietf_session
