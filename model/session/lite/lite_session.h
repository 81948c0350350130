// The moq-lite session engine (moq-lite-06 and moq-lite-07-wip), behind the version-agnostic
// moq::session::Session interface; what it shares with the moq-transport engine lives in
// model/session/core. README.md in this folder maps streams to data-model objects.
//
// create_lite_session() is what moq::session::create_session() calls for a lite version; the
// LiteSession class is visible here for the session's own tasks, one file per request kind
// (fetch, subscribe + group, announce, track, goaway, auth, setup), both roles in each.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/base/bytes.h"
#include "model/base/codec.h"
#include "model/data/data.h"
#include "model/session/core/session_base.h"
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

class LiteSession final : public core::SessionBase {
 public:
  LiteSession(Connection& conn, Version version, SessionConfig config);
  ~LiteSession() override;

  // ---- Session: the viewer role's requests (subscribe() and fetch() are SessionBase's) ----
  Result<AnnounceConsumer> announced(const Path& prefix) override;
  Result<Reply<TrackInfo>> track_info(const Path& broadcast, std::string_view track) override;
  Status goaway(std::string_view uri) override;
  Result<Reply<AuthGrant>> authenticate(std::span<const uint8_t> token) override;

  // ---- For the session's tasks ----
  wire::lite::LiteVersion wire_version() const { return wire_; }
  Pools& pools() { return *pools_; }

  // Encodes a message (m.encode(Writer&, version)) into pooled bytes, after the stream type byte
  // when there is one (type < 0: none). Counts it.
  template <class M>
  Result<Bytes> encode(const M& m, int type = -1) {
    return encode_with(wire::lite::varint_form(wire_), [&](Writer& w) {
      if (type >= 0) w.u8(static_cast<uint8_t>(type));
      return m.encode(w, wire_);
    });
  }

  // Peer control messages. Each returns an Error (message text) for a protocol violation.
  Status on_peer_setup(const wire::lite::SetupMessage& setup);
  Status on_peer_goaway(std::string uri);

  // Viewer subscriptions by Subscribe ID (group streams name them).
  SubscribeRequestTask* find_subscription(uint64_t id) const;
  void register_subscription(uint64_t id, SubscribeRequestTask& task);
  void unregister_subscription(uint64_t id);

 private:
  void serve_subscription(const Path& broadcast, TrackRequest request) override;
  Result<FetchConsumer> fetch_into(const Path& broadcast, std::string_view track, uint64_t group,
                                   const FetchOptions& options, GroupProducer&& into) override;

  wire::lite::LiteVersion wire_;
  std::unique_ptr<Pools> pools_;
  std::unique_ptr<AcceptTask> accept_;
  bool peer_setup_ = false;
  std::map<uint64_t, SubscribeRequestTask*> subscriptions_;
  uint64_t next_subscribe_id_ = 0;
  wire::lite::Fetch fetch_msg_;  // reused: its strings keep their capacity
};

}  // namespace moq::session::lite
