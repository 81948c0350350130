#include "model/wire/lite/detail/body_codec.h"

#include <string>
#include <utility>

#include "model/wire/lite/detail/utf8.h"

namespace moq::wire::lite::detail {

std::string field_error(const char* message, const char* field, const std::string& why) {
  return std::string(message) + ": field '" + field + "': " + why;
}

Error violation(std::string text) {
  return Error{session_code::kProtocolViolation, std::move(text)};
}

Error violation(const char* message, const char* field, const std::string& why) {
  return violation(field_error(message, field, why));
}

Error length_over_limit(const char* message, uint64_t length) {
  return violation(message, "Message Length", std::to_string(length) + " exceeds the 64 MiB limit");
}

SizedHeader read_message_length(std::span<const uint8_t> in, size_t offset, LiteVersion v,
                                const char* message) {
  const VarintDecode d = decode_varint(in.subspan(offset), varint_form(v));
  if (d.status != DecodeStatus::Ok) return {DecodeStatus::NeedMore, offset + d.length, 0, {}};
  if (d.value > kMaxMessageLength) {
    return {DecodeStatus::Malformed, 0, 0, length_over_limit(message, d.value)};
  }
  return {DecodeStatus::Ok, offset + d.length, d.value, {}};
}

Error short_body_error(const Reader& r, uint64_t body_length) {
  // The reader's NeedMore text is "<message>: field '<field>': need more bytes"; keep the part
  // that names the message and field.
  std::string where = r.error();
  static constexpr std::string_view kNeedMore = ": need more bytes";
  if (where.size() >= kNeedMore.size() &&
      where.compare(where.size() - kNeedMore.size(), kNeedMore.size(), kNeedMore) == 0) {
    where.resize(where.size() - kNeedMore.size());
  }
  return violation(where + ": the body ends inside this field (Message Length " +
                   std::to_string(body_length) + " is too short)");
}

Error long_body_error(const char* message, uint64_t body_length, size_t used) {
  return violation(message, "Message Length",
                   std::to_string(body_length) + " is longer than the fields, which take " +
                       std::to_string(used) + " bytes");
}

Decoded<uint64_t> read_type(std::span<const uint8_t> in, LiteVersion v) {
  const VarintDecode d = decode_varint(in, varint_form(v));
  if (d.status != DecodeStatus::Ok) return need_more<uint64_t>(d.length);
  return decoded(d.value, d.length);
}

Error unknown_type(const char* message, uint64_t type, LiteVersion v) {
  return violation(message, "Type",
                   "unknown type " + std::to_string(type) + " on " + std::string(alpn(v)));
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
