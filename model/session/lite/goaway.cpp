#include "model/session/lite/goaway.h"

#include "model/session/lite/lite_session.h"
#include "model/session/lite/stream_codes.h"

namespace moq::session::lite {

void GoawayServeTask::start(SendStreamPtr send, core::StreamInput& input) {
  adopt(std::move(send), input);
  wake();
}

void GoawayServeTask::clear() {
  BidiTask::clear();
  received_ = false;
}

Poll GoawayServeTask::step() {
  if (!received_) {
    const wire::lite::LiteVersion v = session_.wire_version();
    wire::lite::Goaway msg;
    if (core::Then<> p =
            core::on_read(next(wire::lite::Goaway::kName, decoder_of<wire::lite::Goaway>(v), msg)))
      return *p;
    received_ = true;
    if (Status st = session_.on_peer_goaway(std::move(msg.uri)); !st) {
      session_.violation(st.error());
      return Poll::Pending;
    }
  }
  if (!drain()) return Poll::Pending;
  (void)finish();  // the peer FINed: paired close
  return Poll::Done;
}

void GoawaySendTask::start(Bytes request) {
  request_ = std::move(request);
  wake();
}

void GoawaySendTask::clear() {
  BidiTask::clear();
  request_.reset();
}

Poll GoawaySendTask::step() {
  if (!send_) {
    switch (open(StreamKind::Goaway, kControlSendOrder)) {
      case Opened::Yes:
        send(std::move(request_));
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        return Poll::Done;
    }
  }
  if (!send_ended_) {
    switch (flush()) {
      case core::Flush::Done:
        (void)finish();  // ready to terminate
        break;
      case core::Flush::Pending:
        return Poll::Pending;
      case core::Flush::Failed:
        return Poll::Done;
    }
  }
  return drain() ? Poll::Done : Poll::Pending;
}

}  // namespace moq::session::lite
