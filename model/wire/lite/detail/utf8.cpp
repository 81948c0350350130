#include "model/wire/lite/detail/utf8.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace moq::wire::lite::detail {

namespace {

// Checks UTF-8 byte by byte with the ranges of RFC 3629 (which exclude overlong forms,
// surrogates and code points above U+10FFFF). With allow_cut, text may end inside a character
// whose bytes so far are valid: that is how a string that has only partly arrived is judged.
bool check_utf8(std::string_view text, bool allow_cut) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    // Names are mostly ASCII: eight bytes at a time while no byte has its high bit set (a FETCH
    // or SUBSCRIBE checks two names; byte by byte this was about half of decoding one).
    uint64_t word;
    while (end - p >= 8 && (std::memcpy(&word, p, 8), (word & 0x8080808080808080ULL) == 0))
      p += 8;
    if (p == end) break;
    const uint8_t c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    size_t n;           // bytes in this character
    uint8_t lo = 0x80;  // range of the second byte
    uint8_t hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return false;  // a continuation byte with no lead, C0/C1 (overlong), or F5..FF
    }
    const size_t have = std::min(n, static_cast<size_t>(end - p));
    if (have < n && !allow_cut) return false;
    for (size_t i = 1; i < have; ++i) {
      const uint8_t min = i == 1 ? lo : 0x80;
      const uint8_t max = i == 1 ? hi : 0xBF;
      if (p[i] < min || p[i] > max) return false;
    }
    p += have;
  }
  return true;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  return check_utf8(text, false);
}
bool is_valid_utf8_prefix(std::string_view text) {
  return check_utf8(text, true);
}

std::string_view read_utf8(Reader& r, const char* field, uint64_t max_len) {
  const uint64_t len = r.length(field, max_len);
  if (!r.ok()) return {};
  const auto invalid = [&] {
    r.fail(field, "the " + std::to_string(len) + "-byte string is not valid UTF-8");
    return std::string_view();
  };
  if (r.remaining() < len) {
    // Still arriving: refuse now if the bytes so far cannot begin valid UTF-8.
    const auto part = r.rest();
    if (!is_valid_utf8_prefix({reinterpret_cast<const char*>(part.data()), part.size()})) {
      return invalid();
    }
  }
  const auto raw = r.raw(field, static_cast<size_t>(len));
  if (!r.ok()) return {};
  const std::string_view text(reinterpret_cast<const char*>(raw.data()), raw.size());
  if (!is_valid_utf8(text)) return invalid();
  return text;
}

}  // namespace moq::wire::lite::detail
