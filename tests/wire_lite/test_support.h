// Helpers shared by the moq-lite wire tests: hex parsing, encoding into fresh buffers, and
// rewriting a message's length field.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/base/codec.h"
#include "model/wire/lite/messages.h"

namespace moq::wire::lite::test {

using Buf = std::vector<uint8_t>;

inline constexpr LiteVersion kVersions[] = {LiteVersion::Lite06, LiteVersion::Lite07Wip};

// "02 12 00" or "0212 00" -> bytes. Spaces and '|' are ignored.
inline Buf hex(std::string_view text) {
  Buf out;
  int nibble = -1;
  for (char c : text) {
    int v;
    if (c >= '0' && c <= '9') {
      v = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v = c - 'A' + 10;
    } else {
      continue;
    }
    if (nibble < 0) {
      nibble = v;
    } else {
      out.push_back(static_cast<uint8_t>(nibble << 4 | v));
      nibble = -1;
    }
  }
  EXPECT_LT(nibble, 0) << "odd number of hex digits in " << text;
  return out;
}

inline std::string to_hex(const Buf& b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < b.size(); ++i) {
    if (i) s += ' ';
    s += kDigits[b[i] >> 4];
    s += kDigits[b[i] & 15];
  }
  return s;
}

inline Buf cat(Buf a, const Buf& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Encodes m (which must succeed) into a fresh buffer.
template <class M>
Buf encoded(const M& m, LiteVersion v) {
  Buf out;
  Writer w(out, varint_form(v));
  Status s = m.encode(w, v);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return out;
}

// The encode error message (empty when encode succeeded); checks that a failed encode wrote
// nothing.
template <class M>
std::string encode_error(const M& m, LiteVersion v) {
  Buf out = {0xAA};
  Writer w(out, varint_form(v));
  Status s = m.encode(w, v);
  if (s.ok()) return {};
  EXPECT_EQ(out, Buf{0xAA}) << "a failed encode must write nothing";
  EXPECT_FALSE(s.error().message.empty());
  return s.error().message;
}

inline Buf varint_bytes(uint64_t value, VarintForm form) {
  uint8_t b[kMaxVarintSize];
  const size_t n = encode_varint(value, form, b);
  return Buf(b, b + n);
}

// Replaces the Message Length at `offset` of a valid encoding with new_length (body bytes
// untouched).
inline Buf with_length(const Buf& msg, size_t offset, uint64_t new_length, LiteVersion v) {
  const VarintDecode d = decode_varint({msg.data() + offset, msg.size() - offset}, varint_form(v));
  Buf out(msg.begin(), msg.begin() + static_cast<std::ptrdiff_t>(offset));
  out = cat(out, varint_bytes(new_length, varint_form(v)));
  out.insert(out.end(), msg.begin() + static_cast<std::ptrdiff_t>(offset + d.length), msg.end());
  return out;
}

inline bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

inline std::string version_name(LiteVersion v) {
  return std::string(alpn(v));
}

}  // namespace moq::wire::lite::test
