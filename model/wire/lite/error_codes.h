// moq-lite error codes (draft-lcurley-moq-lite-06, error codes). Session-close codes and
// stream-reset codes (RESET_STREAM / STOP_SENDING) are separate spaces; both are reused from
// moq-transport.
#pragma once

#include <cstdint>
#include <optional>

#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// Codes for closing the whole session.
namespace session_code {
inline constexpr uint64_t kNoError = 0x0;
inline constexpr uint64_t kInternalError = 0x1;
inline constexpr uint64_t kUnauthorized = 0x2;
inline constexpr uint64_t kProtocolViolation = 0x3;
inline constexpr uint64_t kKeyValueFormattingError = 0x6;
inline constexpr uint64_t kGoawayTimeout = 0x10;
inline constexpr uint64_t kControlMessageTimeout = 0x11;
inline constexpr uint64_t kVersionNegotiationFailed = 0x15;
// Not in the draft; the Rust stack uses it for a peer sending too many request updates.
inline constexpr uint64_t kTooManyRequestUpdates = 0x1B;
}  // namespace session_code

// Codes for resetting one stream.
namespace stream_code {
inline constexpr uint64_t kInternalError = 0x0;
inline constexpr uint64_t kCancelled = 0x1;  // the routine unsubscribe
inline constexpr uint64_t kDeliveryTimeout = 0x2;
inline constexpr uint64_t kSessionClosed = 0x3;
inline constexpr uint64_t kGoingAway = 0x4;
inline constexpr uint64_t kTooFarBehind = 0x5;
inline constexpr uint64_t kMalformedTrack = 0x12;
// Provisional codes of the Rust stack, inside the reserved range 32-63: a receiver must read
// them as "unspecified"; a sender may use them as a hint for logs.
inline constexpr uint64_t kControlTimeout = 0x31;
inline constexpr uint64_t kGroupTooLarge = 0x32;
inline constexpr uint64_t kNotFound = 0x33;
inline constexpr uint64_t kOld = 0x34;  // a superseded group
inline constexpr uint64_t kEvicted = 0x35;
inline constexpr uint64_t kUnroutable = 0x36;
inline constexpr uint64_t kWrongSize = 0x37;
inline constexpr uint64_t kFrameTooLarge = 0x38;
inline constexpr uint64_t kTimestampMismatch = 0x39;
// -07 only (change 8.1.5 in model/wire/lite/README.md). Choice: 0x3a, the value the Rust stack
// uses; an upstream planning note says 0x3B, which no code we know of sends.
inline constexpr uint64_t kUnauthorized07 = 0x3a;
}  // namespace stream_code

// The stream-level UNAUTHORIZED code where the version has one (-07 only).
constexpr std::optional<uint64_t> stream_unauthorized_code(LiteVersion v) {
  if (has_auth(v)) return stream_code::kUnauthorized07;
  return std::nullopt;
}

// Codes 32-63 are reserved and provisional and read as "unspecified"; 64 and up belong to the
// application.
constexpr bool is_reserved_code(uint64_t code) {
  return code >= 32 && code <= 63;
}
constexpr bool is_application_code(uint64_t code) {
  return code >= 64;
}

// Names for logs: the table name, "provisional <name>" for the Rust provisional codes,
// "application", or "unspecified" for anything else.
const char* session_code_name(uint64_t code);
const char* stream_code_name(uint64_t code, LiteVersion v);

}  // namespace moq::wire::lite
