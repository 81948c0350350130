// What every moq-lite decoder returns, and the limits shared by all messages.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/base/decoded.h"
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

// Every decoder returns the shared shape (model/base/decoded.h).
template <class T>
using DecodeResult = Decoded<T>;

}  // namespace moq::wire::lite
