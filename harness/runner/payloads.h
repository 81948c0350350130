// Frame payloads for scenarios: deterministic pseudo-random bytes in one block made at setup, and
// payload(i) a slice of it at an offset chosen by i. Taking a payload is a refcount increment (no
// allocation, no copy), so what a measured round pays for is the stack's work, not payload
// production. Different indices give different bytes, so a frame delivered to the wrong viewer,
// from the wrong round or in the wrong order changes the delivery hash.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/base/bytes.h"

namespace moq::harness {

class PayloadSource {
 public:
  // `distinct`: how many different payloads payload(i) cycles through (i modulo distinct).
  // Bytes come from a fixed-seed generator, so every run sees the same payloads.
  PayloadSource(size_t frame_size, size_t distinct, uint64_t seed = 1);
  PayloadSource() = default;

  // The payload of index i: frame_size bytes.
  Bytes payload(uint64_t i) const {
    if (i >= distinct_) i %= distinct_;  // rounds ask for indices below distinct
    return block_.sub(static_cast<size_t>(i) * kStride, frame_size_);
  }
  size_t frame_size() const { return frame_size_; }

 private:
  static constexpr size_t kStride = 8;  // payload i starts i*8 bytes into the block
  Bytes block_;
  size_t frame_size_ = 0;
  size_t distinct_ = 1;
};

}  // namespace moq::harness
