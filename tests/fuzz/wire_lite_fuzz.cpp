// libFuzzer target: every moq-lite decoder of every version (tests/wire_lite/codecs.h), with the
// checks of tests/wire_lite/decoder_checks.h. Input: a version byte, a decoder byte, then the
// bytes the decoder sees (tests/fuzz/seeds.cpp writes a seed per sample encoding).
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/fuzz_input.h"
#include "tests/wire_lite/decoder_checks.h"

namespace {

using namespace moq::wire::lite;
using namespace moq::wire::lite::test;

const std::vector<Codec>& codecs() {
  static const std::vector<Codec> all = all_codecs();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moq::fuzz::FuzzInput in(data, size);
  const LiteVersion version = kVersions[in.take_byte() % std::size(kVersions)];
  const Codec& codec = codecs()[in.take_byte() % codecs().size()];
  const Buf bytes(in.rest().begin(), in.rest().end());
  DecoderChecker checker{codec,
                         version,
                         [&](uint64_t n) { return in.below(n); },
                         [&](const std::string& what, const Buf& input) {
                           std::fprintf(stderr, "%s on %s: %s\n  input: %s\n",
                                        codec.names[0].c_str(),
                                        std::string(version_name(version)).c_str(), what.c_str(),
                                        to_hex(input).c_str());
                           std::abort();
                         },
                         {}};
  checker.check(bytes);
  return 0;
}
