// AUTH (bidi stream 0x7, moq-lite-07 only), both roles: the acceptor answers AUTH with
// SessionConfig::authorize's decision (AUTH_OK, or AUTH_ERROR and FIN); the presenter's first
// answer resolves a Reply<AuthGrant>, and the stream stays open until the peer ends it.
#pragma once

#include "model/base/bytes.h"
#include "model/session/lite/task.h"
#include "model/session/session.h"
#include "model/wire/lite/messages.h"

namespace moq::session::lite {

// The peer's AUTH.
class AuthServeTask final : public BidiTask {
 public:
  AuthServeTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite auth serve") {}
  void start(SendStreamPtr send, core::StreamInput& input);

 protected:
  Poll step() override;
  void clear() override;

 private:
  bool answered_ = false;
  bool refused_ = false;  // AUTH_ERROR: the acceptor then ends its half
};

// Ours.
class AuthRequestTask final : public BidiTask {
 public:
  AuthRequestTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite auth request") {}
  void start(Bytes request, ReplyProducer<AuthGrant> reply);

  // The handlers of the acceptor's replies.
  bool on(const wire::lite::AuthOk& ok);
  bool on(const wire::lite::AuthError& error);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  Bytes request_;
  ReplyProducer<AuthGrant> reply_;
};

}  // namespace moq::session::lite
