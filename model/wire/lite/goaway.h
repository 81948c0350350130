// The Goaway stream (bidi 0x5, draft-lcurley-moq-lite-06): either side sends one GOAWAY; the sender
// FINs when it is ready to terminate.
#pragma once

#include <span>
#include <string>

#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// GOAWAY { Length, New Session URI (s) }: empty = no redirect; at most 8192 bytes (longer is
// Malformed). Only servers may send a non-empty URI: the session checks that.
struct Goaway {
  static constexpr const char* kName = "GOAWAY";

  std::string uri;

  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<Goaway> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const Goaway&) const = default;
};

}  // namespace moq::wire::lite
