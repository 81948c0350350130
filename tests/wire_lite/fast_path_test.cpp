// The hot path's inline shortcuts agree with the general varint forms (model/base's out-of-line
// encode_long_varint / decode_long_varint) byte for byte: model/base's small-varint path, and the
// codec's inline FRAME header that the session calls for every frame.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "tests/wire_lite/test_support.h"

namespace moq::wire::lite::test {
namespace {

// Both sides of every varint size boundary of both forms (2^6, 2^7, 2^14, 2^21, ... 2^62), and
// random values of every bit length, up to max.
std::vector<uint64_t> values_up_to(uint64_t max, std::mt19937_64& rng) {
  std::vector<uint64_t> out = {0};
  for (int bits = 1; bits <= 64; ++bits) {
    const uint64_t low = uint64_t{1} << (bits - 1);
    for (uint64_t v :
         {low - 1, low, (low << 1) - 1, low | (rng() & (low - 1)), low | (rng() & (low - 1))}) {
      if (v <= max) out.push_back(v);
    }
  }
  return out;
}

Buf general_varint(uint64_t value, VarintForm form) {
  uint8_t b[kMaxVarintSize];
  return Buf(b, b + moq::detail::encode_long_varint(value, form, b));
}

// What the general path says a decoder needs for a k-byte prefix of `bytes` holding varints.
size_t general_needed(const Buf& bytes, size_t k, VarintForm form) {
  size_t pos = 0;
  for (;;) {
    const VarintDecode d = moq::detail::decode_long_varint({bytes.data() + pos, k - pos}, form);
    if (d.status != DecodeStatus::Ok) return pos + d.length;
    pos += d.length;
  }
}

TEST(VarintFastPath, AgreesWithTheGeneralCodec) {
  std::mt19937_64 rng(14);
  for (VarintForm form : {VarintForm::Quic, VarintForm::LeadingOnes}) {
    for (uint64_t x : values_up_to(varint_max(form), rng)) {
      uint8_t fast[kMaxVarintSize];
      const size_t n = encode_varint(x, form, fast);
      const Buf general = general_varint(x, form);
      ASSERT_EQ(Buf(fast, fast + n), general) << x;
      for (size_t k = 0; k <= n; ++k) {
        const VarintDecode a = decode_varint({general.data(), k}, form);
        const VarintDecode b = moq::detail::decode_long_varint({general.data(), k}, form);
        ASSERT_EQ(a.status, b.status) << x << " prefix " << k;
        ASSERT_EQ(a.length, b.length) << x << " prefix " << k;
        if (a.status == DecodeStatus::Ok) {
          ASSERT_EQ(a.value, b.value) << x;
        }
      }
    }
  }
}

TEST(FrameHeaderFastPath, AgreesWithTheGeneralVarintPath) {
  std::mt19937_64 rng(18);
  size_t checked = 0;
  for (LiteVersion v : kVersions) {
    const VarintForm form = varint_form(v);
    const std::vector<uint64_t> zigzags = values_up_to(kMaxZigzagDelta, rng);
    const std::vector<uint64_t> sizes = values_up_to(kMaxMessageLength, rng);
    for (uint64_t zigzag : zigzags) {
      for (uint64_t size : sizes) {
        const int64_t delta = zigzag_decode(zigzag);
        const Buf want = cat(general_varint(zigzag, form), general_varint(size, form));
        uint8_t got[kMaxFrameHeaderSize];
        const size_t n = encode_frame_header(delta, size, v, got);
        ASSERT_EQ(Buf(got, got + n), want)
            << version_name(v) << " delta " << delta << " size " << size;
        const auto whole = decode_frame_header(cat(want, {'x', 'y'}), v);
        ASSERT_TRUE(whole.ok()) << whole.error.message;
        ASSERT_EQ(whole.consumed, want.size());
        ASSERT_EQ(whole.value, (FrameHeader{delta, size}));
        for (size_t k = 0; k < want.size(); ++k) {
          const auto part = decode_frame_header({want.data(), k}, v);
          ASSERT_TRUE(part.need_more()) << version_name(v) << " delta " << delta << " prefix " << k;
          ASSERT_EQ(part.needed, general_needed(want, k, form)) << "prefix " << k;
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000u);
}

// Encode refuses exactly what decode refuses, at both limits.
TEST(FrameHeaderFastPath, LimitsAgreeBetweenEncodeAndDecode) {
  uint8_t out[kMaxFrameHeaderSize];
  for (LiteVersion v : kVersions) {
    EXPECT_NE(encode_frame_header(kMinTimestampDelta, kMaxMessageLength, v, out), 0u);
    EXPECT_NE(encode_frame_header(kMaxTimestampDelta, 0, v, out), 0u);
    EXPECT_EQ(encode_frame_header(kMinTimestampDelta - 1, 0, v, out), 0u);
    EXPECT_EQ(encode_frame_header(kMaxTimestampDelta + 1, 0, v, out), 0u);
    EXPECT_EQ(encode_frame_header(0, kMaxMessageLength + 1, v, out), 0u);
    const Buf too_large = cat({0x00}, general_varint(kMaxMessageLength + 1, varint_form(v)));
    EXPECT_TRUE(decode_frame_header(too_large, v).malformed());
  }
  // Only -07 varints can carry a zigzag delta above 2^62-1.
  const Buf delta = cat(general_varint(kMaxZigzagDelta + 1, VarintForm::LeadingOnes), {0x00});
  EXPECT_TRUE(decode_frame_header(delta, LiteVersion::Lite07Wip).malformed());
}

}  // namespace
}  // namespace moq::wire::lite::test
