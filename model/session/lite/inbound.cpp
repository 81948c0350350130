// Streams the peer opens: accepted, typed, and handled or handed over.
#include "model/session/lite/inbound.h"

#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/stream_io.h"

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
      pools.uni_inbound.acquire(session_).start(std::move(*uni));
      continue;
    }
    Result<moq::BidiStream> bidi = conn.accept_bidi();
    if (!bidi) break;
    if (*bidi) {
      pools.bidi_inbound.acquire(session_).start(std::move(*bidi));
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
  stream_ = std::move(stream);
  wake();
}

void UniInboundTask::clear() {
  state_ = State::Type;
  stream_.reset();
  reader_.clear();
  group_ = GroupProducer();
  subscribe_id_ = 0;
  track_.clear();
  parser_.reset();
  waiter_.cancel();
}

void UniInboundTask::on_abandon(const Error& reason) {
  if (group_) group_.abort(reason);
}

std::string UniInboundTask::describe() const {
  return "group " + std::to_string(group_ ? group_.sequence() : 0) + " of track '" + track_ +
         "' (subscription " + std::to_string(subscribe_id_) + ")";
}

Poll UniInboundTask::step() {
  const LiteVersion v = session_.wire_version();
  switch (state_) {
    case State::Type: {
      uint64_t type = 0;
      switch (reader_.next(*stream_, waiter_, "stream type", type_decoder(v), type)) {
        case Got::Message:
          break;
        case Got::Pending:
          return Poll::Pending;
        default:
          return Poll::Done;  // ended before its type: nothing to do
      }
      const std::optional<wire::lite::UniStream> kind = wire::lite::uni_stream_from_type(type, v);
      if (!kind) {
        session_.count_accepted(StreamKind::Unknown);
        ++session_.stats().unknown_streams;
        stream_->stop(kUnknownStreamCode);
        return Poll::Done;
      }
      if (*kind == wire::lite::UniStream::Setup) {
        session_.count_accepted(StreamKind::Setup);
        state_ = State::Setup;
        return step();
      }
      session_.count_accepted(StreamKind::Group);
      state_ = State::GroupHeader;
      return group_header();
    }
    case State::Setup: {
      wire::lite::SetupMessage setup;
      const Got got = reader_.next(
          *stream_, waiter_, wire::lite::SetupMessage::kName,
          [v](std::span<const uint8_t> in) { return wire::lite::SetupMessage::decode(in, v); },
          setup);
      switch (got) {
        case Got::Message:
          break;
        case Got::Pending:
          return Poll::Pending;
        case Got::Malformed:
          session_.violation(std::move(reader_.error()));
          return Poll::Pending;
        case Got::Fin:
          session_.violation("SETUP: the Setup stream ended without a SETUP");
          return Poll::Pending;
        case Got::Reset:
        case Got::Failed:
          return Poll::Done;
      }
      ++session_.stats().messages_decoded;
      if (Status st = session_.on_peer_setup(setup); !st) {
        session_.violation(st.error().message);
        return Poll::Pending;
      }
      state_ = State::SetupEnd;
      [[fallthrough]];
    }
    case State::SetupEnd:
      // One SETUP, then FIN: anything more is a violation.
      for (;;) {
        if (!reader_.empty()) {
          session_.violation("SETUP: bytes after the SETUP message on the Setup stream");
          return Poll::Pending;
        }
        const ReadResult r = reader_.read_more(*stream_);
        if (r.status == ReadStatus::Data) continue;
        if (r.status == ReadStatus::WouldBlock) {
          waiter_.wait(stream_->readable());
          return Poll::Pending;
        }
        return Poll::Done;
      }
    case State::GroupHeader:
      return group_header();
    case State::Frames:
      return frames();
  }
  return Poll::Done;
}

Poll UniInboundTask::group_header() {
  const LiteVersion v = session_.wire_version();
  wire::lite::GroupHeader header;
  const Got got = reader_.next(
      *stream_, waiter_, wire::lite::GroupHeader::kName,
      [v](std::span<const uint8_t> in) { return wire::lite::decode_group_header(in, v); }, header);
  switch (got) {
    case Got::Message:
      break;
    case Got::Pending:
      return Poll::Pending;
    case Got::Malformed:
      session_.violation(std::move(reader_.error()));
      return Poll::Pending;
    case Got::Reset:
      ++session_.stats().resets_received;
      return Poll::Done;
    case Got::Fin:
    case Got::Failed:
      return Poll::Done;
  }
  subscribe_id_ = header.subscribe_id;
  SubscribeRequestTask* sub = session_.find_subscription(header.subscribe_id);
  if (!sub) {
    // Unknown (or already cancelled) subscription: refuse the stream, keep the session.
    stream_->stop(stream_code::kCancelled);
    return Poll::Done;
  }
  track_.assign(sub->track_name());
  Result<GroupProducer> group = sub->open_group(header.sequence);
  if (!group) {
    // A duplicate group, or one past the track's end: drop this stream only.
    ++session_.stats().protocol_errors;
    stream_->stop(stream_code::kCancelled);
    return Poll::Done;
  }
  group_ = std::move(*group);
  state_ = State::Frames;
  if (!reader_.empty()) {
    // Frames that arrived in the header's chunk.
    if (Status st = parser_.feed(reader_.take_rest(), group_, v); !st) {
      group_.abort(Error{st.error().code, describe() + ": " + st.error().message});
      session_.violation(st.error().message);
      return Poll::Pending;
    }
  }
  return frames();
}

Poll UniInboundTask::frames() {
  const LiteVersion v = session_.wire_version();
  FramesResult r = receive_frames(*stream_, waiter_, parser_, group_, v);
  session_.stats().frames_received += parser_.take_frames();
  switch (r.end) {
    case FramesEnd::Pending:
      return Poll::Pending;
    case FramesEnd::Fin:
      (void)group_.finish();
      return Poll::Done;
    case FramesEnd::Reset:
      // A reset group stream aborts that group only.
      ++session_.stats().resets_received;
      group_.abort(
          Error{r.code, describe() + " was reset by the peer with " + describe_code(r.code, v)});
      return Poll::Done;
    case FramesEnd::Failed:
      group_.abort(Error{r.code, describe() + " failed: the connection closed"});
      return Poll::Done;
    case FramesEnd::Bad:
      group_.abort(Error{r.error.code, describe() + ": " + r.error.message});
      if (r.malformed) {
        session_.violation(std::move(r.error.message));
        return Poll::Pending;
      }
      stream_->stop(reset_code_for(r.error));
      return Poll::Done;
  }
  return Poll::Done;
}

// ---- BidiInboundTask ----

void BidiInboundTask::start(moq::BidiStream stream) {
  stream_ = std::move(stream);
  wake();
}

void BidiInboundTask::clear() {
  stream_.send.reset();
  stream_.recv.reset();
  reader_.clear();
  waiter_.cancel();
}

Poll BidiInboundTask::step() {
  uint64_t type = 0;
  switch (reader_.next(*stream_.recv, waiter_, "stream type", type_decoder(session_.wire_version()),
                       type)) {
    case Got::Message:
      dispatch(type);
      return Poll::Done;
    case Got::Pending:
      return Poll::Pending;
    default:
      return Poll::Done;
  }
}

void BidiInboundTask::dispatch(uint64_t type) {
  const std::optional<wire::lite::BidiStream> kind =
      wire::lite::bidi_stream_from_type(type, session_.wire_version());
  Pools& pools = session_.pools();
  if (!kind) {
    session_.count_accepted(StreamKind::Unknown);
    ++session_.stats().unknown_streams;
    stream_.recv->stop(kUnknownStreamCode);
    if (stream_.send->reset(kUnknownStreamCode)) ++session_.stats().streams_reset;
    return;
  }
  switch (*kind) {
    case wire::lite::BidiStream::Fetch:
      session_.count_accepted(StreamKind::Fetch);
      pools.fetch_serve.acquire(session_).start(std::move(stream_), reader_);
      return;
    case wire::lite::BidiStream::Subscribe:
      session_.count_accepted(StreamKind::Subscribe);
      pools.subscribe_serve.acquire(session_).start(std::move(stream_), reader_);
      return;
    case wire::lite::BidiStream::Announce:
      session_.count_accepted(StreamKind::Announce);
      pools.announce_serve.acquire(session_).start(std::move(stream_), reader_);
      return;
    case wire::lite::BidiStream::Track:
      session_.count_accepted(StreamKind::Track);
      pools.track_serve.acquire(session_).start(std::move(stream_), reader_);
      return;
    case wire::lite::BidiStream::Goaway:
      session_.count_accepted(StreamKind::Goaway);
      pools.goaway_serve.acquire(session_).start(std::move(stream_), reader_);
      return;
    case wire::lite::BidiStream::Auth:
      session_.count_accepted(StreamKind::Auth);
      pools.auth_serve.acquire(session_).start(std::move(stream_), reader_);
      return;
    case wire::lite::BidiStream::Probe:
      // This endpoint advertises no Probe level, so it resets Probe streams (spec 4.5).
      session_.count_accepted(StreamKind::Probe);
      stream_.recv->stop(stream_code::kCancelled);
      if (stream_.send->reset(stream_code::kCancelled)) ++session_.stats().streams_reset;
      return;
  }
}

}  // namespace moq::session::lite
