// The strict length rules of draft-lcurley-moq-lite-06, for every length-prefixed message in both
// versions: a body shorter or longer than its Message Length, and a Message Length over 64 MiB
// (refused before any body byte arrives), each give an error naming the message and the field.
// Also: every strict prefix of a valid message is NeedMore, with a `needed` that never overshoots
// it.
#include <gtest/gtest.h>

#include "tests/wire_lite/codecs.h"

namespace moq::wire::lite::test {
namespace {

bool names_one_of(const std::string& error, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (starts_with(error, n + ":")) return true;
  return false;
}

// Valid encodings small enough to rewrite cheaply, per version.
std::vector<Buf> small_seeds(const Codec& c, LiteVersion v) {
  std::vector<Buf> out;
  for (auto& s : c.seeds(v))
    if (s.size() <= 2048) out.push_back(std::move(s));
  return out;
}

size_t checked_sized_codecs = 0;

TEST(StrictLength, ShortBodyIsMalformedAndNamesTheField) {
  for (const Codec& c : all_codecs()) {
    if (c.framing != Framing::Sized && c.framing != Framing::Typed) continue;
    for (LiteVersion v : kVersions) {
      for (const Buf& seed : small_seeds(c, v)) {
        const size_t off = length_offset(c, seed, v);
        const VarintDecode len =
            decode_varint({seed.data() + off, seed.size() - off}, varint_form(v));
        ASSERT_GT(len.value, 0u);
        Buf cut = with_length(seed, off, len.value - 1, v);
        cut.pop_back();
        const Outcome o = c.decode(cut, v);
        ASSERT_EQ(o.status, DecodeStatus::Malformed) << c.names[0] << " " << to_hex(cut);
        EXPECT_TRUE(names_one_of(o.error, c.names)) << o.error;
        EXPECT_NE(o.error.find(": field '"), std::string::npos) << o.error;
        EXPECT_NE(o.error.find("body"), std::string::npos) << o.error;
        EXPECT_EQ(o.code, session_code::kProtocolViolation);
      }
    }
    ++checked_sized_codecs;
  }
  EXPECT_GE(checked_sized_codecs, 15u);
}

TEST(StrictLength, LongBodyIsMalformedEvenBeforeTheExtraBytesArrive) {
  for (const Codec& c : all_codecs()) {
    if (c.framing != Framing::Sized && c.framing != Framing::Typed) continue;
    for (LiteVersion v : kVersions) {
      for (const Buf& seed : small_seeds(c, v)) {
        const size_t off = length_offset(c, seed, v);
        const VarintDecode len =
            decode_varint({seed.data() + off, seed.size() - off}, varint_form(v));
        const Buf longer = with_length(seed, off, len.value + 1, v);
        for (const Buf& in : {cat(longer, {0x00}), longer}) {
          const Outcome o = c.decode(in, v);
          ASSERT_EQ(o.status, DecodeStatus::Malformed) << c.names[0] << " " << to_hex(in);
          EXPECT_TRUE(names_one_of(o.error, c.names)) << o.error;
          const std::string want = ": field 'Message Length': " + std::to_string(len.value + 1) +
                                   " is longer than the fields, which take " +
                                   std::to_string(len.value) + " bytes";
          EXPECT_NE(o.error.find(want), std::string::npos) << o.error;
        }
      }
    }
  }
}

TEST(StrictLength, LengthOver64MiBIsRefusedBeforeTheBody) {
  for (const Codec& c : all_codecs()) {
    if (c.framing != Framing::Sized && c.framing != Framing::Typed) continue;
    for (LiteVersion v : kVersions) {
      for (const Buf& seed : small_seeds(c, v)) {
        const size_t off = length_offset(c, seed, v);
        // Only the type and the length: no body byte has arrived.
        const Buf head(seed.begin(), seed.begin() + static_cast<std::ptrdiff_t>(off));
        const Buf over = cat(head, varint_bytes(kMaxMessageLength + 1, varint_form(v)));
        const Outcome o = c.decode(over, v);
        ASSERT_EQ(o.status, DecodeStatus::Malformed) << c.names[0];
        EXPECT_TRUE(names_one_of(o.error, c.names)) << o.error;
        EXPECT_NE(o.error.find(": field 'Message Length': 67108865 exceeds the 64 MiB limit"),
                  std::string::npos)
            << o.error;
        // Exactly 64 MiB is allowed: it waits for the body.
        const Buf at = cat(head, varint_bytes(kMaxMessageLength, varint_form(v)));
        const Outcome w = c.decode(at, v);
        ASSERT_EQ(w.status, DecodeStatus::NeedMore) << c.names[0] << " " << w.error;
        EXPECT_EQ(w.needed, at.size() + kMaxMessageLength);
      }
    }
  }
}

TEST(StrictLength, EveryStrictPrefixOfAValidMessageNeedsMore) {
  size_t prefixes = 0;
  for (const Codec& c : all_codecs()) {
    if (c.framing == Framing::Datagram) continue;
    for (LiteVersion v : kVersions) {
      for (const Buf& seed : small_seeds(c, v)) {
        const Outcome whole = c.decode(seed, v);
        ASSERT_EQ(whole.status, DecodeStatus::Ok) << c.names[0] << " " << whole.error;
        for (size_t k = 0; k < whole.consumed; ++k) {
          const Outcome o = c.decode({seed.data(), k}, v);
          ASSERT_EQ(o.status, DecodeStatus::NeedMore)
              << c.names[0] << " prefix " << k << " of " << to_hex(seed) << ": " << o.error;
          EXPECT_GT(o.needed, k);
          EXPECT_LE(o.needed, whole.consumed);
          ++prefixes;
        }
      }
    }
  }
  EXPECT_GT(prefixes, 1000u);
}

TEST(StrictLength, GroupHeaderFollowsTheSameRules) {
  for (LiteVersion v : kVersions) {
    // Length 2 but three fields: the body ends inside Frame Start.
    const auto short_body = decode_group_header(hex("02 00 05"), v);
    ASSERT_TRUE(short_body.malformed());
    EXPECT_EQ(short_body.error.message,
              "GROUP: field 'Frame Start': the body ends inside this field (Message Length 2 is "
              "too short)");
    const auto long_body = decode_group_header(hex("04 00 05 00 00"), v);
    ASSERT_TRUE(long_body.malformed());
    EXPECT_EQ(long_body.error.message,
              "GROUP: field 'Message Length': 4 is longer than the fields, which take 3 bytes");
  }
}

}  // namespace
}  // namespace moq::wire::lite::test
