// What `moqbench publish` writes and `moqbench subscribe` checks, defined once for both: the
// frame sizes of a group (--frame-size: one size, or a list used in turn across the frames of
// each group) and the payload pattern, which any checker can recompute without the publisher:
//   byte i of frame f of group g = (g*131 + f*31 + i) mod 251
// (251 is prime and the multipliers are not multiples of it, so neighbouring frames and groups
// differ at every offset, and a frame shifted or swapped shows at its first byte).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/base/bytes.h"
#include "model/base/result.h"

namespace moq::cli {

// The formula as --help and error messages print it.
inline constexpr const char* kPatternFormula =
    "byte i of frame f of group g = (g*131 + f*31 + i) mod 251";

// The largest frame --frame-size accepts: 16 MiB, as `moqbench load` (a group holds at most
// 64 MiB, model/data/group.h).
inline constexpr uint64_t kMaxPatternFrameSize = uint64_t{16} << 20;

constexpr uint8_t pattern_byte(uint64_t group, uint64_t frame, uint64_t offset) {
  // Each term reduced first: no product overflows whatever the sequence numbers.
  return static_cast<uint8_t>(((group % 251) * 131 + (frame % 251) * 31 + offset % 251) % 251);
}

// Frame f of group g, pattern bytes.
Bytes pattern_frame(uint64_t group, uint64_t frame, size_t size);

// The first offset where data differs from the pattern of frame f of group g; nullopt when it
// matches throughout.
std::optional<size_t> pattern_mismatch(uint64_t group, uint64_t frame,
                                       std::span<const uint8_t> data);

// The sizes of the frames of a group, used in turn: frame f has sizes[f % sizes.size()] bytes.
struct FrameSizes {
  std::vector<uint64_t> sizes;
  uint64_t of(uint64_t frame) const { return sizes[frame % sizes.size()]; }
  // Payload bytes of a group of `frames` frames.
  uint64_t group_bytes(uint64_t frames) const;
};

// "--frame-size" as given: "1024" or "0,1,20000". An Error names what is wrong (a non-number,
// an empty item, a size over kMaxPatternFrameSize).
Result<FrameSizes> parse_frame_sizes(const std::string& text);

// Up to 16 bytes of data around offset as hex ("0a 0b [0c] 0d"), the byte at offset in brackets:
// how a mismatch is shown.
std::string hex_around(std::span<const uint8_t> data, size_t offset);

}  // namespace moq::cli
