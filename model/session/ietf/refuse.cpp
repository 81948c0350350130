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
  for (;;) {
    switch (next_message(msg)) {
      case core::In::Message:
        continue;
      case core::In::Pending:
        return Poll::Pending;
      case core::In::Malformed:
        return Poll::Pending;
      case core::In::Fin:
      case core::In::Reset:
      case core::In::Closed:
        return Poll::Done;
    }
  }
}

}  // namespace moq::session::ietf
