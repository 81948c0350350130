// The two variable-length integer forms MoQ uses:
//  - Quic: RFC 9000 section 16 (2-bit length prefix, 62-bit values); moq-lite-06.
//  - LeadingOnes: the count of leading 1 bits in the first byte gives the length (up to 9 bytes,
//    64-bit values); moq-lite-07-wip and moq-transport from draft-17 on.
// Decoders accept non-shortest forms (both specs allow them); encoders write the form the
// reference implementations write (see encode_varint).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace moq {

enum class VarintForm : uint8_t { Quic, LeadingOnes };

constexpr uint64_t kQuicVarintMax = (uint64_t{1} << 62) - 1;
constexpr size_t kMaxVarintSize = 9;

inline uint64_t varint_max(VarintForm form) {
  return form == VarintForm::Quic ? kQuicVarintMax : UINT64_MAX;
}

// Encoded size of v, or 0 when v cannot be encoded in this form (Quic above 2^62-1).
size_t varint_size(uint64_t v, VarintForm form);

enum class DecodeStatus : uint8_t { Ok, NeedMore, Malformed };

struct VarintDecode {
  DecodeStatus status;
  uint8_t length;  // bytes consumed when Ok; bytes needed in all when NeedMore
  uint64_t value;
};

namespace detail {
// The general forms, out of line; encode_varint / decode_varint call them above 2^14.
size_t encode_long_varint(uint64_t v, VarintForm form, uint8_t* out);
VarintDecode decode_long_varint(std::span<const uint8_t> in, VarintForm form);
}  // namespace detail

// Writes v to out (room for kMaxVarintSize bytes) and returns the byte count, or 0 when v cannot
// be encoded. LeadingOnes writes the shortest form, except that values in [2^42, 2^56) take the
// 8-byte 0xFE form, as the reference encoder does (it never emits the 7-byte 0xFC form).
//
// Values below 2^14 (the lengths, IDs, sequences and deltas of nearly every frame and object
// header) are written inline: below 2^14 both forms take one byte below 64 (below 128 in
// leading-ones form), else two bytes whose first byte carries the prefix 0b01 (QUIC) or 0b10
// (leading-ones) and 6 value bits.
inline size_t encode_varint(uint64_t v, VarintForm form, uint8_t* out) {
  const bool quic = form == VarintForm::Quic;
  if (v < (quic ? 64u : 128u)) {
    out[0] = static_cast<uint8_t>(v);
    return 1;
  }
  if (v < (uint64_t{1} << 14)) {
    out[0] = static_cast<uint8_t>((quic ? 0x40 : 0x80) | (v >> 8));
    out[1] = static_cast<uint8_t>(v);
    return 2;
  }
  return detail::encode_long_varint(v, form, out);
}

// Decodes one varint from the front of in. Never Malformed by itself: every prefix is a valid
// length, so a short input is NeedMore with the length the prefix announced. One- and two-byte
// forms are read inline.
inline VarintDecode decode_varint(std::span<const uint8_t> in, VarintForm form) {
  if (!in.empty()) {
    const uint8_t first = in[0];
    const bool quic = form == VarintForm::Quic;
    if (first < (quic ? 0x40 : 0x80)) return {DecodeStatus::Ok, 1, first};
    if ((first & 0xC0) == (quic ? 0x40 : 0x80) && in.size() >= 2)
      return {DecodeStatus::Ok, 2, (uint64_t{first & 0x3Fu} << 8) | in[1]};
  }
  return detail::decode_long_varint(in, form);
}

}  // namespace moq
