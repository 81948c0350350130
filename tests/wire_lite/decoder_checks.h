// What every moq-lite decoder must do with any input, checked one input at a time: shared by the
// mutation runs (fuzz_test.cpp) and the coverage-guided libFuzzer target (tests/fuzz/).
//  - consumed never exceeds the input; Ok consumes at least one byte;
//  - Malformed carries a message that starts with the message's name and names a field, with
//    code PROTOCOL_VIOLATION;
//  - NeedMore asks for more bytes than were given (never for a datagram, which arrives whole);
//  - decisions are final: a prefix that is Ok or Malformed decodes the same as the whole input,
//    a whole input that is NeedMore has only NeedMore prefixes, and appending bytes after an Ok
//    or Malformed input changes nothing;
//  - whatever decodes Ok re-encodes and decodes to the same value.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "tests/wire_lite/codecs.h"

namespace moq::wire::lite::test {

struct DecoderChecker {
  const Codec& codec;
  LiteVersion version;
  // A choice in [0, n): which prefix to try, whether to try one, the bytes to append.
  std::function<uint64_t(uint64_t)> below;
  std::function<void(const std::string& what, const Buf& in)> fail;
  std::map<DecodeStatus, size_t> statuses;

  static bool same(const Outcome& a, const Outcome& b) {
    return a.status == b.status && a.consumed == b.consumed && a.error == b.error;
  }

  void check(const Buf& in) {
    const Outcome o = codec.decode(in, version);
    ++statuses[o.status];
    if (o.consumed > in.size()) fail("consumed past the input", in);
    switch (o.status) {
      case DecodeStatus::Ok:
        if (o.consumed == 0) fail("Ok consumed nothing", in);
        break;
      case DecodeStatus::Malformed: {
        bool named = false;
        for (const auto& n : codec.names)
          named = named || starts_with(o.error, n + ":");
        if (!named) fail("error does not start with the message name: '" + o.error + "'", in);
        if (o.error.find("field '") == std::string::npos &&
            o.error.find("not defined on") == std::string::npos) {
          fail("error names no field: '" + o.error + "'", in);
        }
        if (o.code != session_code::kProtocolViolation) fail("error code is not 0x3", in);
        break;
      }
      case DecodeStatus::NeedMore:
        if (codec.framing == Framing::Datagram) fail("NeedMore for a datagram", in);
        if (o.needed <= in.size()) fail("NeedMore asks for no more bytes", in);
        break;
    }
    if (codec.framing != Framing::Datagram) check_final(in, o);
    if (o.status == DecodeStatus::Ok) {
      const std::string why = codec.reencode(in, version);
      if (!why.empty()) fail(why, in);
    }
  }

  // Decisions are final: prefixes and extensions agree with the whole input.
  void check_final(const Buf& in, const Outcome& o) {
    // Prefixes are checked on half of the inputs to keep the run short under ASan.
    if (!in.empty() && below(2) == 0) {
      const size_t k = below(in.size());
      const Outcome p = codec.decode({in.data(), k}, version);
      if (p.status != DecodeStatus::NeedMore && !same(p, o)) {
        fail("prefix of " + std::to_string(k) + " bytes decided differently: '" + p.error + "'",
             in);
      }
      if (o.status == DecodeStatus::NeedMore &&
          (p.status != DecodeStatus::NeedMore || p.needed > o.needed)) {
        fail("a prefix of a NeedMore input is not NeedMore with a smaller need", in);
      }
    }
    // Extensions are checked on a quarter of the inputs to keep the run short under ASan.
    if (o.status != DecodeStatus::NeedMore && below(4) == 0) {
      Buf more(below(7));
      for (uint8_t& b : more)
        b = static_cast<uint8_t>(below(256));
      const Outcome e = codec.decode(cat(in, more), version);
      if (!same(e, o)) fail("appending bytes changed the outcome: '" + e.error + "'", in);
    }
  }
};

}  // namespace moq::wire::lite::test
