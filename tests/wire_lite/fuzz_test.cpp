// Random and mutated bytes into every decoder: at least 100,000 inputs per message family, from a
// fixed-seed mt19937_64. Mutations of valid encodings (bit flips, truncation, insertion, deletion,
// length-field corruption, interesting bytes, splices, type corruption) plus pure random bytes.
// For every input (tests/wire_lite/decoder_checks.h, which the libFuzzer target shares):
//  - no crash, hang or leak (the binary runs under ASan + UBSan in CI);
//  - consumed never exceeds the input; Ok consumes at least one byte;
//  - Malformed carries a message that starts with the message's name and names a field;
//  - NeedMore asks for more bytes than were given (never for a datagram, which arrives whole);
//  - decisions are final: a prefix that is Ok or Malformed decodes the same as the whole input,
//    and a whole input that is NeedMore has only NeedMore prefixes (so NeedMore is returned only
//    while the bytes seen so far can still begin a valid message);
//  - appending bytes after an Ok or Malformed input changes nothing;
//  - whatever decodes Ok re-encodes and decodes to the same value.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tests/wire_lite/codecs.h"
#include "tests/wire_lite/decoder_checks.h"

namespace moq::wire::lite::test {
namespace {

constexpr size_t kInputsPerFamily = 100000;
constexpr size_t kMaxSeedSize = 700;  // long-string samples are covered by the round trips
constexpr int kMaxReportedFailures = 5;

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  uint64_t below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  uint8_t byte() { return static_cast<uint8_t>(rng_()); }

  Buf random_bytes(size_t max_len) {
    Buf b(below(max_len + 1));
    for (auto& x : b)
      x = byte();
    return b;
  }

  Buf mutate(const Buf& seed, const Buf& other, const Codec& c, LiteVersion v) {
    Buf b = seed;
    switch (below(10)) {
      case 0:  // bit flips
        if (!b.empty()) {
          for (uint64_t i = 0, n = 1 + below(4); i < n; ++i)
            b[below(b.size())] ^= static_cast<uint8_t>(1u << below(8));
        }
        break;
      case 1:  // truncation
        b.resize(below(b.size() + 1));
        break;
      case 2: {  // insertion
        const Buf ins = random_bytes(8);
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1)), ins.begin(),
                 ins.end());
        break;
      }
      case 3:  // deletion
        if (!b.empty()) {
          const size_t at = below(b.size());
          const size_t n = std::min<size_t>(1 + below(8), b.size() - at);
          b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
                  b.begin() + static_cast<std::ptrdiff_t>(at + n));
        }
        break;
      case 4:
      case 5:
        b = corrupt_length(b, c, v);
        break;
      case 6:  // interesting byte values
        if (!b.empty()) {
          static constexpr uint8_t kInteresting[] = {0x00, 0x01, 0x02, 0x3f, 0x40, 0x7f,
                                                     0x80, 0xbf, 0xc0, 0xfe, 0xff};
          b[below(b.size())] = kInteresting[below(sizeof kInteresting)];
        }
        break;
      case 7: {  // splice with another seed
        Buf s(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1)));
        s.insert(s.end(), other.begin() + static_cast<std::ptrdiff_t>(below(other.size() + 1)),
                 other.end());
        b = std::move(s);
        break;
      }
      case 8:  // type corruption: the first byte is the Type of typed messages
        if (!b.empty()) b[0] = static_cast<uint8_t>(below(9));
        break;
      case 9:  // pure random
        b = random_bytes(48);
        break;
    }
    return b;
  }

 private:
  // Rewrites the first length-like varint: the Message Length for framed messages, the first
  // varint otherwise.
  Buf corrupt_length(const Buf& b, const Codec& c, LiteVersion v) {
    const size_t off = c.framing == Framing::Typed ? length_offset(c, b, v) : 0;
    if (off >= b.size()) return b;
    const VarintDecode d = decode_varint({b.data() + off, b.size() - off}, varint_form(v));
    if (d.status != DecodeStatus::Ok) return b;
    uint64_t value;
    switch (below(6)) {
      case 0:
        value = d.value + 1;
        break;
      case 1:
        value = d.value == 0 ? 0 : d.value - 1;
        break;
      case 2:
        value = below(2 * d.value + 8);
        break;
      case 3:
        value = kMaxMessageLength + below(3) - 1;
        break;
      case 4:
        value = max_varint(v) - below(2);
        break;
      default:
        value = rng_() & ((uint64_t{1} << below(63)) - 1);
        break;
    }
    if (value > max_varint(v)) value = max_varint(v);
    Buf out(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(off));
    out = cat(out, varint_bytes(value, varint_form(v)));
    out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(off + d.length), b.end());
    return out;
  }

  std::mt19937_64 rng_;
};

void fuzz_family(const std::string& family, uint64_t seed) {
  Mutator rng(seed);
  std::vector<Codec> codecs;
  for (auto& c : all_codecs())
    if (c.family == family) codecs.push_back(std::move(c));
  ASSERT_FALSE(codecs.empty()) << family;
  const size_t runs = codecs.size() * std::size(kVersions);
  const size_t per_run = (kInputsPerFamily + runs - 1) / runs;
  size_t inputs = 0;
  std::map<DecodeStatus, size_t> statuses;
  for (const Codec& c : codecs) {
    // Seeds from both versions: the other version's bytes are plausible garbage.
    std::vector<Buf> seeds;
    for (LiteVersion v : kVersions)
      for (auto& s : c.seeds(v))
        if (s.size() <= kMaxSeedSize) seeds.push_back(std::move(s));
    ASSERT_FALSE(seeds.empty()) << c.names[0];
    for (LiteVersion v : kVersions) {
      int failures = 0;
      DecoderChecker checker{c,
                             v,
                             [&](uint64_t n) { return rng.below(n); },
                             [&](const std::string& what, const Buf& in) {
                               if (++failures <= kMaxReportedFailures) {
                                 ADD_FAILURE() << c.names[0] << " on " << version_name(v) << ": "
                                               << what << "\n  input: " << to_hex(in);
                               }
                             },
                             {}};
      for (size_t i = 0; i < per_run; ++i) {
        const Buf& a = seeds[rng.below(seeds.size())];
        const Buf& b = seeds[rng.below(seeds.size())];
        checker.check(rng.mutate(a, b, c, v));
        ++inputs;
      }
      for (auto [status, n] : checker.statuses)
        statuses[status] += n;
    }
  }
  EXPECT_GE(inputs, kInputsPerFamily);
  // The mutations must reach every outcome, or the run proves little.
  EXPECT_GT(statuses[DecodeStatus::Ok], inputs / 100) << family;
  if (family != "DATAGRAM") {  // a datagram arrives whole: never NeedMore
    EXPECT_GT(statuses[DecodeStatus::NeedMore], inputs / 100) << family;
  }
  if (family != "stream type") {  // every varint is a valid stream type
    EXPECT_GT(statuses[DecodeStatus::Malformed], inputs / 100) << family;
  }
}

TEST(Fuzz, Setup) {
  fuzz_family("SETUP", 0x5e7u);
}
TEST(Fuzz, Subscribe) {
  fuzz_family("SUBSCRIBE", 0x5ab5u);
}
TEST(Fuzz, Track) {
  fuzz_family("TRACK", 0x76acu);
}
TEST(Fuzz, Fetch) {
  fuzz_family("FETCH", 0xfe7cu);
}
TEST(Fuzz, Probe) {
  fuzz_family("PROBE", 0x960bu);
}
TEST(Fuzz, Goaway) {
  fuzz_family("GOAWAY", 0x90a3u);
}
TEST(Fuzz, Announce) {
  fuzz_family("ANNOUNCE", 0xa770u);
}
TEST(Fuzz, Auth) {
  fuzz_family("AUTH", 0xa074u);
}
TEST(Fuzz, GroupAndFrame) {
  fuzz_family("GROUP", 0x6709u);
}
TEST(Fuzz, Datagram) {
  fuzz_family("DATAGRAM", 0xda7au);
}
TEST(Fuzz, StreamType) {
  fuzz_family("stream type", 0x57e4u);
}

}  // namespace
}  // namespace moq::wire::lite::test
