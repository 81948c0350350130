// The Fetch stream (bidi 0x3, draft-lcurley-moq-lite-06): one FETCH from the subscriber; the
// publisher answers with bare FRAMEs (group.h) and FIN, or a reset. There is no FETCH_OK.
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

// FETCH { Length, Broadcast Path (s), Track Name (s), Subscriber Priority (8),
//         Group Sequence (i), Frame Start (i), Frame End (i) }
// A Frame End below Frame Start is Malformed on decode (as the Rust stack does) and refused on
// encode.
struct Fetch {
  static constexpr const char* kName = "FETCH";

  std::string broadcast;
  std::string track;
  uint8_t priority = 0;
  uint64_t group = 0;
  uint64_t frame_start = 0;           // raw index
  std::optional<uint64_t> frame_end;  // inclusive; wire opt+1, nullopt = to the end of the group

  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<Fetch> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const Fetch&) const = default;
};

}  // namespace moq::wire::lite
