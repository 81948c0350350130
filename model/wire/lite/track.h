// The Track stream (bidi 0x6, draft-lcurley-moq-lite-06): TRACK from the subscriber, one TRACK_INFO
// back, then FIN.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// TRACK { Length, Broadcast Path (s), Track Name (s) }
struct Track {
  static constexpr const char* kName = "TRACK";

  std::string broadcast;
  std::string track;

  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<Track> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const Track&) const = default;
};

// TRACK_INFO { Length, Publisher Priority (8), Publisher Max Age (i), Timescale (i) }
// Max Age on the wire (max_age_is_opt_plus_one()): -06 writes "no limit" as 2^53-1 and reads any
// value >= 2^53-1 as no limit, so a finite age >= 2^53-1 ms cannot be encoded on -06 (an
// encode error); -07 writes opt+1 (0 = no limit).
struct TrackInfo {
  static constexpr const char* kName = "TRACK_INFO";

  uint8_t priority = 0;                // only breaks ties between equal subscriber priorities
  std::optional<uint64_t> max_age_ms;  // retention of non-latest groups; nullopt = no limit
  uint64_t timescale = 0;              // timestamp units per second, must be non-zero

  // Timescale 0 is answered with a stream reset (draft-lcurley-moq-lite-06, TRACK_INFO), not a
  // session close, so decode accepts it and the subscriber calls this; encode refuses it.
  Status check() const;
  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<TrackInfo> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const TrackInfo&) const = default;
};

}  // namespace moq::wire::lite
