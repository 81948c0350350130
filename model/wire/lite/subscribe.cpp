#include "model/wire/lite/subscribe.h"

#include <type_traits>

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/detail/utf8.h"

namespace moq::wire::lite {
namespace {

using detail::EncodeCheck;

void parse_options(Reader& b, SubscribeOptions& o) {
  o.priority = b.u8("Subscriber Priority");
  o.max_age_ms = b.varint("Subscriber Max Age");
  o.group_start = b.varint("Group Start");
  o.group_end = b.opt_plus_one("Group End");
  o.frame_start = b.varint("Frame Start");
  o.frame_end = b.opt_plus_one("Frame End");
}

void check_options(EncodeCheck& c, const SubscribeOptions& o) {
  c.varint("Subscriber Max Age", o.max_age_ms);
  c.varint("Group Start", o.group_start);
  c.opt_plus_one("Group End", o.group_end);
  c.varint("Frame Start", o.frame_start);
  c.opt_plus_one("Frame End", o.frame_end);
  if (Status s = o.check(c.message()); !s.ok())
    c.fail("Frame End", "must be absent (0) when Group End is");
}

void write_options(Writer& w, const SubscribeOptions& o) {
  w.u8(o.priority);
  w.varint(o.max_age_ms);
  w.varint(o.group_start);
  detail::write_opt_plus_one(w, o.group_end);
  w.varint(o.frame_start);
  detail::write_opt_plus_one(w, o.frame_end);
}

template <class Msg>
Decoded<SubscribeReply> decode_reply_body(std::span<const uint8_t> in, size_t offset,
                                          LiteVersion v) {
  auto r = detail::decode_sized<Msg>(in, offset, v, Msg::kName, [v](Reader& b, Msg& m) {
    (void)v;  // read by SUBSCRIBE_END only (clang warns of the capture in the other replies)
    if constexpr (std::is_same_v<Msg, SubscribeOk>) {
      m.group = b.varint("Group");
    } else if constexpr (std::is_same_v<Msg, SubscribeEnd>) {
      m.group = b.varint("Group");
      if (subscribe_end_has_stream_count(v)) m.stream_count = b.varint("Stream Count");
    } else {
      m.group_start = b.varint("Group Start");
      m.group_end = b.varint("Group End");
      m.error_code = b.varint("Error Code");
    }
  });
  return widen<SubscribeReply>(std::move(r));
}

}  // namespace

Status SubscribeOptions::check(const char* message) const {
  if (!group_end && frame_end) {
    return detail::violation(
        message, "Frame End",
        "is " + std::to_string(*frame_end + 1) + " on the wire but Group End is 0 (unbounded)");
  }
  return {};
}

Status Subscribe::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.varint("Subscribe ID", id);
  c.string("Broadcast Path", broadcast, kMaxMessageLength);
  c.string("Track Name", track, kMaxMessageLength);
  check_options(c, options);
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) {
    out.varint(id);
    out.string(broadcast);
    out.string(track);
    write_options(out, options);
  });
}

Decoded<Subscribe> Subscribe::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<Subscribe>(in, 0, v, kName, [](Reader& b, Subscribe& s) {
    s.id = b.varint("Subscribe ID");
    s.broadcast = detail::read_utf8(b, "Broadcast Path", kMaxMessageLength);
    s.track = detail::read_utf8(b, "Track Name", kMaxMessageLength);
    parse_options(b, s.options);
  });
}

Status SubscribeUpdate::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  check_options(c, options);
  return detail::encode_sized(w, c, std::nullopt,
                              [&](Writer& out) { write_options(out, options); });
}

Decoded<SubscribeUpdate> SubscribeUpdate::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<SubscribeUpdate>(
      in, 0, v, kName, [](Reader& b, SubscribeUpdate& u) { parse_options(b, u.options); });
}

Status SubscribeOk::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.varint("Group", group);
  return detail::encode_sized(w, c, kType, [&](Writer& out) { out.varint(group); });
}

Status SubscribeEnd::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.varint("Group", group);
  if (subscribe_end_has_stream_count(v)) {
    c.varint("Stream Count", stream_count);
  } else if (stream_count != 0) {
    c.fail("Stream Count", "is " + std::to_string(stream_count) + " but " + std::string(alpn(v)) +
                               " has no Stream Count field");
  }
  return detail::encode_sized(w, c, kType, [&](Writer& out) {
    out.varint(group);
    if (subscribe_end_has_stream_count(v)) out.varint(stream_count);
  });
}

Status SubscribeDrop::encode(Writer& w, LiteVersion v) const {
  if (!has_subscribe_drop(v)) {
    return Error{session_code::kInternalError, detail::not_on_version(kName, v)};
  }
  EncodeCheck c(kName, v);
  c.varint("Group Start", group_start);
  c.varint("Group End", group_end);
  c.varint("Error Code", error_code);
  return detail::encode_sized(w, c, kType, [&](Writer& out) {
    out.varint(group_start);
    out.varint(group_end);
    out.varint(error_code);
  });
}

Decoded<SubscribeReply> decode_subscribe_reply(std::span<const uint8_t> in, LiteVersion v) {
  const auto type = detail::read_type(in, v);
  if (!type.ok()) return need_more<SubscribeReply>(type.needed);
  switch (type.value) {
    case SubscribeOk::kType:
      return decode_reply_body<SubscribeOk>(in, type.consumed, v);
    case SubscribeEnd::kType:
      return decode_reply_body<SubscribeEnd>(in, type.consumed, v);
    case SubscribeDrop::kType:
      if (has_subscribe_drop(v)) return decode_reply_body<SubscribeDrop>(in, type.consumed, v);
      break;
  }
  return malformed<SubscribeReply>(detail::unknown_type("SUBSCRIBE reply", type.value, v));
}

Status encode_subscribe_reply(const SubscribeReply& reply, Writer& w, LiteVersion v) {
  return std::visit([&](const auto& m) { return m.encode(w, v); }, reply);
}

}  // namespace moq::wire::lite
