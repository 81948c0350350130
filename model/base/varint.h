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

// Writes v to out (room for kMaxVarintSize bytes) and returns the byte count, or 0 when v cannot
// be encoded. LeadingOnes writes the shortest form, except that values in [2^42, 2^56) take the
// 8-byte 0xFE form, as the reference encoder does (it never emits the 7-byte 0xFC form).
size_t encode_varint(uint64_t v, VarintForm form, uint8_t* out);

enum class DecodeStatus : uint8_t { Ok, NeedMore, Malformed };

struct VarintDecode {
  DecodeStatus status;
  uint8_t length;  // bytes consumed when Ok; bytes needed in all when NeedMore
  uint64_t value;
};

// Decodes one varint from the front of in. Never Malformed by itself: every prefix is a valid
// length, so a short input is NeedMore with the length the prefix announced.
VarintDecode decode_varint(std::span<const uint8_t> in, VarintForm form);

}  // namespace moq
