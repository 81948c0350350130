#include "model/session/lite/stream_codes.h"

#include <cstdio>

#include "model/data/errors.h"
#include "model/wire/lite/error_codes.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

FramesResult receive_frames(core::StreamInput& in, Waiter& waiter, FrameParser& parser,
                            GroupProducer& group, wire::lite::LiteVersion v) {
  // The parser consumes each chunk whole (it keeps a split header itself): the bytes that came
  // with the stream's header first, then every chunk of each vectored read.
  Bytes first;
  Status parsed;
  if (in.take_current(first)) parsed = parser.feed(std::move(first), group, v);
  for (;;) {
    if (!parsed) [[unlikely]] {
      FramesResult out{FramesEnd::Bad, 0, parsed.error()};
      // Decoding errors carry PROTOCOL_VIOLATION; a refusal by the group a data-model code.
      out.malformed = parsed.error().code == wire::lite::session_code::kProtocolViolation;
      return out;
    }
    BufChain* chunks = nullptr;
    switch (in.chunks(chunks)) {
      case ReadStatus::Data:
        parsed = parser.feed(chunks->mutable_chunks(), group, v);
        chunks->clear();
        continue;
      case ReadStatus::WouldBlock:
        waiter.wait(in.readable());
        return {FramesEnd::Pending, 0, {}};
      case ReadStatus::Fin:
        if (!parser.at_boundary()) {
          return {
              FramesEnd::Bad, 0,
              Error{stream_code::kWrongSize, "FRAME: the stream ended inside a frame (WrongSize)"}};
        }
        return {FramesEnd::Fin, 0, {}};
      case ReadStatus::Reset:
        return {FramesEnd::Reset, in.code(), {}};
      case ReadStatus::Error:
        return {FramesEnd::Failed, in.code(), {}};
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
