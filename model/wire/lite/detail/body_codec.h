// The `[Type] Message Length Body` framing every moq-lite control message shares (not for use
// outside model/wire/lite):
//  - decode_sized / read_type: decoding with the strict length rules of draft-lcurley-moq-lite-06
//    (message lengths). Bodies are read by a moq::Reader that knows the declared body length, so a
// field that cannot fit
//    in it is Malformed at once rather than NeedMore forever.
//  - EncodeCheck / encode_sized: validation before anything is written, so encode either writes
//    a message that decodes back to the same value or writes nothing and returns an Error.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/wire/lite/error_codes.h"
#include "model/wire/lite/limits.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite::detail {

// A Reader's failure closes the session with PROTOCOL_VIOLATION, as every malformed lite input.
static_assert(Reader::kMalformedCode == session_code::kProtocolViolation);

// "MESSAGE: field 'Field': why", the shape of every decode and encode error.
std::string field_error(const char* message, const char* field, const std::string& why);
// A malformed input: PROTOCOL_VIOLATION with the given text, or naming the message and field.
Error violation(std::string text);
Error violation(const char* message, const char* field, const std::string& why);
// A Message Length (or FRAME payload length) above kMaxMessageLength.
Error length_over_limit(const char* message, uint64_t length);

struct SizedHeader {
  DecodeStatus status;
  size_t body_offset;  // where the body starts (after the Message Length)
  uint64_t body_length;
  Error error;  // Malformed only
};

// Reads the Message Length at in[offset] and checks it against kMaxMessageLength.
SizedHeader read_message_length(std::span<const uint8_t> in, size_t offset, LiteVersion v,
                                const char* message);

// A body that ends inside the field the reader was reading, or that is longer than its fields.
Error short_body_error(const Reader& r, uint64_t body_length);
Error long_body_error(const char* message, uint64_t body_length, size_t used);

// Decodes `Message Length (i)` then a body at in[offset], with parse(Reader&, T&) reading the
// fields. Strict: a body shorter or longer than its length, or a length over 64 MiB, is
// Malformed. An incomplete body is NeedMore only while the fields read so far are valid.
template <class T, class Parse>
Decoded<T> decode_sized(std::span<const uint8_t> in, size_t offset, LiteVersion v,
                        const char* message, Parse&& parse) {
  const SizedHeader h = read_message_length(in, offset, v, message);
  if (h.status == DecodeStatus::NeedMore) return need_more<T>(h.body_offset);
  if (h.status == DecodeStatus::Malformed) return malformed<T>(h.error);
  const size_t available = in.size() - h.body_offset;
  const bool complete = available >= h.body_length;
  const size_t visible = complete ? static_cast<size_t>(h.body_length) : available;
  Reader body(in.subspan(h.body_offset, visible), h.body_length, varint_form(v), message);
  Decoded<T> out;
  parse(body, out.value);
  if (body.status() == DecodeStatus::Malformed) return malformed<T>(body.to_error());
  if (body.status() == DecodeStatus::NeedMore) {
    if (!complete) return need_more<T>(h.body_offset + static_cast<size_t>(h.body_length));
    return malformed<T>(short_body_error(body, h.body_length));
  }
  // Every field is read: anything left in the declared body is an error, even before it arrives.
  if (body.consumed() != h.body_length) {
    return malformed<T>(long_body_error(message, h.body_length, body.consumed()));
  }
  out.status = DecodeStatus::Ok;
  out.consumed = h.body_offset + static_cast<size_t>(h.body_length);
  return out;
}

// Reads the Type of a typed message. Ok: type in value, size in consumed.
Decoded<uint64_t> read_type(std::span<const uint8_t> in, LiteVersion v);
// A typed message whose Type the version does not define.
Error unknown_type(const char* message, uint64_t type, LiteVersion v);

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
