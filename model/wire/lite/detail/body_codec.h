// Internal helpers shared by the moq-lite message codecs (not for use outside model/wire/lite):
//  - BodyReader: a Reader over a length-prefixed body that may not have fully arrived yet; it
//    bounds every string, byte string and list count by what is left of the DECLARED body, so a
//    field that cannot fit is Malformed at once rather than NeedMore forever.
//  - decode_sized / decode_typed_header: the `[Type] Message Length Body` framing with the strict
//    length rules of spec section 2.
//  - EncodeCheck / encode_sized: validation before anything is written, so encode either writes
//    a message that decodes back to the same value or writes nothing and returns an Error.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/base/codec.h"
#include "model/base/result.h"
#include "model/wire/lite/decode_result.h"
#include "model/wire/lite/error_codes.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite::detail {

// True when text is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view text);
// True when text is valid UTF-8 or a prefix of valid UTF-8 (it may end inside a character).
bool is_valid_utf8_prefix(std::string_view text);

std::string field_error(const char* message, const char* field, const std::string& why);

template <class T>
DecodeResult<T> malformed(std::string message) {
  return moq::malformed<T>(Error{session_code::kProtocolViolation, std::move(message)});
}
using moq::need_more;
using moq::widen;

class BodyReader {
 public:
  // available: the body bytes present (at most body_length of them).
  BodyReader(std::span<const uint8_t> available, uint64_t body_length, VarintForm form,
             const char* message)
      : r_(available, form, message), body_length_(body_length) {}

  // A varint whose length prefix runs past the declared body is Malformed at once, even while
  // the body is still arriving.
  uint64_t varint(const char* field) {
    check_varint_fits(field);
    return r_.varint(field);
  }
  // opt+1: 0 is absent, v+1 is v.
  std::optional<uint64_t> opt_plus_one(const char* field);
  uint8_t u8(const char* field) { return r_.u8(field); }
  bool boolean(const char* field) { return r_.boolean(field); }
  // A length-prefixed UTF-8 string of at most max_len bytes.
  void string(const char* field, uint64_t max_len, std::string& out);
  void bytes(const char* field, uint64_t max_len, std::vector<uint8_t>& out);
  // A list count: at most max, and at most what is left of the body when every entry takes at
  // least min_entry_size bytes.
  uint64_t count(const char* field, uint64_t max, uint64_t min_entry_size);
  void check_varint_fits(const char* field);

  // A length prefix of a string, byte string or parameter value, checked against max_len and
  // against what is left of the body.
  uint64_t length(const char* field, uint64_t max_len);
  std::span<const uint8_t> raw(const char* field, uint64_t n) {
    return r_.raw(field, static_cast<size_t>(n));
  }
  // Bytes left in the declared body.
  uint64_t body_left() const { return body_length_ - r_.consumed(); }

  void fail(const char* field, const std::string& why) { r_.fail(field, why); }
  bool ok() const { return r_.ok(); }
  Reader& reader() { return r_; }

 private:
  Reader r_;
  uint64_t body_length_;
};

struct SizedHeader {
  DecodeStatus status;
  size_t body_offset;  // where the body starts (after the Message Length)
  uint64_t body_length;
  std::string error;  // Malformed only
};

// Reads the Message Length at in[offset] and checks it against kMaxMessageLength.
SizedHeader read_message_length(std::span<const uint8_t> in, size_t offset, LiteVersion v,
                                const char* message);

std::string short_body_error(const Reader& r, uint64_t body_length);
std::string long_body_error(const char* message, uint64_t body_length, size_t used);

// Decodes `Message Length (i)` then a body at in[offset], with parse(BodyReader&, T&) reading
// the fields. Strict: a body shorter or longer than its length, or a length over 64 MiB, is
// Malformed. An incomplete body is NeedMore only while the fields read so far are valid.
template <class T, class Parse>
DecodeResult<T> decode_sized(std::span<const uint8_t> in, size_t offset, LiteVersion v,
                             const char* message, Parse&& parse) {
  const SizedHeader h = read_message_length(in, offset, v, message);
  if (h.status == DecodeStatus::NeedMore) return need_more<T>(h.body_offset);
  if (h.status == DecodeStatus::Malformed) return malformed<T>(h.error);
  const size_t available = in.size() - h.body_offset;
  const bool complete = available >= h.body_length;
  const size_t visible = complete ? static_cast<size_t>(h.body_length) : available;
  BodyReader body(in.subspan(h.body_offset, visible), h.body_length, varint_form(v), message);
  DecodeResult<T> out;
  parse(body, out.value);
  const Reader& r = body.reader();
  if (r.status() == DecodeStatus::Malformed) return malformed<T>(r.error());
  if (r.status() == DecodeStatus::NeedMore) {
    if (!complete) return need_more<T>(h.body_offset + static_cast<size_t>(h.body_length));
    return malformed<T>(short_body_error(r, h.body_length));
  }
  // Every field is read: anything left in the declared body is an error, even before it arrives.
  if (r.consumed() != h.body_length) {
    return malformed<T>(long_body_error(message, h.body_length, r.consumed()));
  }
  out.status = DecodeStatus::Ok;
  out.consumed = h.body_offset + static_cast<size_t>(h.body_length);
  return out;
}

// Reads the Type of a typed message. Ok: type in value, size in consumed.
DecodeResult<uint64_t> read_type(std::span<const uint8_t> in, LiteVersion v);

// A message that the version does not define.
std::string not_on_version(const char* message, LiteVersion v);

class EncodeCheck {
 public:
  EncodeCheck(const char* message, LiteVersion v) : message_(message), v_(v) {}

  void varint(const char* field, uint64_t value);
  void opt_plus_one(const char* field, const std::optional<uint64_t>& value);
  void string(const char* field, std::string_view text, uint64_t max_len);
  void bytes(const char* field, size_t size, uint64_t max_len);
  void fail(const char* field, const std::string& why);

  bool ok() const { return !failed_; }
  Status status() const;
  const char* message() const { return message_; }
  LiteVersion version() const { return v_; }

 private:
  const char* message_;
  LiteVersion v_;
  bool failed_ = false;
  std::string error_;
};

// Writes `[Type] Message Length Body` with write(Writer&) producing the body, after the checks
// passed. Writes nothing and returns the error when a check failed, the writer's varint form is
// not the version's, or the body would exceed kMaxMessageLength.
Status encode_preamble_error(const EncodeCheck& check, const Writer& w);
Status body_too_long(const char* message, size_t body);

template <class Write>
Status encode_sized(Writer& w, const EncodeCheck& check, std::optional<uint64_t> type,
                    Write&& write) {
  if (Status s = encode_preamble_error(check, w); !s.ok()) return s;
  const size_t start = w.size();
  if (type) w.varint(*type);
  const size_t mark = w.begin_length();
  write(w);
  const size_t body = w.size() - mark;
  if (body > kMaxMessageLength) {
    w.buffer().resize(start);
    return body_too_long(check.message(), body);
  }
  w.end_length(mark);
  return {};
}

// Writes an opt+1 value.
inline void write_opt_plus_one(Writer& w, const std::optional<uint64_t>& value) {
  w.varint(value ? *value + 1 : 0);
}

}  // namespace moq::wire::lite::detail
