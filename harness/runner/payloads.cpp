#include "harness/runner/payloads.h"

#include <random>
#include <vector>

namespace moq::harness {

PayloadSource::PayloadSource(size_t frame_size, size_t distinct, uint64_t seed)
    : frame_size_(frame_size), distinct_(distinct == 0 ? 1 : distinct) {
  std::vector<uint8_t> bytes(frame_size_ + distinct_ * kStride);
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < bytes.size(); i += 8) {
    uint64_t v = rng();
    for (size_t j = 0; j < 8 && i + j < bytes.size(); ++j)
      bytes[i + j] = static_cast<uint8_t>(v >> (8 * j));
  }
  block_ = Bytes::copy(bytes);
}

}  // namespace moq::harness
