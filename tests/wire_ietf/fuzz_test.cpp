// Random and mutated bytes into every decoder: at least 100,000 inputs per message family (each
// control message type, subgroup streams, fetch streams, datagrams), from a fixed-seed
// std::mt19937_64. Mutations: bit flips, truncation, insertion, deletion, length corruption,
// chunk duplication, byte overwrites and pure random bytes. For every input:
//   Ok        -> the message re-encodes (its check() passes) and decodes to the same value;
//   NeedMore  -> the input really is incomplete (control: shorter than its own frame);
//   Malformed -> the error text names the message (and the code is a session error code).
// ASan/UBSan catch crashes and leaks; every loop is bounded. The checks are decoder_checks.h's,
// which the libFuzzer target shares.
#include <gtest/gtest.h>

#include <random>

#include "tests/wire_ietf/decoder_checks.h"
#include "tests/wire_ietf/test_util.h"

namespace moq::wire::ietf::test {
namespace {

#ifndef MOQ_IETF_FUZZ_INPUTS
#define MOQ_IETF_FUZZ_INPUTS 100000
#endif
constexpr int kInputsPerFamily = MOQ_IETF_FUZZ_INPUTS;
constexpr int kMaxReportedFailures = 5;

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}
  uint64_t next() { return rng_(); }
  size_t below(size_t n) { return n ? static_cast<size_t>(rng_() % n) : 0; }
  uint8_t byte() {
    // Bias towards bytes that matter to leading-ones varints and small counts.
    static constexpr uint8_t kInteresting[] = {0x00, 0x01, 0x02, 0x3f, 0x7f, 0x80, 0xbf, 0xc0,
                                               0xdf, 0xe0, 0xf0, 0xfe, 0xff, 0x21, 0x23, 0x25};
    return (rng_() & 3) == 0 ? kInteresting[rng_() % sizeof kInteresting]
                             : static_cast<uint8_t>(rng_());
  }

  // out = a mutation of seed. fix_length: the control framing's length is re-synchronised with
  // the mutated body half of the time, so body parsers see the damage.
  void mutate(const std::vector<uint8_t>& seed, std::vector<uint8_t>& out, bool control) {
    out = seed;
    const int op = static_cast<int>(below(9));
    if (op == 8) {
      for (size_t k = 0, n = 2 + below(3); k < n; ++k)
        apply(static_cast<int>(below(4)) * 2 % 8, out);  // stacked: flips, inserts, overwrites
    } else {
      apply(op, out);
    }
    if (control && op != 1 && op != 4 && (rng_() & 1)) fix_length(out);
  }

 private:
  void apply(int op, std::vector<uint8_t>& out) {
    switch (op) {
      case 0:  // bit flips
        for (size_t k = 0, n = 1 + below(3); k < n && !out.empty(); ++k)
          out[below(out.size())] ^= static_cast<uint8_t>(1u << below(8));
        break;
      case 1:  // truncation
        out.resize(below(out.size() + 1));
        break;
      case 2: {  // insertion
        const size_t at = below(out.size() + 1);
        const size_t n = 1 + below(8);
        for (size_t k = 0; k < n; ++k)
          out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), byte());
        break;
      }
      case 3: {  // deletion
        if (out.empty()) break;
        const size_t at = below(out.size());
        const size_t n = 1 + below(std::min<size_t>(8, out.size() - at));
        out.erase(out.begin() + static_cast<std::ptrdiff_t>(at),
                  out.begin() + static_cast<std::ptrdiff_t>(at + n));
        break;
      }
      case 4: {  // length corruption: the control frame length, or a varint prefix made long
        const VarintDecode t = decode_varint(out, kVarint);
        if (t.status == DecodeStatus::Ok && out.size() >= t.length + 2u && (rng_() & 1)) {
          const size_t len = size_t{out[t.length]} << 8 | out[t.length + 1];
          const size_t v = (rng_() & 1) ? len + below(7) - 3 : below(65536);
          out[t.length] = static_cast<uint8_t>(v >> 8);
          out[t.length + 1] = static_cast<uint8_t>(v);
        } else if (!out.empty()) {
          static constexpr uint8_t kLong[] = {0x80, 0xc0, 0xe0, 0xf0, 0xfe, 0xff};
          out[below(out.size())] = kLong[below(sizeof kLong)];
        }
        break;
      }
      case 5:  // byte overwrite
        if (!out.empty()) out[below(out.size())] = byte();
        break;
      case 6: {  // pure random, keeping the type byte half of the time
        const uint8_t first = out.empty() ? 0 : out[0];
        out.resize(below(48));
        for (auto& b : out)
          b = byte();
        if (!out.empty() && (rng_() & 1)) out[0] = first;
        break;
      }
      case 7: {  // duplicate a chunk elsewhere
        if (out.empty()) break;
        const size_t at = below(out.size());
        const size_t n = 1 + below(std::min<size_t>(16, out.size() - at));
        std::vector<uint8_t> chunk(out.begin() + static_cast<std::ptrdiff_t>(at),
                                   out.begin() + static_cast<std::ptrdiff_t>(at + n));
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(below(out.size() + 1)), chunk.begin(),
                   chunk.end());
        break;
      }
    }
  }

  static void fix_length(std::vector<uint8_t>& out) {
    const VarintDecode t = decode_varint(out, kVarint);
    if (t.status != DecodeStatus::Ok || out.size() < t.length + 2u) return;
    const size_t body = std::min<size_t>(out.size() - t.length - 2, 65535);
    out[t.length] = static_cast<uint8_t>(body >> 8);
    out[t.length + 1] = static_cast<uint8_t>(body);
  }

  std::mt19937_64 rng_;
};

// Reports the first few failures of a family, then its outcome counts.
Tally tally_for_test() {
  Tally t;
  t.on_failure = [n = 0](const std::string& what, std::span<const uint8_t> in) mutable {
    if (++n <= kMaxReportedFailures) ADD_FAILURE() << what << "\n  input: " << to_hex(in);
  };
  return t;
}

void report(const Tally& t, const char* family) {
  std::printf("  %-22s %6d inputs: %6d ok, %6d need-more, %6d malformed\n", family, t.inputs, t.ok,
              t.need_more, t.malformed);
  EXPECT_GE(t.inputs, kInputsPerFamily);
  EXPECT_EQ(t.failures, 0);
  EXPECT_GT(t.malformed, 0);
}

class IetfFuzzControl : public ::testing::TestWithParam<MessageType> {};

TEST_P(IetfFuzzControl, MutatedMessages) {
  const MessageType type = GetParam();
  Tally tally = tally_for_test();
  for (IetfVersion v : kVersions) {
    std::vector<std::vector<uint8_t>> seeds;
    // Seeds come from the draft that has the message (PUBLISH_STATE_NOTIFY also feeds -18, where
    // it must never decode as itself).
    const IetfVersion seed_version =
        type == MessageType::PublishStateNotify ? IetfVersion::Draft22 : v;
    for (const ControlMessage& m : sample_messages(seed_version))
      if (control_type(m) == type) seeds.push_back(encode(m, seed_version));
    if (type == MessageType::RequestOk && accepts_publish_ok_type(v))
      seeds.push_back(hex("1e 00 01 00"));  // the -18 PUBLISH_OK type
    ASSERT_FALSE(seeds.empty());
    Mutator mut(0x5eed0000u + uint64_t(type) * 2 + uint64_t(v));
    std::vector<uint8_t> input;
    for (const auto& s : seeds)
      check_control(s, v, tally);
    for (int i = 0; i < kInputsPerFamily / 2; ++i) {
      mut.mutate(seeds[mut.below(seeds.size())], input, true);
      check_control(input, v, tally);
    }
  }
  report(tally, message_type_name(uint64_t(type), IetfVersion::Draft22));
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, IetfFuzzControl,
    ::testing::Values(MessageType::Setup, MessageType::GoAway, MessageType::Subscribe,
                      MessageType::SubscribeOk, MessageType::RequestUpdate, MessageType::Publish,
                      MessageType::PublishDone, MessageType::PublishStateNotify, MessageType::Fetch,
                      MessageType::FetchOk, MessageType::TrackStatus, MessageType::RequestOk,
                      MessageType::RequestError, MessageType::PublishNamespace,
                      MessageType::Namespace, MessageType::NamespaceDone,
                      MessageType::SubscribeNamespace, MessageType::SubscribeTracks,
                      MessageType::PublishBlocked),
    [](const ::testing::TestParamInfo<MessageType>& info) {
      std::string name = message_type_name(uint64_t(info.param), IetfVersion::Draft18)
                             ? message_type_name(uint64_t(info.param), IetfVersion::Draft18)
                             : message_type_name(uint64_t(info.param), IetfVersion::Draft22);
      std::string out;
      for (char c : name)
        if (c != '_') out += c;
      return out;
    });

// ---- Data plane ----

TEST(IetfFuzzData, SubgroupStreams) {
  Tally tally = tally_for_test();
  const auto seeds = subgroup_seeds();
  Mutator mut(0x5b9);
  std::vector<uint8_t> input;
  for (const auto& s : seeds)
    check_subgroup_stream(s, tally);
  for (int i = 0; i < kInputsPerFamily; ++i) {
    mut.mutate(seeds[mut.below(seeds.size())], input, false);
    check_subgroup_stream(input, tally);
  }
  report(tally, "subgroup streams");
}

TEST(IetfFuzzData, FetchStreams) {
  Tally tally = tally_for_test();
  for (IetfVersion v : kVersions) {
    const auto seeds = fetch_seeds(v);
    Mutator mut(0xfe7c + uint64_t(v));
    std::vector<uint8_t> input;
    for (const auto& s : seeds)
      check_fetch_stream(s, v, GroupOrder::Ascending, tally);
    for (int i = 0; i < kInputsPerFamily / 2; ++i) {
      mut.mutate(seeds[mut.below(seeds.size())], input, false);
      check_fetch_stream(input, v, mut.next() & 1 ? GroupOrder::Ascending : GroupOrder::Descending,
                         tally);
    }
  }
  report(tally, "fetch streams");
}

TEST(IetfFuzzData, Datagrams) {
  Tally tally = tally_for_test();
  const auto seeds = datagram_seeds();
  Mutator mut(0xda7a);
  std::vector<uint8_t> input;
  for (const auto& s : seeds)
    check_datagram(s, tally);
  for (int i = 0; i < kInputsPerFamily; ++i) {
    mut.mutate(seeds[mut.below(seeds.size())], input, false);
    check_datagram(input, tally);
  }
  report(tally, "datagrams");
}

}  // namespace
}  // namespace moq::wire::ietf::test
