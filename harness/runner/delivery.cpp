#include "harness/runner/delivery.h"

#include <xxhash.h>

#include <new>

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

DeliveryHasher::DeliveryHasher() : state_(XXH3_createState()) {
  if (state_ == nullptr) throw std::bad_alloc();
  XXH3_64bits_reset(state_);
}

DeliveryHasher::~DeliveryHasher() {
  XXH3_freeState(state_);
}

void DeliveryHasher::add_frame(std::span<const Bytes> chunks) {
  uint64_t size = 0;
  for (const Bytes& c : chunks)
    size += c.size();
  uint8_t le[8];
  for (int i = 0; i < 8; ++i)
    le[i] = static_cast<uint8_t>(size >> (8 * i));
  XXH3_64bits_update(state_, le, sizeof le);
  for (const Bytes& c : chunks)
    XXH3_64bits_update(state_, c.data(), c.size());
  ++frames_;
  bytes_ += size;
}

RoundDelivery DeliveryHasher::result() const {
  return {frames_, bytes_, XXH3_64bits_digest(state_)};
}

void DeliveryCombiner::add(const RoundDelivery& d) {
  frames_ += d.frames;
  bytes_ += d.bytes;
  fnv_.add_u64(d.frames);
  fnv_.add_u64(d.bytes);
  fnv_.add_u64(d.hash);
}

void DeliveryLog::record_other_shape(std::span<const Bytes> chunks) {
  const ref_count_probe::Excluded not_the_stacks;
  other_shapes_.push_back({frames_, static_cast<uint32_t>(chunks.size())});
  ++frames_;
  for (const Bytes& c : chunks) {
    bytes_ += c.size();
    chunks_.push_back(c);
  }
}

RoundDelivery DeliveryLog::delivery() const {
  DeliveryHasher h;
  size_t next = 0;
  auto other = other_shapes_.begin();
  for (uint64_t frame = 0; frame < frames_; ++frame) {
    size_t count = 1;
    if (other != other_shapes_.end() && other->frame == frame) count = (other++)->chunk_count;
    h.add_frame(std::span<const Bytes>(chunks_.data() + next, count));
    next += count;
  }
  return h.result();
}

}  // namespace moq::harness
