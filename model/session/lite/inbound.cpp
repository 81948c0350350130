#include "model/session/lite/inbound.h"

#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/setup.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;
using wire::lite::LiteVersion;

namespace {
// The stop / reset code for a stream type this endpoint does not handle. The spec names no code;
// 0x0 reads as "unspecified" on every version.
constexpr uint64_t kUnknownStreamCode = stream_code::kInternalError;

auto type_decoder(LiteVersion v) {
  return [v](std::span<const uint8_t> in) { return wire::lite::decode_stream_type(in, v); };
}
}  // namespace

// ---- AcceptTask ----

AcceptTask::AcceptTask(LiteSession& session)
    : Task(session.executor(), "lite accept"), session_(session) {}

Poll AcceptTask::poll() {
  if (session_.is_closed()) return Poll::Pending;  // nothing more to accept; stays parked
  Connection& conn = session_.conn();
  Pools& pools = session_.pools();
  for (;;) {
    Result<RecvStreamPtr> uni = conn.accept_uni();
    if (!uni) break;
    if (*uni) {
      pools.uni_inbound.acquire().start(std::move(*uni));
      continue;
    }
    Result<moq::BidiStream> bidi = conn.accept_bidi();
    if (!bidi) break;
    if (*bidi) {
      pools.bidi_inbound.acquire().start(std::move(*bidi));
      continue;
    }
    incoming_.wait(conn.incoming());
    closed_.wait(conn.closed());
    if (!conn.close_error()) return Poll::Pending;
    break;
  }
  session_.connection_closed();
  return Poll::Pending;
}

// ---- UniInboundTask ----

void UniInboundTask::start(RecvStreamPtr stream) {
  in_.attach(std::move(stream));
  wake();
}

void UniInboundTask::clear() {
  state_ = State::Type;
  in_.clear();
  setup_read_ = false;
  group_.clear();
  waiter_.cancel();
}

void UniInboundTask::on_abandon(const Error& reason) {
  group_.abandon(reason);
}

Poll UniInboundTask::step() {
  switch (state_) {
    case State::Type: {
      uint64_t type = 0;
      // Ended before its type, or with a type the decoder refused: nothing to do.
      if (core::Then<> p = core::on_read(
              in_.next(waiter_, "stream type", type_decoder(session_.wire_version()), type),
              [](core::on::Malformed) { return Poll::Done; }))
        return *p;
      const std::optional<wire::lite::UniStream> kind =
          wire::lite::uni_stream_from_type(type, session_.wire_version());
      if (!kind) {
        session_.count_accepted(StreamKind::Unknown);
        ++session_.stats().unknown_streams;
        in_.stream().stop(kUnknownStreamCode);
        return Poll::Done;
      }
      switch (*kind) {
        case wire::lite::UniStream::Setup:
          session_.count_accepted(StreamKind::Setup);
          state_ = State::Setup;
          return receive_setup(session_, in_, waiter_, setup_read_);
        case wire::lite::UniStream::Group:
          session_.count_accepted(StreamKind::Group);
          state_ = State::GroupHeader;
          return step();
      }
      return Poll::Done;
    }
    case State::Setup:
      return receive_setup(session_, in_, waiter_, setup_read_);
    case State::GroupHeader: {
      const Poll p = group_.header(session_, in_, waiter_);
      if (group_.receiving()) state_ = State::Frames;
      return p;
    }
    case State::Frames:
      return group_.frames(session_, in_, waiter_);
  }
  return Poll::Done;
}

// ---- BidiInboundTask ----

void BidiInboundTask::start(moq::BidiStream stream) {
  send_ = std::move(stream.send);
  in_.attach(std::move(stream.recv));
  wake();
}

void BidiInboundTask::clear() {
  send_.reset();
  in_.clear();
  waiter_.cancel();
}

Poll BidiInboundTask::step() {
  uint64_t type = 0;
  if (core::Then<> p = core::on_read(
          in_.next(waiter_, "stream type", type_decoder(session_.wire_version()), type),
          [](core::on::Malformed) { return Poll::Done; }))
    return *p;
  dispatch(type);
  return Poll::Done;
}

void BidiInboundTask::dispatch(uint64_t type) {
  const std::optional<wire::lite::BidiStream> kind =
      wire::lite::bidi_stream_from_type(type, session_.wire_version());
  Pools& pools = session_.pools();
  if (!kind) {
    session_.count_accepted(StreamKind::Unknown);
    ++session_.stats().unknown_streams;
    in_.stream().stop(kUnknownStreamCode);
    if (send_->reset(kUnknownStreamCode)) ++session_.stats().streams_reset;
    return;
  }
  switch (*kind) {
    case wire::lite::BidiStream::Fetch:
      session_.count_accepted(StreamKind::Fetch);
      pools.fetch_serve.acquire().start(std::move(send_), in_);
      return;
    case wire::lite::BidiStream::Subscribe:
      session_.count_accepted(StreamKind::Subscribe);
      pools.subscribe_serve.acquire().start(std::move(send_), in_);
      return;
    case wire::lite::BidiStream::Announce:
      session_.count_accepted(StreamKind::Announce);
      pools.announce_serve.acquire().start(std::move(send_), in_);
      return;
    case wire::lite::BidiStream::Track:
      session_.count_accepted(StreamKind::Track);
      pools.track_serve.acquire().start(std::move(send_), in_);
      return;
    case wire::lite::BidiStream::Goaway:
      session_.count_accepted(StreamKind::Goaway);
      pools.goaway_serve.acquire().start(std::move(send_), in_);
      return;
    case wire::lite::BidiStream::Auth:
      session_.count_accepted(StreamKind::Auth);
      pools.auth_serve.acquire().start(std::move(send_), in_);
      return;
    case wire::lite::BidiStream::Probe:
      // This endpoint advertises no Probe level, so it resets Probe streams
      // (draft-lcurley-moq-lite-06, PROBE).
      session_.count_accepted(StreamKind::Probe);
      in_.stream().stop(stream_code::kCancelled);
      if (send_->reset(stream_code::kCancelled)) ++session_.stats().streams_reset;
      return;
  }
}

}  // namespace moq::session::lite
