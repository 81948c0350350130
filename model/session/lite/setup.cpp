#include "model/session/lite/setup.h"

#include "model/session/lite/lite_session.h"
#include "model/session/lite/stream_codes.h"

namespace moq::session::lite {

void SetupSendTask::start(Bytes setup) {
  setup_ = std::move(setup);
  wake();
}

void SetupSendTask::clear() {
  setup_.reset();
  stream_.reset();
  out_.clear();
  waiter_.cancel();
}

Poll SetupSendTask::step() {
  if (!stream_) {
    Result<SendStreamPtr> opened = session_.conn().open_uni();
    if (!opened) return Poll::Done;
    if (!*opened) {
      waiter_.wait(session_.conn().can_open());
      return Poll::Pending;
    }
    stream_ = std::move(*opened);
    session_.count_opened(StreamKind::Setup);
    stream_->set_send_order(kControlSendOrder);
    out_.push(std::move(setup_));
  }
  switch (out_.flush(*stream_, waiter_)) {
    case core::Flush::Done:
      (void)stream_->finish();
      return Poll::Done;
    case core::Flush::Pending:
      return Poll::Pending;
    case core::Flush::Failed:
      return Poll::Done;
  }
  return Poll::Done;
}

Poll receive_setup(LiteSession& s, core::StreamInput& in, Waiter& waiter, bool& read) {
  namespace session_code = wire::lite::session_code;
  if (!read) {
    const wire::lite::LiteVersion v = s.wire_version();
    wire::lite::SetupMessage setup;
    if (core::Then<> p = core::on_read(
            in.next(
                waiter, wire::lite::SetupMessage::kName,
                [v](std::span<const uint8_t> bytes) {
                  return wire::lite::SetupMessage::decode(bytes, v);
                },
                setup),
            [&](core::on::Malformed) {
              s.violation(std::move(in.error()));
              return Poll::Pending;
            },
            [&](core::on::Fin) {
              s.violation(Error{session_code::kProtocolViolation,
                                "SETUP: the Setup stream ended without a SETUP"});
              return Poll::Pending;
            }))
      return *p;
    read = true;
    ++s.stats().messages_decoded;
    if (Status st = s.on_peer_setup(setup); !st) {
      s.violation(st.error());
      return Poll::Pending;
    }
  }
  // One SETUP, then FIN: anything more is a violation.
  switch (in.fill()) {
    case ReadStatus::Data:
      s.violation(Error{session_code::kProtocolViolation,
                        "SETUP: bytes after the SETUP message on the Setup stream"});
      return Poll::Pending;
    case ReadStatus::WouldBlock:
      waiter.wait(in.readable());
      return Poll::Pending;
    case ReadStatus::Fin:
    case ReadStatus::Reset:
    case ReadStatus::Error:
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::lite
