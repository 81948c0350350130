#include "model/wire/lite/stream_type.h"

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/detail/enum_code.h"

namespace moq::wire::lite {

Decoded<uint64_t> decode_stream_type(std::span<const uint8_t> in, LiteVersion v) {
  return detail::read_type(in, v);
}

std::optional<BidiStream> bidi_stream_from_type(uint64_t type, LiteVersion v) {
  if (!detail::fits<BidiStream>(type)) return std::nullopt;
  const auto s = static_cast<BidiStream>(type);
  switch (s) {
    case BidiStream::Announce:
    case BidiStream::Subscribe:
    case BidiStream::Fetch:
    case BidiStream::Probe:
    case BidiStream::Goaway:
    case BidiStream::Track:
      return s;
    case BidiStream::Auth:
      if (has_auth(v)) return s;
      return std::nullopt;
  }
  return std::nullopt;  // includes 0x0, the "Session" stream of lite-01/02
}

std::optional<UniStream> uni_stream_from_type(uint64_t type, LiteVersion) {
  if (!detail::fits<UniStream>(type)) return std::nullopt;
  const auto s = static_cast<UniStream>(type);
  switch (s) {
    case UniStream::Group:
    case UniStream::Setup:
      return s;
  }
  return std::nullopt;  // includes 0x2 "Padding": see has_padding_stream()
}

const char* stream_name(BidiStream s) {
  switch (s) {
    case BidiStream::Announce:
      return "Announce";
    case BidiStream::Subscribe:
      return "Subscribe";
    case BidiStream::Fetch:
      return "Fetch";
    case BidiStream::Probe:
      return "Probe";
    case BidiStream::Goaway:
      return "Goaway";
    case BidiStream::Track:
      return "Track";
    case BidiStream::Auth:
      return "Auth";
  }
  return "unknown";
}

const char* stream_name(UniStream s) {
  switch (s) {
    case UniStream::Group:
      return "Group";
    case UniStream::Setup:
      return "Setup";
  }
  return "unknown";
}

}  // namespace moq::wire::lite
