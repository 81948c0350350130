#include "model/session/ietf/refuse.h"

#include "model/session/ietf/errors.h"

namespace moq::session::ietf {

void RefuseTask::start(SendStreamPtr send, core::StreamInput& input, w::RequestErrorCode code,
                       std::string reason) {
  adopt_stream(std::move(send), input);
  error_ = request_error(code, std::move(reason));
  wake();
}

void RefuseTask::clear() {
  RequestTask::clear();
  error_ = w::RequestError{};
  sent_ = false;
}

Poll RefuseTask::step() {
  if (!sent_) {
    sent_ = true;
    if (!send_message(error_)) return Poll::Done;
  }
  if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
  // Done once our FIN is out and the requester's side ended (FIN, reset, or stopped by us: a
  // refused PUBLISH is stopped at once). What it sends meanwhile does not matter.
  w::ControlMessage msg;
  // The defaults: read on past every message, wait while none is complete, done once it ended.
  return core::read_each([&] { return next_message(msg); }).value_or(Poll::Done);
}

}  // namespace moq::session::ietf
