// How a fuzz target reads its input: the first bytes choose what is fuzzed (a version, a decoder),
// the rest are the bytes the decoder sees, and every other choice a check makes (which prefix to
// try, what to append) comes from a generator seeded by the input, so a crash input replays
// exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace moq::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : bytes_(data, size) {
    uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a of the whole input seeds the choices
    for (uint8_t b : bytes_)
      h = (h ^ b) * 0x100000001b3ULL;
    state_ = h | 1;
  }
  // The next leading byte, taken off the input (0 once it is used up).
  uint8_t take_byte() {
    if (bytes_.empty()) return 0;
    const uint8_t b = bytes_[0];
    bytes_ = bytes_.subspan(1);
    return b;
  }
  std::span<const uint8_t> rest() const { return bytes_; }
  // A choice in [0, n) (0 when n is 0): xorshift64*.
  uint64_t below(uint64_t n) {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    const uint64_t r = state_ * 0x2545F4914F6CDD1DULL;
    return n == 0 ? 0 : r % n;
  }

 private:
  std::span<const uint8_t> bytes_;
  uint64_t state_;
};

}  // namespace moq::fuzz
