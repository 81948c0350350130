#include "model/session/lite/stream_io.h"

#include <cstdio>

#include "model/data/errors.h"
#include "model/wire/lite/error_codes.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

Flush flush(SendStream& stream, BufChain& out, Waiter& waiter, Error* error) {
  if (out.empty()) return Flush::Done;
  Result<size_t> r = stream.write(out);
  if (!r.ok()) [[unlikely]] {
    out.clear();
    if (error) *error = r.error();
    return Flush::Failed;
  }
  if (out.empty()) [[likely]]
    return Flush::Done;
  waiter.wait(stream.writable());
  return Flush::Pending;
}

FramesResult receive_frames(RecvStream& stream, Waiter& waiter, FrameParser& parser,
                            GroupProducer& group, wire::lite::LiteVersion v) {
  Bytes chunk;
  for (;;) {
    const ReadResult r = stream.read(chunk);
    switch (r.status) {
      case ReadStatus::Data:
        if (Status st = parser.feed(std::move(chunk), group, v); !st) [[unlikely]] {
          FramesResult out{FramesEnd::Bad, 0, st.error()};
          // Decoding errors carry PROTOCOL_VIOLATION; a refusal by the group a data-model code.
          out.malformed = st.error().code == wire::lite::session_code::kProtocolViolation;
          return out;
        }
        continue;
      case ReadStatus::WouldBlock:
        waiter.wait(stream.readable());
        return {FramesEnd::Pending, 0, {}};
      case ReadStatus::Fin:
        if (!parser.at_boundary()) {
          return {
              FramesEnd::Bad, 0,
              Error{stream_code::kWrongSize, "FRAME: the stream ended inside a frame (WrongSize)"}};
        }
        return {FramesEnd::Fin, 0, {}};
      case ReadStatus::Reset:
        return {FramesEnd::Reset, r.code, {}};
      case ReadStatus::Error:
        return {FramesEnd::Failed, r.code, {}};
    }
  }
}

bool drain(RecvStream& stream, MessageReader& reader, Waiter& waiter, uint64_t& resets_received) {
  for (;;) {
    const ReadResult r = reader.read_more(stream);
    switch (r.status) {
      case ReadStatus::Data:
        reader.clear();  // nothing more is expected; extra bytes are ignored
        continue;
      case ReadStatus::WouldBlock:
        waiter.wait(stream.readable());
        return false;
      case ReadStatus::Reset:
        ++resets_received;
        return true;
      case ReadStatus::Fin:
      case ReadStatus::Error:
        return true;
    }
  }
}

uint64_t reset_code_for(const Error& error) {
  switch (error.code) {
    case data_error::kNotFound:
      return stream_code::kNotFound;
    case data_error::kCancelled:
    case data_error::kRequestDropped:
      return stream_code::kCancelled;
    case data_error::kTooLarge:
      return stream_code::kGroupTooLarge;
    case data_error::kProducerDropped:
    case data_error::kDuplicate:
    case data_error::kClosed:
    case data_error::kInvalid:
      return stream_code::kInternalError;
    default:
      // Codes below the data model's range are wire stream codes chosen by the application.
      return error.code < data_error::kProducerDropped ? error.code : stream_code::kInternalError;
  }
}

std::string describe_code(uint64_t code, wire::lite::LiteVersion v) {
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(code));
  return std::string("code ") + hex + " (" + wire::lite::stream_code_name(code, v) + ")";
}

}  // namespace moq::session::lite
