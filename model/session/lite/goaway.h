// GOAWAY (bidi stream 0x5, draft-lcurley-moq-lite-06), both roles: the sender writes GOAWAY and
// FINs at once (it is ready to terminate), then waits for the peer's FIN; the receiver records
// peer_goaway() (new requests then fail) and FINs once the sender did.
#pragma once

#include "model/base/bytes.h"
#include "model/session/lite/task.h"

namespace moq::session::lite {

// The peer's GOAWAY.
class GoawayServeTask final : public BidiTask {
 public:
  GoawayServeTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite goaway serve") {}
  void start(SendStreamPtr send, core::StreamInput& input);

 protected:
  Poll step() override;
  void clear() override;

 private:
  bool received_ = false;
};

// Ours.
class GoawaySendTask final : public BidiTask {
 public:
  GoawaySendTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite goaway send") {}
  void start(Bytes request);

 protected:
  Poll step() override;
  void clear() override;

 private:
  Bytes request_;
};

}  // namespace moq::session::lite
