// Inline fast paths for the varints of the hot path (GROUP, FRAME and DATAGRAM headers): values
// below 2^14 (most lengths, IDs, sequences and timestamp deltas) are handled here, everything
// else falls back to the general codec in model/base/varint.h. Below 2^14 both forms agree on the
// length: one byte below 64 (and below 128 for leading-ones), else two bytes whose first byte
// carries the prefix 0b01 (QUIC) or 0b10 (leading-ones).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "model/base/varint.h"

namespace moq::wire::lite::detail {

inline size_t put_varint(uint64_t v, VarintForm form, uint8_t* out) {
  if (v < 64) {
    out[0] = static_cast<uint8_t>(v);
    return 1;
  }
  if (v < (uint64_t{1} << 14)) {
    if (form == VarintForm::LeadingOnes && v < 128) {
      out[0] = static_cast<uint8_t>(v);
      return 1;
    }
    const uint8_t prefix = form == VarintForm::Quic ? 0x40 : 0x80;
    out[0] = static_cast<uint8_t>(prefix | (v >> 8));
    out[1] = static_cast<uint8_t>(v);
    return 2;
  }
  return encode_varint(v, form, out);
}

inline VarintDecode get_varint(std::span<const uint8_t> in, VarintForm form) {
  if (!in.empty()) {
    const uint8_t first = in[0];
    const uint8_t two_byte_prefix = form == VarintForm::Quic ? 0x40 : 0x80;
    if (first < 0x40 || (form == VarintForm::LeadingOnes && first < 0x80)) {
      return {DecodeStatus::Ok, 1, first};
    }
    if ((first & 0xC0) == two_byte_prefix && in.size() >= 2) {
      return {DecodeStatus::Ok, 2, (uint64_t{first & 0x3Fu} << 8) | in[1]};
    }
  }
  return decode_varint(in, form);
}

}  // namespace moq::wire::lite::detail
