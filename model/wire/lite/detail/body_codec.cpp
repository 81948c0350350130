#include "model/wire/lite/detail/body_codec.h"

#include <algorithm>

namespace moq::wire::lite::detail {

namespace {

// Checks UTF-8 byte by byte with the ranges of RFC 3629 (which exclude overlong forms,
// surrogates and code points above U+10FFFF). With allow_cut, text may end inside a character
// whose bytes so far are valid: that is how a string that has only partly arrived is judged.
bool check_utf8(std::string_view text, bool allow_cut) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
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

std::string field_error(const char* message, const char* field, const std::string& why) {
  return std::string(message) + ": field '" + field + "': " + why;
}

void BodyReader::check_varint_fits(const char* field) {
  if (!r_.ok() || r_.remaining() == 0) return;
  // The first byte gives the varint's length in both forms.
  const VarintDecode d = decode_varint(r_.rest().first(1), r_.form());
  if (d.status == DecodeStatus::NeedMore && d.length > body_left()) {
    r_.fail(field, "a " + std::to_string(d.length) +
                       "-byte varint runs past the end of the body (" +
                       std::to_string(body_left()) + " bytes left)");
  }
}

std::optional<uint64_t> BodyReader::opt_plus_one(const char* field) {
  const uint64_t raw = varint(field);
  if (!r_.ok() || raw == 0) return std::nullopt;
  return raw - 1;
}

uint64_t BodyReader::length(const char* field, uint64_t max_len) {
  const uint64_t len = varint(field);
  if (!r_.ok()) return 0;
  if (len > max_len) {
    r_.fail(field,
            "length " + std::to_string(len) + " exceeds the limit " + std::to_string(max_len));
    return 0;
  }
  if (len > body_left()) {
    r_.fail(field, "length " + std::to_string(len) + " runs past the end of the body (" +
                       std::to_string(body_left()) + " bytes left)");
    return 0;
  }
  return len;
}

void BodyReader::string(const char* field, uint64_t max_len, std::string& out) {
  const uint64_t len = length(field, max_len);
  if (!r_.ok()) return;
  if (r_.remaining() < len) {
    // Still arriving: refuse now if the bytes so far cannot begin valid UTF-8.
    const auto part = r_.rest();
    if (!is_valid_utf8_prefix({reinterpret_cast<const char*>(part.data()), part.size()})) {
      r_.fail(field, "the " + std::to_string(len) + "-byte string is not valid UTF-8");
      return;
    }
  }
  auto raw = r_.raw(field, static_cast<size_t>(len));
  if (!r_.ok()) return;
  std::string_view text(reinterpret_cast<const char*>(raw.data()), raw.size());
  if (!is_valid_utf8(text)) {
    r_.fail(field, "the " + std::to_string(len) + "-byte string is not valid UTF-8");
    return;
  }
  out.assign(text);
}

void BodyReader::bytes(const char* field, uint64_t max_len, std::vector<uint8_t>& out) {
  const uint64_t len = length(field, max_len);
  if (!r_.ok()) return;
  auto raw = r_.raw(field, static_cast<size_t>(len));
  if (r_.ok()) out.assign(raw.begin(), raw.end());
}

uint64_t BodyReader::count(const char* field, uint64_t max, uint64_t min_entry_size) {
  const uint64_t n = varint(field);
  if (!r_.ok()) return 0;
  if (n > max) {
    r_.fail(field, "count " + std::to_string(n) + " exceeds the limit " + std::to_string(max));
    return 0;
  }
  if (min_entry_size > 0 && n > body_left() / min_entry_size) {
    r_.fail(field, "count " + std::to_string(n) + " cannot fit in the " +
                       std::to_string(body_left()) + " bytes left in the body");
    return 0;
  }
  return n;
}

SizedHeader read_message_length(std::span<const uint8_t> in, size_t offset, LiteVersion v,
                                const char* message) {
  const VarintDecode d = decode_varint(in.subspan(offset), varint_form(v));
  if (d.status != DecodeStatus::Ok) return {DecodeStatus::NeedMore, offset + d.length, 0, {}};
  if (d.value > kMaxMessageLength) {
    return {DecodeStatus::Malformed, 0, 0,
            field_error(message, "Message Length",
                        std::to_string(d.value) + " exceeds the 64 MiB limit")};
  }
  return {DecodeStatus::Ok, offset + d.length, d.value, {}};
}

std::string short_body_error(const Reader& r, uint64_t body_length) {
  // The reader's NeedMore text is "<message>: field '<field>': need more bytes"; keep the part
  // that names the message and field.
  std::string where = r.error();
  static constexpr std::string_view kNeedMore = ": need more bytes";
  if (where.size() >= kNeedMore.size() &&
      where.compare(where.size() - kNeedMore.size(), kNeedMore.size(), kNeedMore) == 0) {
    where.resize(where.size() - kNeedMore.size());
  }
  return where + ": the body ends inside this field (Message Length " +
         std::to_string(body_length) + " is too short)";
}

std::string long_body_error(const char* message, uint64_t body_length, size_t used) {
  return field_error(message, "Message Length",
                     std::to_string(body_length) + " is longer than the fields, which take " +
                         std::to_string(used) + " bytes");
}

DecodeResult<uint64_t> read_type(std::span<const uint8_t> in, LiteVersion v) {
  const VarintDecode d = decode_varint(in, varint_form(v));
  if (d.status != DecodeStatus::Ok) return need_more<uint64_t>(d.length);
  DecodeResult<uint64_t> r;
  r.status = DecodeStatus::Ok;
  r.consumed = d.length;
  r.value = d.value;
  return r;
}

std::string not_on_version(const char* message, LiteVersion v) {
  return std::string(message) + ": not defined on " + std::string(alpn(v));
}

void EncodeCheck::fail(const char* field, const std::string& why) {
  if (failed_) return;
  failed_ = true;
  error_ = field_error(message_, field, why);
}

void EncodeCheck::varint(const char* field, uint64_t value) {
  if (value > max_varint(v_)) {
    fail(field, "value " + std::to_string(value) + " exceeds the varint maximum " +
                    std::to_string(max_varint(v_)) + " of " + std::string(alpn(v_)));
  }
}

void EncodeCheck::opt_plus_one(const char* field, const std::optional<uint64_t>& value) {
  if (value && *value >= max_varint(v_)) {
    fail(field, "value " + std::to_string(*value) + " + 1 exceeds the varint maximum " +
                    std::to_string(max_varint(v_)) + " of " + std::string(alpn(v_)));
  }
}

void EncodeCheck::string(const char* field, std::string_view text, uint64_t max_len) {
  bytes(field, text.size(), max_len);
  if (!failed_ && !is_valid_utf8(text)) fail(field, "the string is not valid UTF-8");
}

void EncodeCheck::bytes(const char* field, size_t size, uint64_t max_len) {
  if (size > max_len) {
    fail(field, "length " + std::to_string(size) + " exceeds the limit " + std::to_string(max_len));
  }
}

Status EncodeCheck::status() const {
  if (!failed_) return {};
  return Error{session_code::kInternalError, error_};
}

Status encode_preamble_error(const EncodeCheck& check, const Writer& w) {
  if (!check.ok()) return check.status();
  if (w.form() != varint_form(check.version())) {
    return Error{session_code::kInternalError, std::string(check.message()) +
                                                   ": the writer's varint form does not match " +
                                                   std::string(alpn(check.version()))};
  }
  return {};
}

Status body_too_long(const char* message, size_t body) {
  return Error{
      session_code::kInternalError,
      field_error(message, "Message Length", std::to_string(body) + " exceeds the 64 MiB limit")};
}

}  // namespace moq::wire::lite::detail
