#include "model/wire/lite/auth.h"

#include <type_traits>

#include "model/wire/lite/detail/body_codec.h"

namespace moq::wire::lite {
namespace {

using detail::BodyReader;
using detail::EncodeCheck;

void parse_patterns(BodyReader& b, const char* count_field, std::vector<std::string>& out) {
  // Every pattern takes at least its length byte.
  const uint64_t count = b.count(count_field, UINT64_MAX, 1);
  for (uint64_t i = 0; i < count && b.ok(); ++i) {
    std::string pattern;
    b.string("Pattern", kMaxMessageLength, pattern);
    if (b.ok()) out.push_back(std::move(pattern));
  }
}

template <class Msg>
DecodeResult<AuthReply> decode_typed(std::span<const uint8_t> in, size_t offset, LiteVersion v) {
  auto r = detail::decode_sized<Msg>(in, offset, v, Msg::kName, [](BodyReader& b, Msg& m) {
    if constexpr (std::is_same_v<Msg, AuthOk>) {
      parse_patterns(b, "Publish Count", m.publish);
      parse_patterns(b, "Subscribe Count", m.subscribe);
      m.expires_ms = b.varint("Expires");
    } else {
      m.code = b.varint("Code");
      b.string("Reason", kMaxReasonLength, m.reason);
    }
  });
  return detail::widen<AuthReply>(std::move(r));
}

Status not_on_version(const char* message, LiteVersion v) {
  return Error{session_code::kInternalError, detail::not_on_version(message, v)};
}

}  // namespace

Status Auth::encode(Writer& w, LiteVersion v) const {
  if (!has_auth(v)) return not_on_version(kName, v);
  EncodeCheck c(kName, v);
  c.bytes("Token", token.size(), kMaxMessageLength);
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) { out.bytes(token); });
}

DecodeResult<Auth> Auth::decode(std::span<const uint8_t> in, LiteVersion v) {
  if (!has_auth(v)) return detail::malformed<Auth>(detail::not_on_version(kName, v));
  return detail::decode_sized<Auth>(in, 0, v, kName, [](BodyReader& b, Auth& a) {
    b.bytes("Token", kMaxMessageLength, a.token);
  });
}

Status AuthOk::encode(Writer& w, LiteVersion v) const {
  if (!has_auth(v)) return not_on_version(kName, v);
  EncodeCheck c(kName, v);
  for (const auto& p : publish)
    c.string("Pattern", p, kMaxMessageLength);
  for (const auto& p : subscribe)
    c.string("Pattern", p, kMaxMessageLength);
  c.varint("Expires", expires_ms);
  return detail::encode_sized(w, c, kType, [&](Writer& out) {
    out.varint(publish.size());
    for (const auto& p : publish)
      out.string(p);
    out.varint(subscribe.size());
    for (const auto& p : subscribe)
      out.string(p);
    out.varint(expires_ms);
  });
}

Status AuthError::encode(Writer& w, LiteVersion v) const {
  if (!has_auth(v)) return not_on_version(kName, v);
  EncodeCheck c(kName, v);
  c.varint("Code", code);
  c.string("Reason", reason, kMaxReasonLength);
  return detail::encode_sized(w, c, kType, [&](Writer& out) {
    out.varint(code);
    out.string(reason);
  });
}

DecodeResult<AuthReply> decode_auth_reply(std::span<const uint8_t> in, LiteVersion v) {
  if (!has_auth(v)) {
    return detail::malformed<AuthReply>(detail::not_on_version("AUTH reply", v));
  }
  const auto type = detail::read_type(in, v);
  if (!type.ok()) return detail::need_more<AuthReply>(type.needed);
  switch (type.value) {
    case AuthOk::kType:
      return decode_typed<AuthOk>(in, type.consumed, v);
    case AuthError::kType:
      return decode_typed<AuthError>(in, type.consumed, v);
  }
  return detail::malformed<AuthReply>(detail::field_error(
      "AUTH reply", "Type",
      "unknown type " + std::to_string(type.value) + " on " + std::string(alpn(v))));
}

Status encode_auth_reply(const AuthReply& reply, Writer& w, LiteVersion v) {
  return std::visit([&](const auto& m) { return m.encode(w, v); }, reply);
}

}  // namespace moq::wire::lite
