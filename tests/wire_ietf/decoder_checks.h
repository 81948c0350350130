// What every moq-transport decoder must do with any input, checked one input at a time: shared by
// the mutation runs (fuzz_test.cpp) and the coverage-guided libFuzzer target (tests/fuzz/).
//   Ok        -> the message re-encodes (its check() passes) and decodes to the same value;
//   NeedMore  -> the input really is incomplete (control: shorter than its own frame);
//   Malformed -> the error text names the message (and the code is a session error code).
// And the seed encodings the mutations and the fuzzer start from.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "tests/wire_ietf/test_util.h"

namespace moq::wire::ietf::test {

// Counts outcomes; each failure goes to on_failure (what went wrong, the input).
struct Tally {
  int inputs = 0, ok = 0, need_more = 0, malformed = 0, failures = 0;
  std::function<void(const std::string& what, std::span<const uint8_t> in)> on_failure;
  void fail(const std::string& what, std::span<const uint8_t> in) {
    ++failures;
    if (on_failure) on_failure(what, in);
  }
};

void check_control(std::span<const uint8_t> in, IetfVersion v, Tally& t);
void check_subgroup_stream(std::span<const uint8_t> in, Tally& t);
void check_fetch_stream(std::span<const uint8_t> in, IetfVersion v, GroupOrder order, Tally& t);
void check_datagram(std::span<const uint8_t> in, Tally& t);

std::vector<std::vector<uint8_t>> subgroup_seeds();
std::vector<std::vector<uint8_t>> fetch_seeds(IetfVersion v);
std::vector<std::vector<uint8_t>> datagram_seeds();

}  // namespace moq::wire::ietf::test
