// The payload hash `moqbench publish` and `moqbench subscribe` print, defined once for both:
// SHA-256 over every frame in order (group by group in sequence, each group's frames in order),
// each as its length (8 bytes, big-endian) followed by its payload, printed as lowercase hex. The
// length prefix keeps frame boundaries in the hash (frames "ab","c" and "a","bc" differ). Any other
// program recomputes it with a standard SHA-256, e.g. Node's crypto.createHash('sha256'), fed the
// same length and payload per frame.
#pragma once

#include <gnutls/crypto.h>

#include <cstdint>
#include <span>
#include <string>

namespace moq::cli {

// How --help and the README state it.
inline constexpr const char* kPayloadHashDefinition =
    "SHA-256 over every frame, group by group in sequence and frame by frame, each as its 8-byte "
    "big-endian length then its payload (lowercase hex)";

class PayloadHash {
 public:
  PayloadHash();
  ~PayloadHash();
  PayloadHash(const PayloadHash&) = delete;
  PayloadHash& operator=(const PayloadHash&) = delete;

  void add_frame(std::span<const uint8_t> payload);
  // The hash of every frame added; once (the hash is spent after it).
  std::string finish();

 private:
  gnutls_hash_hd_t hash_ = nullptr;
};

// What went by, as both commands count and print it.
struct PayloadTally {
  uint64_t groups = 0;  // groups begun
  uint64_t frames = 0;
  uint64_t bytes = 0;
  PayloadHash hash;

  void add_frame(std::span<const uint8_t> payload) {
    ++frames;
    bytes += payload.size();
    hash.add_frame(payload);
  }
  // "3 groups, 9 frames, 60003 bytes, sha256 <64 hex digits>"; once (it finishes the hash).
  std::string summary();
};

}  // namespace moq::cli
