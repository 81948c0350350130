// The limits every moq-lite message shares (draft-lcurley-moq-lite-06's encodings and the Rust
// stack's choices).
#pragma once

#include <cstddef>
#include <cstdint>

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

}  // namespace moq::wire::lite
