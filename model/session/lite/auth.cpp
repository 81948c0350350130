#include "model/session/lite/auth.h"

#include "model/session/core/dispatch.h"
#include "model/session/lite/lite_session.h"
#include "model/session/lite/stream_codes.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

// ---- The acceptor ----

void AuthServeTask::start(SendStreamPtr send, core::StreamInput& input) {
  adopt(std::move(send), input);
  wake();
}

void AuthServeTask::clear() {
  BidiTask::clear();
  answered_ = false;
  refused_ = false;
}

Poll AuthServeTask::step() {
  if (!answered_) {
    const wire::lite::LiteVersion v = session_.wire_version();
    wire::lite::Auth msg;
    if (core::Then<> p =
            core::on_read(next(wire::lite::Auth::kName, decoder_of<wire::lite::Auth>(v), msg)))
      return *p;
    answered_ = true;
    send_->set_send_order(kControlSendOrder);
    const auto& authorize = session_.config().authorize;
    Result<AuthGrant> grant =
        authorize ? authorize(msg.token) : Result<AuthGrant>(AuthGrant{{"**"}, {"**"}, 0});
    if (grant) {
      wire::lite::AuthOk ok;
      ok.publish = grant->publish;
      ok.subscribe = grant->subscribe;
      ok.expires_ms = grant->expires_ms;
      if (Result<Bytes> b = session_.encode(ok)) send(std::move(*b));
    } else {
      wire::lite::AuthError err;
      err.code = grant.error().code;
      err.reason = grant.error().message.substr(0, wire::lite::kMaxReasonLength);
      if (Result<Bytes> b = session_.encode(err)) send(std::move(*b));
      refused_ = true;
    }
  }
  if (refused_) {
    if (!finish()) return out_.idle() ? Poll::Done : Poll::Pending;
  } else {
    switch (flush()) {
      case core::Flush::Done:
        break;
      case core::Flush::Pending:
        return Poll::Pending;
      case core::Flush::Failed:
        return Poll::Done;
    }
  }
  if (!drain()) return Poll::Pending;
  (void)finish();  // paired close (harmless when already finished)
  return Poll::Done;
}

// ---- The presenter ----

void AuthRequestTask::start(Bytes request, ReplyProducer<AuthGrant> reply) {
  request_ = std::move(request);
  reply_ = std::move(reply);
  wake();
}

void AuthRequestTask::clear() {
  BidiTask::clear();
  request_.reset();
  reply_ = ReplyProducer<AuthGrant>();
}

void AuthRequestTask::on_abandon(const Error& reason) {
  if (reply_) reply_.fail(reason);
}

bool AuthRequestTask::on(const wire::lite::AuthOk& ok) {
  reply_.resolve(AuthGrant{ok.publish, ok.subscribe, ok.expires_ms});
  return true;
}

bool AuthRequestTask::on(const wire::lite::AuthError& err) {
  // A refusal, or later a revocation (the Reply keeps its first answer).
  reply_.fail(Error{err.code, "AUTH refused by the peer: " + err.reason});
  return true;
}

Poll AuthRequestTask::step() {
  if (!send_) {
    switch (open(StreamKind::Auth, kControlSendOrder)) {
      case Opened::Yes:
        send(std::move(request_));
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        reply_.fail(Error{stream_code::kSessionClosed, "AUTH: the connection is closed"});
        return Poll::Done;
    }
  }
  if (flush() == core::Flush::Failed) {
    reply_.fail(Error{stream_code::kSessionClosed, "AUTH: the stream failed"});
    return Poll::Done;
  }
  const wire::lite::LiteVersion v = session_.wire_version();
  wire::lite::AuthReply reply;
  // Every end returns: the read never goes on past it.
  return core::read_each(
             [&] {
               return next(
                   "AUTH reply",
                   [v](std::span<const uint8_t> in) {
                     return wire::lite::decode_auth_reply(in, v);
                   },
                   reply);
             },
             [&](core::on::Message) -> core::Then<> {
               if (Status st = core::dispatch(*this, reply, "Auth",
                                              [](const auto& m) { return message_name(m); });
                   !st) {
                 session_.violation(st.error());
                 return Poll::Pending;
               }
               return core::kGoOn;
             },
             [&](core::on::Ended) {
               reply_.fail(Error{in_.code(), "AUTH: the peer ended the stream without an answer"});
               (void)finish();  // paired close
               return Poll::Done;
             },
             [&](core::on::Closed) {
               reply_.fail(Error{in_.code(), "AUTH: the connection closed"});
               return Poll::Done;
             })
      .value_or(Poll::Pending);
}

}  // namespace moq::session::lite
