// libFuzzer target: every moq-transport decoder of every draft: control messages, subgroup
// streams, fetch streams (both group orders) and datagrams, with the checks of
// tests/wire_ietf/decoder_checks.h. Input: a draft byte, a decoder byte, then the bytes the
// decoder sees (tests/fuzz/seeds.cpp writes a seed per sample encoding).
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/fuzz_input.h"
#include "tests/wire_ietf/decoder_checks.h"

using namespace moq::wire::ietf;
using namespace moq::wire::ietf::test;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moq::fuzz::FuzzInput in(data, size);
  const IetfVersion version = kVersions[in.take_byte() % std::size(kVersions)];
  const uint8_t decoder = in.take_byte() % 5;
  Tally tally;
  tally.on_failure = [&](const std::string& what, std::span<const uint8_t> input) {
    std::fprintf(stderr, "decoder %u on draft %d: %s\n  input: %s\n", decoder, int(version),
                 what.c_str(), to_hex(input).c_str());
    std::abort();
  };
  const std::span<const uint8_t> bytes = in.rest();
  switch (decoder) {
    case 0:
      check_control(bytes, version, tally);
      break;
    case 1:
      check_subgroup_stream(bytes, tally);
      break;
    case 2:
      check_fetch_stream(bytes, version, GroupOrder::Ascending, tally);
      break;
    case 3:
      check_fetch_stream(bytes, version, GroupOrder::Descending, tally);
      break;
    case 4:
      check_datagram(bytes, tally);
      break;
  }
  return 0;
}
