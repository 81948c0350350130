#include "harness/runner/delivery.h"

namespace moq::harness {

std::string hash_hex(uint64_t hash) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<size_t>(i)] = kDigits[hash & 0xf];
    hash >>= 4;
  }
  return out;
}

std::string describe(const RoundDelivery& d) {
  return std::to_string(d.frames) + " frames, " + std::to_string(d.bytes) + " bytes, hash " +
         hash_hex(d.hash);
}

void DeliveryHasher::add_frame(std::span<const Bytes> chunks) {
  uint64_t size = 0;
  for (const Bytes& c : chunks)
    size += c.size();
  fnv_.add_u64(size);
  for (const Bytes& c : chunks)
    fnv_.add(c.span());
  ++frames_;
  bytes_ += size;
}

void DeliveryCombiner::add(const RoundDelivery& d) {
  frames_ += d.frames;
  bytes_ += d.bytes;
  fnv_.add_u64(d.frames);
  fnv_.add_u64(d.bytes);
  fnv_.add_u64(d.hash);
}

void DeliveryLog::reserve(size_t frames, size_t chunks) {
  chunk_counts_.reserve(frames);
  chunks_.reserve(chunks);
}

RoundDelivery DeliveryLog::delivery() const {
  DeliveryHasher h;
  size_t next = 0;
  for (uint32_t count : chunk_counts_) {
    h.add_frame(std::span<const Bytes>(chunks_.data() + next, count));
    next += count;
  }
  return h.result();
}

}  // namespace moq::harness
