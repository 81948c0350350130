#include "model/session/ietf/publish_namespace.h"

#include "model/session/core/dispatch.h"
#include "model/session/ietf/names.h"

namespace moq::session::ietf {

namespace {
constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);
}  // namespace

// ---- Ours ----

void PublishNamespaceRequestTask::start(const Path& path) {
  path_ = path;
  session_.publishing_namespaces.push_back(*this);
  wake();
}

void PublishNamespaceRequestTask::withdraw() {
  withdrawn_ = true;
  Link<PubNsTag>::unlink();
  wake();
}

void PublishNamespaceRequestTask::clear() {
  RequestTask::clear();
  Link<PubNsTag>::unlink();
  path_ = Path();
  sent_ = false;
  withdrawn_ = false;
}

bool PublishNamespaceRequestTask::on(const w::RequestOk&) {
  return true;
}

bool PublishNamespaceRequestTask::on(const w::RequestError&) {
  (void)end_send();  // refused: our half ends too
  return true;
}

Poll PublishNamespaceRequestTask::step() {
  if (withdrawn_) {
    cancel(kCancelled);
    return Poll::Done;
  }
  if (!send_) {
    switch (open_stream(StreamKind::Announce)) {
      case Opened::Yes:
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        return Poll::Done;
    }
  }
  if (!sent_) {
    w::PublishNamespace m;
    m.request_id = session_.take_request_id();
    m.track_namespace = namespace_of(path_);
    if (!send_message(m)) return Poll::Done;
    sent_ = true;
  }
  const w::IetfVersion v = session_.v();
  w::ControlMessage msg;
  // Every end returns: the read never goes on past it.
  return core::read_each(
             [&] { return next_message(msg); },
             [&](core::on::Message) -> core::Then<> {
               if (Status st = core::dispatch(*this, msg, "PUBLISH_NAMESPACE request",
                                              [v](const auto& m) { return message_name(m, v); });
                   !st) {
                 session_.violation(st.error());
                 return Poll::Pending;
               }
               return core::kGoOn;
             },
             [&](core::on::Pending) { return write() ? Poll::Pending : Poll::Done; },
             [&](core::on::Ended) {
               if (!send_ended_) cancel(kCancelled);
               return Poll::Done;
             },
             [](core::on::Closed) { return Poll::Done; })
      .value_or(Poll::Done);
}

// ---- The peer's ----

void PublishNamespaceServeTask::start(SendStreamPtr send, core::StreamInput& input, Path path) {
  adopt_stream(std::move(send), input);
  path_ = std::move(path);
  wake();
}

void PublishNamespaceServeTask::clear() {
  if (answered_) session_.peer().unannounce(path_);
  RequestTask::clear();
  path_ = Path();
  answered_ = false;
}

bool PublishNamespaceServeTask::on(const w::RequestUpdate& u) {
  if (!session_.accept_peer_request_id(u.request_id, "REQUEST_UPDATE")) return true;
  send_message(w::RequestOk{});
  return true;
}

Poll PublishNamespaceServeTask::step() {
  if (!answered_) {
    if (!send_message(w::RequestOk{})) return Poll::Done;
    answered_ = true;
    session_.peer().announce(path_);
  }
  // Every end returns: the read never goes on past it.
  return core::read_each([&] { return next_handled(*this, "PUBLISH_NAMESPACE request"); },
                         [&](core::on::Message) -> core::Then<> {
                           if (session_.is_closed()) return Poll::Pending;
                           return core::kGoOn;
                         },
                         [&](core::on::Pending) { return write() ? Poll::Pending : Poll::Done; },
                         [&](core::on::Fin) {  // withdrawn
                           if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
                           return Poll::Done;
                         },
                         [&](core::on::Reset) {
                           cancel(kCancelled);
                           return Poll::Done;
                         })
      .value_or(Poll::Done);
}

}  // namespace moq::session::ietf
