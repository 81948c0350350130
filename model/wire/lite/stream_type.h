// Stream types (draft-lcurley-moq-lite-06): the first varint on every stream. All defined types are
// below 64, so they are one byte in both varint forms.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "model/base/decoded.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// Bidirectional streams, by the type the opener writes.
enum class BidiStream : uint8_t {
  Announce = 0x1,   // subscriber: ANNOUNCE_REQUEST; publisher: ANNOUNCE_OK + typed ANNOUNCE_*
  Subscribe = 0x2,  // subscriber: SUBSCRIBE, SUBSCRIBE_UPDATE*; publisher: typed replies
  Fetch = 0x3,      // subscriber: FETCH; publisher: bare FRAMEs then FIN
  Probe = 0x4,      // PROBE both ways
  Goaway = 0x5,     // either side: GOAWAY
  Track = 0x6,      // subscriber: TRACK; publisher: TRACK_INFO then FIN
  Auth = 0x7,       // -07 only: AUTH; acceptor: typed AUTH_OK / AUTH_ERROR
};

// Unidirectional streams.
enum class UniStream : uint8_t {
  Group = 0x0,  // GROUP header, FRAMEs, FIN
  Setup = 0x1,  // one SETUP, then FIN
};

// Reads the stream type varint. Ok (raw type in value) or NeedMore; never Malformed.
Decoded<uint64_t> decode_stream_type(std::span<const uint8_t> in, LiteVersion v);

// The stream a raw type names on this version, or nullopt for a type the version does not define
// (0x0 "Session" of lite-01/02, Auth on -06, anything unknown). The receiver resets such a stream
// (STOP_SENDING on a uni stream) and keeps the session.
std::optional<BidiStream> bidi_stream_from_type(uint64_t type, LiteVersion v);
std::optional<UniStream> uni_stream_from_type(uint64_t type, LiteVersion v);

// The single byte that starts a stream of this kind (identical in both varint forms).
constexpr uint8_t stream_type_byte(BidiStream s) {
  return static_cast<uint8_t>(s);
}
constexpr uint8_t stream_type_byte(UniStream s) {
  return static_cast<uint8_t>(s);
}

const char* stream_name(BidiStream s);
const char* stream_name(UniStream s);

}  // namespace moq::wire::lite
