// The moq-transport session engine (draft-18 and draft-22, ALPN "moqt-18" / "moqt-22", and the
// interop-only draft-17, "moqt-17") behind
// the version-agnostic moq::session::Session interface; what it shares with the moq-lite engine
// lives in model/session/core. README.md in this folder describes the stream and request mapping.
//
// create_ietf_session() is what moq::session::create_session() calls for a moq-transport
// version; the IetfSession class is visible here for the session's own tasks, one file per
// request kind (subscribe + subgroup streams, fetch, track status, namespace, publish namespace,
// the control stream), both roles in each. Every task is pooled (model/async/task_pool.h), so a
// steady state of requests allocates nothing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/async/list.h"
#include "model/base/bytes.h"
#include "model/base/codec.h"
#include "model/data/data.h"
#include "model/session/core/session_base.h"
#include "model/session/core/stream_input.h"
#include "model/session/ietf/alias_table.h"
#include "model/session/session.h"
#include "model/transport.h"
#include "model/wire/ietf/control.h"

namespace moq::session::ietf {

namespace w = ::moq::wire::ietf;

// version must be a moq-transport version (Transport17, Transport18, Transport22) and match
// conn's negotiated ALPN ("moqt-17", "moqt-18", "moqt-22"); otherwise an Error
// (VERSION_NEGOTIATION_FAILED 0x15 for an ALPN mismatch).
Result<std::unique_ptr<Session>> create_ietf_session(Connection& conn, Version version,
                                                     SessionConfig config);

struct Pools;
class ControlTask;
class SubscribeServeTask;
class SubscribeRequestTask;
class FetchRequestTask;
class NamespaceServeTask;
class NamespaceRequestTask;
class PublishNamespaceRequestTask;
struct ServeTag;
struct FetchTag;
struct SubTag;
struct NsServeTag;
struct NsRequestTag;
struct PubNsTag;

// Send orders (higher first): control stream, then request streams, then data by priority.
inline constexpr int64_t kControlSendOrder = INT64_MAX;
inline constexpr int64_t kRequestSendOrder = INT64_MAX - 1;
int64_t data_send_order(uint8_t local_priority, uint64_t group, bool ascending);

// Request IDs the peer has used: each parity-correct ID once (draft-ietf-moq-transport, Request
// ID). IDs may arrive out of order (they travel on different streams), so IDs seen above the lowest
// unseen one are kept in a sorted vector that keeps its capacity.
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

class IetfSession final : public core::SessionBase {
 public:
  IetfSession(Connection& conn, Version version, SessionConfig config);
  ~IetfSession() override;

  // ---- Session: the viewer role's requests (subscribe() and fetch() are SessionBase's) ----
  Result<AnnounceConsumer> announced(const Path& prefix) override;
  Result<Reply<TrackInfo>> track_info(const Path& broadcast, std::string_view track) override;
  Status goaway(std::string_view uri) override;
  Result<Reply<AuthGrant>> authenticate(std::span<const uint8_t> token) override;

  // ---- For the session's tasks ----
  w::IetfVersion v() const { return v_; }
  Pools& pools() { return *pools_; }
  using SessionBase::violation;
  void violation(const std::string& text) { violation(Error{w::kProtocolViolation, text}); }

  // Frames one control message into pooled bytes. Counts it.
  template <class M>
  Result<Bytes> encode(const M& m) {
    return encode_as(m, w::wire_type(M::kType, v_));
  }
  // The same under another type of the same layout (a -17 PUBLISH_OK is a REQUEST_OK as 0x1E).
  template <class M>
  Result<Bytes> encode_as(const M& m, uint64_t type) {
    if (Status st = m.check(v_); !st) return st.error();
    return encode_with(w::kVarint, [&](Writer& wr) {
      const char* name = w::message_type_name(type, v_);
      return w::encode_framed(wr, type, name ? name : "message",
                              [&](Writer& body) { m.encode(body, v_); });
    });
  }

  // Request IDs (draft-ietf-moq-transport, Request ID): ours, and checking the peer's (closes the
  // session on a bad one).
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
  bool refusing_requests() const { return goaway_sent(); }

  // An incoming uni stream with a FETCH_HEADER: hands it to the request it answers (a FETCH, a
  // -18 joining FETCH or a -22 fill). False when no live request has this ID (the caller stops
  // the stream or, for an ID never issued, closes the session).
  bool route_fetch_stream(uint64_t request_id, core::StreamInput& input);

  // The peer's control stream.
  void on_peer_setup(const w::Setup& setup);
  void on_peer_goaway(const w::GoAway& goaway);
  bool peer_control_seen = false;

  // An accepted request stream whose first message was read: starts its handler (first is
  // swapped into the handler, which keeps the message's storage).
  void dispatch_request(SendStreamPtr send, core::StreamInput& input, w::ControlMessage& first);

  AliasTable aliases;
  uint64_t next_alias = 0;    // publisher role: the Track Alias of the next SUBSCRIBE_OK
  size_t parked_streams = 0;  // uni streams waiting for an unknown alias
  static constexpr size_t kMaxParkedStreams = 64;
  // Bytes one parked stream (or a join arriving before SUBSCRIBE_OK) holds before it withholds
  // flow-control credit.
  static constexpr size_t kMaxHeldBytes = 64 << 10;

  IntrusiveList<SubscribeServeTask, ServeTag> serving;
  // The same subscriptions by Request ID (a -18 joining FETCH names one) and by track (-18
  // refuses a second subscription to one track): a lookup, not a walk of every subscription
  // held (churn at held=1024 cost 3.5x held=1 with the walks).
  std::map<uint64_t, SubscribeServeTask*> serving_by_id;
  std::map<std::pair<std::string, std::string>, SubscribeServeTask*> serving_by_track;
  IntrusiveList<FetchRequestTask, FetchTag> fetching;
  IntrusiveList<SubscribeRequestTask, SubTag> subscribed;
  IntrusiveList<NamespaceServeTask, NsServeTag> namespace_servers;
  IntrusiveList<NamespaceRequestTask, NsRequestTag> namespace_requests;
  IntrusiveList<PublishNamespaceRequestTask, PubNsTag> publishing_namespaces;

 private:
  void serve_subscription(const Path& broadcast, TrackRequest request) override;
  Result<FetchConsumer> fetch_into(const Path& broadcast, std::string_view track, uint64_t group,
                                   const FetchOptions& options, GroupProducer&& into) override;

  w::IetfVersion v_;
  uint64_t next_request_id_;
  PeerRequestIds peer_ids_;
  std::unique_ptr<Pools> pools_;
  std::unique_ptr<ControlTask> control_;
};

}  // namespace moq::session::ietf
