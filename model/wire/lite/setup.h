// SETUP (uni stream 0x1, draft-lcurley-moq-lite-06): each endpoint sends one, then FINs.
//   SETUP { Message Length (i), Parameter Count (i), { ID (i), Length (i), Value } x Count }
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

namespace setup_param {
inline constexpr uint64_t kProbe = 0x1;  // varint level
inline constexpr uint64_t kPath = 0x2;   // UTF-8 path-abempty [?query], client on QUIC / Qmux-TCP
inline constexpr uint64_t kRole = 0x3;   // varint role, client only
inline constexpr uint64_t kCost = 0x4;   // varint cost of subscribing from the sender
inline constexpr uint64_t kHop = 0x5;    // varint Hop ID of the sender
}  // namespace setup_param

enum class ProbeLevel : uint8_t { None = 0, Report = 1, Increase = 2 };
enum class SetupRole : uint8_t { Both = 0, Publisher = 1, Subscriber = 2 };

// The known parameters, each absent or present with its raw value (so that re-encoding gives the
// same bytes); the accessors apply the defaults and the rules for unknown values. Unknown
// parameter IDs are skipped on decode; a repeated ID or more than 64 parameters is Malformed.
// Varint values use setup_param_varint_form(v) and must fill their Parameter Length exactly.
// Who may send which parameter (Path and Role are client-only) is the session's check.
// Named SetupMessage, not Setup: GoogleTest's Test::Setup() trap makes a type named Setup
// unusable unqualified inside TEST bodies.
struct SetupMessage {
  static constexpr const char* kName = "SETUP";

  std::optional<uint64_t> probe;
  std::optional<std::string> path;
  std::optional<uint64_t> role;
  std::optional<uint64_t> cost;
  std::optional<uint64_t> hop;

  // Absent or 0: None; 1: Report; any other value: Increase (as the Rust stack reads it).
  ProbeLevel probe_level() const;
  // Absent or unknown: Both.
  SetupRole role_hint() const;
  // Absent: 1; 0 is valid and means free.
  uint64_t link_cost() const { return cost.value_or(1); }
  // Absent and 0 both mean no Hop ID.
  uint64_t hop_id() const { return hop.value_or(0); }

  // Appends the message (without the stream type byte). Writes nothing on error.
  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<SetupMessage> decode(std::span<const uint8_t> in, LiteVersion v);

  bool operator==(const SetupMessage&) const = default;
};

}  // namespace moq::wire::lite
