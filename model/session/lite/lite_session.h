// The moq-lite session engine (moq-lite-06 and moq-lite-07-wip), behind the version-agnostic
// moq::session::Session interface. README.md in this folder maps streams to data-model objects.
//
// create_lite_session() is what moq::session::create_session() calls for a lite version; the
// LiteSession class is visible here for the session's own tasks.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/async/executor.h"
#include "model/base/bytes.h"
#include "model/base/codec.h"
#include "model/data/data.h"
#include "model/session/lite/task.h"
#include "model/session/session.h"
#include "model/transport.h"
#include "model/wire/lite/messages.h"

namespace moq::session::lite {

// A lite session over conn for a lite version (Lite06 or Lite07Wip). The ALPN check is the
// caller's (create_session does it).
Result<std::unique_ptr<Session>> create_lite_session(Connection& conn, Version version,
                                                     SessionConfig config);

struct Pools;
class AcceptTask;
class SubscribeRequestTask;

// Send orders (higher first, one convention everywhere): control streams above all data, then
// subscriber priority, then newer groups first.
inline constexpr int64_t kControlSendOrder = INT64_MAX;
inline constexpr int kPrioritySendShift = 48;
constexpr int64_t data_send_order(uint8_t priority, uint64_t sequence) {
  constexpr uint64_t kSeqMask = (uint64_t{1} << kPrioritySendShift) - 1;
  return static_cast<int64_t>((uint64_t{priority} << kPrioritySendShift) |
                              (sequence < kSeqMask ? sequence : kSeqMask));
}

class LiteSession final : public Session {
 public:
  LiteSession(Connection& conn, Version version, SessionConfig config);
  ~LiteSession() override;

  // ---- Session ----
  Version version() const override { return version_; }
  bool is_client() const override { return client_; }
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

  // ---- For the session's tasks ----
  Connection& conn() { return conn_; }
  Executor& executor() { return conn_.executor(); }
  wire::lite::LiteVersion wire_version() const { return wire_; }
  SessionCounters& stats() { return counters_; }
  ByteArena& arena() { return arena_; }
  Pools& pools() { return *pools_; }
  const SessionConfig& config() const { return config_; }
  IntrusiveList<SessionTask, ActiveTag>& active_tasks() { return active_; }

  // Encodes a message (m.encode(Writer&, version)) into pooled bytes, after the stream type
  // byte when there is one (type < 0: none). Counts it.
  template <class M>
  Result<Bytes> encode(const M& m, int type = -1) {
    scratch_.clear();
    Writer w(scratch_, wire::lite::varint_form(wire_));
    if (type >= 0) w.u8(static_cast<uint8_t>(type));
    if (Status st = m.encode(w, wire_); !st) return st.error();
    ++counters_.messages_encoded;
    return arena_.copy(scratch_);
  }
  // Closes the session with PROTOCOL_VIOLATION (0x3) and message (naming the message / field).
  void violation(std::string message);
  // The connection closed under us (peer close or transport failure).
  void connection_closed();
  const Error& close_reason() const { return *error_; }
  void count_opened(StreamKind k) { ++counters_.streams_opened[static_cast<size_t>(k)]; }
  void count_accepted(StreamKind k) { ++counters_.streams_accepted[static_cast<size_t>(k)]; }

  // Peer control messages. Each returns an Error (message text) for a protocol violation.
  Status on_peer_setup(const wire::lite::SetupMessage& setup);
  Status on_peer_goaway(std::string uri);
  const std::optional<wire::lite::SetupMessage>& peer_setup() const { return peer_setup_; }

  // Viewer subscriptions by Subscribe ID (group streams name them).
  SubscribeRequestTask* find_subscription(uint64_t id) const;
  void register_subscription(uint64_t id, SubscribeRequestTask& task);
  void unregister_subscription(uint64_t id);

  // Routes the peer announced (viewer side): the broadcasts appear in the mirror origin that
  // announced() listens to. Counted per path: overlapping announce streams may both carry one.
  void route_started(const Path& path);
  void route_ended(const Path& path);

 private:
  struct Mirror {
    BroadcastProducer broadcast;
    uint32_t routes = 0;  // announce streams that carry this path
  };
  Mirror& mirror(const Path& path);
  Status check_open(const char* what) const;
  void shut(Error reason);

  Connection& conn_;
  Version version_;
  wire::lite::LiteVersion wire_;
  SessionConfig config_;
  bool client_;
  SessionCounters counters_;

  bool closed_ = false;
  std::optional<Error> error_;
  WaitList closed_list_{"session closed"};

  ByteArena arena_;
  std::vector<uint8_t> scratch_;
  IntrusiveList<SessionTask, ActiveTag> active_;
  std::unique_ptr<Pools> pools_;
  std::unique_ptr<AcceptTask> accept_;

  std::optional<wire::lite::SetupMessage> peer_setup_;
  bool goaway_sent_ = false;
  std::optional<std::string> peer_goaway_;

  // Viewer state: fetched groups come from a private track's pool (its cache keeps only the
  // latest); the peer's broadcasts are mirrored into local data-model objects.
  TrackProducer fetch_groups_;
  OriginProducer mirror_origin_;
  std::map<std::string, Mirror, std::less<>> mirrors_;
  std::map<uint64_t, SubscribeRequestTask*> subscriptions_;
  uint64_t next_subscribe_id_ = 0;
  wire::lite::Fetch fetch_msg_;  // reused: its strings keep their capacity
};

}  // namespace moq::session::lite
