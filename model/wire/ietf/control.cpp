#include "model/wire/ietf/control.h"

#include <string>

#include "model/wire/ietf/describe_value.h"

namespace moq::wire::ietf {

namespace {

template <class M>
ControlMessage decode_body(Reader& r, IetfVersion v) {
  return ControlMessage(M::decode(r, v));
}

using BodyDecoder = ControlMessage (*)(Reader&, IetfVersion);

BodyDecoder body_decoder(uint64_t type, IetfVersion v) {
  switch (type) {
    case 0x2F00:
      return decode_body<Setup>;
    case 0x10:
      return decode_body<GoAway>;
    case 0x03:
      return decode_body<Subscribe>;
    case 0x04:
      return decode_body<SubscribeOk>;
    case 0x02:
      return decode_body<RequestUpdate>;
    case 0x1D:
      return decode_body<Publish>;
    case 0x0B:
      return decode_body<PublishDone>;
    case 0x22:
      return has_publish_state_notify(v) ? decode_body<PublishStateNotify> : nullptr;
    case 0x16:
      return decode_body<Fetch>;
    case 0x18:
      return decode_body<FetchOk>;
    case 0x0D:
      return decode_body<TrackStatus>;
    case 0x07:
      return decode_body<RequestOk>;
    case 0x1E:
      return accepts_publish_ok_type(v) ? decode_body<RequestOk> : nullptr;
    case 0x05:
      return decode_body<RequestError>;
    case 0x06:
      return decode_body<PublishNamespace>;
    case 0x08:
      return decode_body<Namespace>;
    case 0x0E:
      return decode_body<NamespaceDone>;
    case 0x50:
      return decode_body<SubscribeNamespace>;
    case 0x51:
      return decode_body<SubscribeTracks>;
    case 0x0F:
      return decode_body<PublishBlocked>;
    default:
      return nullptr;
  }
}

ControlDecode malformed(Error e) {
  ControlDecode d;
  d.status = DecodeStatus::Malformed;
  d.error = std::move(e);
  return d;
}

ControlDecode need_more(size_t needed) {
  ControlDecode d;
  d.status = DecodeStatus::NeedMore;
  d.needed = needed;
  return d;
}

// A field that ran past the end of a complete body: rewrite the Reader's "need more bytes".
std::string overrun_text(const std::string& reader_text, size_t body_length) {
  static constexpr std::string_view kNeedMore = "need more bytes";
  std::string out = reader_text;
  const size_t at = out.rfind(kNeedMore);
  const std::string why =
      "runs past the end of the message body (Length " + std::to_string(body_length) + ")";
  if (at != std::string::npos) {
    out.replace(at, kNeedMore.size(), why);
  } else {
    out += ": " + why;
  }
  return out;
}

}  // namespace

MessageType control_type(const ControlMessage& m) {
  return std::visit([](const auto& msg) { return std::decay_t<decltype(msg)>::kType; }, m);
}

const char* control_name(const ControlMessage& m, IetfVersion v) {
  const char* n = message_type_name(uint64_t(control_type(m)), v);
  return n ? n : "unknown message";
}

ControlDecode decode_control(std::span<const uint8_t> in, IetfVersion v) {
  const VarintDecode t = decode_varint(in, kVarint);
  if (t.status != DecodeStatus::Ok) return need_more(t.length);
  const char* name = message_type_name(t.value, v);
  const BodyDecoder decoder = body_decoder(t.value, v);
  if (!name || !decoder)
    return malformed(Error{kProtocolViolation,
                           "control message: field 'message type': " + describe_value(t.value) +
                               " is not a " + version_name(v) + " message type"});
  const size_t header = t.length + 2;
  if (in.size() < header) return need_more(header);
  const size_t body_length = size_t{in[t.length]} << 8 | in[t.length + 1];
  if (in.size() < header + body_length) return need_more(header + body_length);

  Reader r(in.subspan(header, body_length), kVarint, name);
  ControlMessage msg = decoder(r, v);
  if (r.status() == DecodeStatus::NeedMore)
    return malformed(Error{kProtocolViolation, overrun_text(r.error(), body_length)});
  if (!r.ok()) return malformed(r.to_error());
  if (!r.at_end())
    return malformed(Error{kProtocolViolation,
                           std::string(name) + ": field 'message length': Length " +
                               std::to_string(body_length) + " leaves " +
                               std::to_string(r.remaining()) + " bytes after the last field"});
  ControlDecode d;
  d.status = DecodeStatus::Ok;
  d.consumed = header + body_length;
  d.message = std::move(msg);
  return d;
}

size_t begin_frame(Writer& w, uint64_t type) {
  const size_t start = w.size();
  w.varint(type);
  w.u8(0);
  w.u8(0);
  return start;
}

Status finish_frame(Writer& w, size_t frame_start, const char* name) {
  // The type's size comes from its first byte (leading ones).
  const VarintDecode t =
      decode_varint(std::span<const uint8_t>(w.buffer()).subspan(frame_start), kVarint);
  const size_t at = frame_start + t.length;
  const size_t body_length = w.size() - at - 2;
  if (body_length > kMaxControlBodyLength) {
    w.buffer().resize(frame_start);
    return Error{kProtocolViolation, std::string(name) + ": field 'message length': body of " +
                                         std::to_string(body_length) + " bytes exceeds 65535"};
  }
  w.buffer()[at] = static_cast<uint8_t>(body_length >> 8);
  w.buffer()[at + 1] = static_cast<uint8_t>(body_length);
  return {};
}

Status encode_control(Writer& w, const ControlMessage& m, IetfVersion v) {
  return std::visit(
      [&](const auto& msg) -> Status {
        Status s = msg.check(v);
        if (!s.ok()) return s;
        const uint64_t type = uint64_t(std::decay_t<decltype(msg)>::kType);
        return encode_framed(w, type, control_name(m, v),
                             [&](Writer& body) { msg.encode(body, v); });
      },
      m);
}

}  // namespace moq::wire::ietf
