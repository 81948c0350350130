#include "model/wire/lite/stream_type.h"

#include "model/wire/lite/detail/body_codec.h"

namespace moq::wire::lite {

Decoded<uint64_t> decode_stream_type(std::span<const uint8_t> in, LiteVersion v) {
  return detail::read_type(in, v);
}

std::optional<BidiStream> bidi_stream_from_type(uint64_t type, LiteVersion v) {
  if (type >= 0x1 && type <= 0x6) return static_cast<BidiStream>(type);
  if (type == 0x7 && has_auth(v)) return BidiStream::Auth;
  return std::nullopt;
}

std::optional<UniStream> uni_stream_from_type(uint64_t type, LiteVersion) {
  if (type <= 0x1) return static_cast<UniStream>(type);
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
