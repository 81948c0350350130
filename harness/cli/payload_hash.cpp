#include "harness/cli/payload_hash.h"

#include <array>
#include <cstdio>
#include <stdexcept>

namespace moq::cli {

PayloadHash::PayloadHash() {
  // SHA-256 is in every GnuTLS build: failing here is a broken library, not an input error.
  if (gnutls_hash_init(&hash_, GNUTLS_DIG_SHA256) < 0)
    throw std::runtime_error("GnuTLS cannot hash SHA-256");
}

PayloadHash::~PayloadHash() {
  if (hash_) gnutls_hash_deinit(hash_, nullptr);
}

void PayloadHash::add_frame(std::span<const uint8_t> payload) {
  std::array<uint8_t, 8> length{};
  uint64_t n = payload.size();
  for (size_t i = length.size(); i-- > 0; n >>= 8)
    length[i] = static_cast<uint8_t>(n);
  gnutls_hash(hash_, length.data(), length.size());
  if (!payload.empty()) gnutls_hash(hash_, payload.data(), payload.size());
}

std::string PayloadHash::finish() {
  std::array<uint8_t, 32> digest{};
  gnutls_hash_deinit(hash_, digest.data());
  hash_ = nullptr;
  std::string out;
  for (uint8_t b : digest) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", b);
    out += two;
  }
  return out;
}

std::string PayloadTally::summary() {
  return std::to_string(groups) + " groups, " + std::to_string(frames) + " frames, " +
         std::to_string(bytes) + " bytes, sha256 " + hash.finish();
}

}  // namespace moq::cli
