#include "model/wire/lite/auth.h"

#include <type_traits>

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/detail/utf8.h"

namespace moq::wire::lite {
namespace {

using detail::EncodeCheck;

void parse_patterns(Reader& b, const char* count_field, std::vector<std::string>& out) {
  // Every pattern takes at least its length byte.
  const uint64_t count = b.count(count_field, UINT64_MAX, 1);
  for (uint64_t i = 0; i < count && b.ok(); ++i) {
    const std::string_view pattern = detail::read_utf8(b, "Pattern", kMaxMessageLength);
    if (b.ok()) out.emplace_back(pattern);
  }
}

template <class Msg>
Decoded<AuthReply> decode_typed(std::span<const uint8_t> in, size_t offset, LiteVersion v) {
  auto r = detail::decode_sized<Msg>(in, offset, v, Msg::kName, [](Reader& b, Msg& m) {
    if constexpr (std::is_same_v<Msg, AuthOk>) {
      parse_patterns(b, "Publish Count", m.publish);
      parse_patterns(b, "Subscribe Count", m.subscribe);
      m.expires_ms = b.varint("Expires");
    } else {
      m.code = b.varint("Code");
      m.reason = detail::read_utf8(b, "Reason", kMaxReasonLength);
    }
  });
  return widen<AuthReply>(std::move(r));
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

Decoded<Auth> Auth::decode(std::span<const uint8_t> in, LiteVersion v) {
  if (!has_auth(v)) return malformed<Auth>(detail::violation(detail::not_on_version(kName, v)));
  return detail::decode_sized<Auth>(in, 0, v, kName, [](Reader& b, Auth& a) {
    // Bounded by the declared body, like every length (Reader::bytes is not).
    const auto token = b.raw("Token", b.length("Token", kMaxMessageLength));
    a.token.assign(token.begin(), token.end());
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

Decoded<AuthReply> decode_auth_reply(std::span<const uint8_t> in, LiteVersion v) {
  if (!has_auth(v)) {
    return malformed<AuthReply>(detail::violation(detail::not_on_version("AUTH reply", v)));
  }
  const auto type = detail::read_type(in, v);
  if (!type.ok()) return need_more<AuthReply>(type.needed);
  switch (type.value) {
    case AuthOk::kType:
      return decode_typed<AuthOk>(in, type.consumed, v);
    case AuthError::kType:
      return decode_typed<AuthError>(in, type.consumed, v);
  }
  return malformed<AuthReply>(detail::unknown_type("AUTH reply", type.value, v));
}

Status encode_auth_reply(const AuthReply& reply, Writer& w, LiteVersion v) {
  return std::visit([&](const auto& m) { return m.encode(w, v); }, reply);
}

}  // namespace moq::wire::lite
