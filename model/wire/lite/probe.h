// The Probe stream (bidi 0x4, draft-lcurley-moq-lite-06). From the subscriber: a target bitrate (a
// new PROBE replaces it). From the publisher: periodic reports. 0 means unknown in both fields.
#pragma once

#include <cstdint>
#include <span>

#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// PROBE { Length, Bitrate (i, bits/s), RTT (i, ms) }
struct Probe {
  static constexpr const char* kName = "PROBE";

  uint64_t bitrate = 0;
  uint64_t rtt_ms = 0;

  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<Probe> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const Probe&) const = default;
};

}  // namespace moq::wire::lite
