// ANNOUNCE (bidi stream 0x1, draft-lcurley-moq-lite-06), both roles: the publisher answers
// ANNOUNCE_REQUEST with ANNOUNCE_OK (its hop and the snapshot count), ANNOUNCE_START per broadcast
// of the snapshot, then START / END as broadcasts come and go under the prefix; the viewer
// publishes what it learns in the session's copy of the peer's broadcasts
// (model/session/core/peer_origin.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "model/base/path.h"
#include "model/data/data.h"
#include "model/session/lite/task.h"
#include "model/wire/lite/messages.h"

namespace moq::session::lite {

// Publisher.
class AnnounceServeTask final : public BidiTask {
 public:
  AnnounceServeTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite announce serve") {}
  void start(SendStreamPtr send, core::StreamInput& input);

 protected:
  Poll step() override;
  void clear() override;

 private:
  bool visible(const Path& path) const;
  void announce(const AnnounceEvent& event);

  bool started_ = false;
  Path prefix_;
  bool hidden_ = false;
  AnnounceConsumer announcements_;
  uint64_t next_id_ = 0;
  std::map<std::string, uint64_t, std::less<>> ids_;  // live path -> Announce ID
  Waiter events_waiter_{*this};
};

// Viewer: the routes the peer announces under the prefix.
class AnnounceRequestTask final : public BidiTask {
 public:
  AnnounceRequestTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite announce request") {}
  void start(const Path& prefix);

  // The handlers of the publisher's messages after ANNOUNCE_OK.
  bool on(const wire::lite::AnnounceStart& start);
  bool on(const wire::lite::AnnounceEnd& end);
  bool on(const wire::lite::AnnounceUpdate& update);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  // Ends every route learned on this stream.
  void withdraw_all();
  // The route of an Announce ID that END / UPDATE name; a violation when there is none.
  std::map<uint64_t, std::optional<Path>>::iterator route(uint64_t id, const char* message);

  Bytes request_;
  bool ok_received_ = false;
  Path prefix_;
  uint64_t next_id_ = 0;
  std::map<uint64_t, std::optional<Path>> routes_;  // Announce ID -> path (nullopt: a loop)
  std::map<std::string, uint64_t, std::less<>> live_;
};

}  // namespace moq::session::lite
