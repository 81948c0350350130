#include "harness/cli/frame_pattern.h"

#include <charconv>
#include <cstdio>

namespace moq::cli {

Bytes pattern_frame(uint64_t group, uint64_t frame, size_t size) {
  std::vector<uint8_t> bytes(size);
  // The pattern repeats every 251 bytes: compute one period, then copy it.
  for (size_t i = 0; i < size && i < 251; ++i)
    bytes[i] = pattern_byte(group, frame, i);
  for (size_t i = 251; i < size; ++i)
    bytes[i] = bytes[i - 251];
  return Bytes::copy(bytes);
}

std::optional<size_t> pattern_mismatch(uint64_t group, uint64_t frame,
                                       std::span<const uint8_t> data) {
  for (size_t i = 0; i < data.size(); ++i)
    if (data[i] != pattern_byte(group, frame, i)) return i;
  return std::nullopt;
}

uint64_t FrameSizes::group_bytes(uint64_t frames) const {
  uint64_t total = 0;
  for (uint64_t f = 0; f < frames; ++f)
    total += of(f);
  return total;
}

Result<FrameSizes> parse_frame_sizes(const std::string& text) {
  FrameSizes out;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    uint64_t size = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), size);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      return Error{0, "--frame-size '" + text + "': '" + item +
                          "' is not a size in bytes (one size, or a comma list: 0,1,20000)"};
    if (size > kMaxPatternFrameSize)
      return Error{0, "--frame-size '" + text + "': " + item + " bytes is over the limit of " +
                          std::to_string(kMaxPatternFrameSize) + " bytes per frame"};
    out.sizes.push_back(size);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string hex_around(std::span<const uint8_t> data, size_t offset) {
  const size_t first = offset >= 8 ? offset - 8 : 0;
  const size_t last = std::min(data.size(), first + 16);
  std::string out;
  for (size_t i = first; i < last; ++i) {
    char byte[8];
    std::snprintf(byte, sizeof byte, i == offset ? "[%02x]" : "%02x", data[i]);
    out += (out.empty() ? "" : " ") + std::string(byte);
  }
  if (offset >= data.size()) out += (out.empty() ? "" : " ") + std::string("[end]");
  return out;
}

}  // namespace moq::cli
