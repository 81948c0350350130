#include "model/base/varint.h"

#include <gtest/gtest.h>

#include <vector>

namespace moq {
namespace {

std::vector<uint8_t> enc(uint64_t v, VarintForm f) {
  uint8_t buf[kMaxVarintSize];
  size_t n = encode_varint(v, f, buf);
  return {buf, buf + n};
}

uint64_t dec(std::vector<uint8_t> b, VarintForm f) {
  VarintDecode d = decode_varint(b, f);
  EXPECT_EQ(d.status, DecodeStatus::Ok);
  EXPECT_EQ(d.length, b.size());
  return d.value;
}

TEST(QuicVarint, SpecVectors) {
  EXPECT_EQ(enc(15293, VarintForm::Quic), (std::vector<uint8_t>{0x7b, 0xbd}));
  EXPECT_EQ(enc(494878333, VarintForm::Quic), (std::vector<uint8_t>{0x9d, 0x7f, 0x3e, 0x7d}));
  EXPECT_EQ(enc((uint64_t{1} << 53) - 1, VarintForm::Quic),
            (std::vector<uint8_t>{0xc0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(dec({0x9d, 0x7f, 0x3e, 0x7d}, VarintForm::Quic), 494878333u);
}

TEST(QuicVarint, BoundariesRoundTrip) {
  for (uint64_t v : {uint64_t{0}, uint64_t{63}, uint64_t{64}, uint64_t{16383}, uint64_t{16384},
                     (uint64_t{1} << 30) - 1, uint64_t{1} << 30, kQuicVarintMax}) {
    auto b = enc(v, VarintForm::Quic);
    EXPECT_EQ(b.size(), varint_size(v, VarintForm::Quic));
    EXPECT_EQ(dec(b, VarintForm::Quic), v);
  }
}

TEST(QuicVarint, LargestPlusOneIsNotEncodable) {
  uint8_t buf[kMaxVarintSize];
  EXPECT_EQ(varint_size(kQuicVarintMax + 1, VarintForm::Quic), 0u);
  EXPECT_EQ(encode_varint(kQuicVarintMax + 1, VarintForm::Quic, buf), 0u);
}

TEST(QuicVarint, OverlongFormsAreAccepted) {
  EXPECT_EQ(dec({0x40, 0x25}, VarintForm::Quic), 37u);
  EXPECT_EQ(dec({0xc0, 0, 0, 0, 0, 0, 0, 0x25}, VarintForm::Quic), 37u);
}

TEST(QuicVarint, TruncatedNeedsMore) {
  VarintDecode d = decode_varint(std::vector<uint8_t>{0x9d, 0x7f}, VarintForm::Quic);
  EXPECT_EQ(d.status, DecodeStatus::NeedMore);
  EXPECT_EQ(d.length, 4);
  EXPECT_EQ(decode_varint({}, VarintForm::Quic).status, DecodeStatus::NeedMore);
}

TEST(LeadingOnesVarint, SpecVectors) {
  const auto kL = VarintForm::LeadingOnes;
  EXPECT_EQ(enc(1000, kL), (std::vector<uint8_t>{0x83, 0xe8}));
  EXPECT_EQ(enc(15293, kL), (std::vector<uint8_t>{0xbb, 0xbd}));
  EXPECT_EQ(enc(uint64_t{1} << 50, kL), (std::vector<uint8_t>{0xfe, 0x04, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(enc(uint64_t{1} << 62, kL), (std::vector<uint8_t>{0xff, 0x40, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(dec({0x25}, kL), 37u);
  EXPECT_EQ(dec({0x80, 0x25}, kL), 37u);  // non-minimal form is legal
  EXPECT_EQ(dec({0xed, 0x7f, 0x3e, 0x7d}, kL), 226442877u);
  EXPECT_EQ(dec({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, kL), UINT64_MAX);
}

TEST(LeadingOnesVarint, EveryLengthRoundTrips) {
  const auto kL = VarintForm::LeadingOnes;
  for (int bits = 0; bits <= 64; ++bits) {
    uint64_t v = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
    auto b = enc(v, kL);
    EXPECT_EQ(b.size(), varint_size(v, kL)) << bits;
    EXPECT_EQ(dec(b, kL), v) << bits;
  }
}

TEST(LeadingOnesVarint, SevenByteFormDecodes) {
  // 1111110x + 6 bytes carries 49 bits; the encoder never emits it but decoders accept it.
  EXPECT_EQ(dec({0xfd, 0, 0, 0, 0, 0, 0x01}, VarintForm::LeadingOnes), (uint64_t{1} << 48) + 1);
}

TEST(LeadingOnesVarint, TruncatedNeedsMore) {
  VarintDecode d = decode_varint(std::vector<uint8_t>{0xff, 0x40}, VarintForm::LeadingOnes);
  EXPECT_EQ(d.status, DecodeStatus::NeedMore);
  EXPECT_EQ(d.length, 9);
}

}  // namespace
}  // namespace moq
