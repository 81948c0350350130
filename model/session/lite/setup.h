// The Setup stream (uni stream 0x1, draft-lcurley-moq-lite-06), both roles: each side sends one
// SETUP on its own stream and FINs it; each reads the peer's (a second one, a server's Path/Role,
// or bytes after the SETUP are violations).
#pragma once

#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/session/core/outbox.h"
#include "model/session/core/stream_input.h"
#include "model/session/lite/task.h"

namespace moq::session::lite {

// Ours: one SETUP, then FIN.
class SetupSendTask final : public UniTask {
 public:
  SetupSendTask(LiteSession& s, TaskPoolBase& p) : UniTask(s, p, "lite setup send") {}
  void start(Bytes setup);

 protected:
  Poll step() override;
  void clear() override;

 private:
  Bytes setup_;
  SendStreamPtr stream_;
  core::Outbox out_;
  Waiter waiter_{*this};
};

// The peer's: reads the SETUP (read is set once it was taken), then checks that nothing but the
// FIN follows. Done when the stream ended; Pending otherwise (also once a violation closed the
// session).
Poll receive_setup(LiteSession& s, core::StreamInput& in, Waiter& waiter, bool& read);

}  // namespace moq::session::lite
