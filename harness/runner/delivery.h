// What a round delivered to its viewers, and how the harness checks it: frame count, payload
// bytes and a hash over the delivered payloads in delivery order (ARCHITECTURE.md,
// "Measuring"), so skipped or reordered work cannot pass for a speed-up.
//
// Cost split. A viewer records each frame it reads into its DeliveryLog inside the measured round:
// that is a push of a payload reference (a refcount increment, no copy) into storage reserved at
// setup, about ten instructions per frame. Hashing the payload bytes (XXH3, a
// fraction of an instruction per byte) happens after the round, outside the measured region, when
// the runner asks the case what it delivered.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/base/bytes.h"
#include "model/base/ref_count_probe.h"

struct XXH3_state_s;  // xxhash.h's streaming state, kept out of this header

namespace moq::harness {

// FNV-1a, 64 bit: cheap to set up, deterministic, byte-order independent of the host; for short
// digests (a few integers per item). Payload bytes go through XXH3 (DeliveryHasher).
class Fnv64 {
 public:
  static constexpr uint64_t kOffset = 0xcbf29ce484222325ULL;
  static constexpr uint64_t kPrime = 0x100000001b3ULL;

  void add(std::span<const uint8_t> data) {
    uint64_t h = h_;
    for (uint8_t b : data)
      h = (h ^ b) * kPrime;
    h_ = h;
  }
  // The 8 bytes of v, little-endian.
  void add_u64(uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; ++i)
      b[i] = static_cast<uint8_t>(v >> (8 * i));
    add(b);
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = kOffset;
};

// Frames, bytes and payload hash of one round (or of several, combined).
struct RoundDelivery {
  uint64_t frames = 0;
  uint64_t bytes = 0;
  uint64_t hash = 0;

  friend bool operator==(const RoundDelivery&, const RoundDelivery&) = default;
};

// "12 frames, 768 bytes, hash 0123456789abcdef"
std::string describe(const RoundDelivery& d);
// Lowercase hex, 16 digits.
std::string hash_hex(uint64_t hash);

// Builds the delivery of one viewer frame by frame: each frame contributes its size (8 bytes,
// little-endian) and then its payload bytes, so frame boundaries count as well as content. The
// stream is hashed with XXH3 (64 bit, seed 0; Debian's libxxhash): a 16 KiB x 256 frames x 16
// viewers round is 64 MiB, which FNV-1a took about 0.15 s to hash.
class DeliveryHasher {
 public:
  DeliveryHasher();
  ~DeliveryHasher();
  DeliveryHasher(const DeliveryHasher&) = delete;
  DeliveryHasher& operator=(const DeliveryHasher&) = delete;

  void add_frame(std::span<const Bytes> chunks);
  void add_frame(const Bytes& payload) { add_frame(std::span<const Bytes>(&payload, 1)); }
  RoundDelivery result() const;

 private:
  XXH3_state_s* state_;
  uint64_t frames_ = 0;
  uint64_t bytes_ = 0;
};

// Combines the deliveries of several viewers in viewer order (frames and bytes add up; the hash
// covers each viewer's hash in turn), or of several rounds in round order.
class DeliveryCombiner {
 public:
  void add(const RoundDelivery& d);
  RoundDelivery result() const { return {frames_, bytes_, fnv_.value()}; }

 private:
  Fnv64 fnv_;
  uint64_t frames_ = 0;
  uint64_t bytes_ = 0;
};

// What one viewer read in the current round, kept by reference until the round is checked.
// A frame of one chunk (the usual frame) costs a count, a byte sum and one reference pushed, and
// so does an empty frame (an empty chunk); frames of several chunks also note their chunk count
// on the side.
class DeliveryLog {
 public:
  // Reserves room for this many payload chunks per round (one per frame of one chunk), so
  // recording allocates nothing in steady state.
  void reserve(size_t chunks) { chunks_.reserve(chunks); }
  // Drops the previous round's references (outside the measured region).
  void clear() {
    const ref_count_probe::Excluded not_the_stacks;
    chunks_.clear();
    other_shapes_.clear();
    frames_ = 0;
    bytes_ = 0;
  }

  // Records one delivered frame made of these payload chunks, in delivery order.
  void record(std::span<const Bytes> chunks) {
    if (chunks.size() == 1) [[likely]] {
      record(chunks[0]);
    } else if (chunks.empty()) {
      record(Bytes{});  // an empty frame: one empty chunk hashes the same as none
    } else {
      record_other_shape(chunks);
    }
  }
  void record(const Bytes& payload) {
    const ref_count_probe::Excluded not_the_stacks;
    ++frames_;
    bytes_ += payload.size();
    chunks_.push_back(payload);
  }

  uint64_t frames() const { return frames_; }
  uint64_t bytes() const { return bytes_; }
  // Hashes what was recorded (DeliveryHasher rules).
  RoundDelivery delivery() const;

 private:
  struct OtherShape {
    uint64_t frame;        // its index in delivery order
    uint32_t chunk_count;  // not 1
  };
  [[gnu::noinline]] void record_other_shape(std::span<const Bytes> chunks);

  std::vector<Bytes> chunks_;
  std::vector<OtherShape> other_shapes_;  // in frame order
  uint64_t frames_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace moq::harness
