#include "model/base/varint.h"

namespace moq {
namespace {

// LeadingOnes: bytes used by a value of `bits` significant bits.
size_t leading_ones_size(uint64_t v) {
  if (v < (uint64_t{1} << 7)) return 1;
  if (v < (uint64_t{1} << 14)) return 2;
  if (v < (uint64_t{1} << 21)) return 3;
  if (v < (uint64_t{1} << 28)) return 4;
  if (v < (uint64_t{1} << 35)) return 5;
  if (v < (uint64_t{1} << 42)) return 6;
  if (v < (uint64_t{1} << 56)) return 8;  // the 0xFE form; 7 bytes (0xFC) is decode-only
  return 9;
}

size_t quic_size(uint64_t v) {
  if (v < (uint64_t{1} << 6)) return 1;
  if (v < (uint64_t{1} << 14)) return 2;
  if (v < (uint64_t{1} << 30)) return 4;
  if (v <= kQuicVarintMax) return 8;
  return 0;
}

void put_be(uint64_t v, size_t n, uint8_t* out) {
  for (size_t i = n; i-- > 0;) {
    out[i] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}

}  // namespace

size_t varint_size(uint64_t v, VarintForm form) {
  return form == VarintForm::Quic ? quic_size(v) : leading_ones_size(v);
}

size_t detail::encode_long_varint(uint64_t v, VarintForm form, uint8_t* out) {
  if (form == VarintForm::Quic) {
    size_t n = quic_size(v);
    if (n == 0) return 0;
    put_be(v, n, out);
    static constexpr uint8_t kPrefix[9] = {0, 0x00, 0x40, 0, 0x80, 0, 0, 0, 0xC0};
    out[0] |= kPrefix[n];
    return n;
  }
  size_t n = leading_ones_size(v);
  if (n == 9) {
    out[0] = 0xFF;
    put_be(v, 8, out + 1);
    return 9;
  }
  put_be(v, n, out);
  // n-1 leading ones, then a zero bit; value bits fill the rest.
  out[0] |= static_cast<uint8_t>(0xFF00u >> (n - 1));
  return n;
}

VarintDecode detail::decode_long_varint(std::span<const uint8_t> in, VarintForm form) {
  if (in.empty()) return {DecodeStatus::NeedMore, 1, 0};
  const uint8_t first = in[0];
  size_t n;
  uint64_t v;
  if (form == VarintForm::Quic) {
    n = size_t{1} << (first >> 6);
    v = first & 0x3F;
  } else {
    const int ones = __builtin_clz(static_cast<unsigned>(static_cast<uint8_t>(~first)) << 24 |
                                   0x00800000u);  // count leading ones of first, at most 8
    n = ones == 8 ? 9 : static_cast<size_t>(ones) + 1;
    v = ones >= 8 ? 0 : (first & (0x7Fu >> ones));
  }
  if (in.size() < n) return {DecodeStatus::NeedMore, static_cast<uint8_t>(n), 0};
  for (size_t i = 1; i < n; ++i)
    v = (v << 8) | in[i];
  return {DecodeStatus::Ok, static_cast<uint8_t>(n), v};
}

}  // namespace moq
