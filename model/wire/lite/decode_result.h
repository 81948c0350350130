// What every moq-lite decoder returns, and the limits shared by all messages.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/base/result.h"
#include "model/base/varint.h"

namespace moq::wire::lite {

// A Message Length above this is refused before the body is read (the Rust stack's limit). FRAME
// payload lengths use the same cap.
inline constexpr uint64_t kMaxMessageLength = uint64_t{64} << 20;
// Longest GOAWAY URI and AUTH_ERROR reason.
inline constexpr uint64_t kMaxReasonLength = 8192;
// Longest hop list of ANNOUNCE_START / ANNOUNCE_UPDATE (the Rust stack's limit).
inline constexpr size_t kMaxHops = 32;
// Most parameters in one SETUP (the Rust stack's limit).
inline constexpr uint64_t kMaxSetupParameters = 64;

// The outcome of decoding one message from the front of a byte span:
//  - Ok: `value` holds the message and `consumed` the bytes it took (the rest is not touched).
//  - NeedMore: the span is a strict prefix of a message that may still be valid; retry once the
//    span holds at least `needed` bytes (always more than were given). No allocation.
//  - Malformed: `error.message` names the message, the field and the value ("SUBSCRIBE: field
//    'Track Name': ..."); `error.code` is session_code::kProtocolViolation, the code to close
//    the session with (datagrams are dropped instead, see datagram.h).
// A decoder never reads past the span and never returns NeedMore once the bytes it has already
// seen are invalid.
template <class T>
struct DecodeResult {
  DecodeStatus status = DecodeStatus::NeedMore;
  size_t consumed = 0;
  size_t needed = 0;
  T value{};
  Error error;

  bool ok() const { return status == DecodeStatus::Ok; }
  bool need_more() const { return status == DecodeStatus::NeedMore; }
  bool malformed() const { return status == DecodeStatus::Malformed; }
};

}  // namespace moq::wire::lite
