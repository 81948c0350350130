#include "model/wire/ietf/control.h"

#include <optional>
#include <string>
#include <vector>

#include "model/wire/ietf/describe_value.h"

namespace moq::wire::ietf {

namespace {

// What a draft makes of a message type: the name and the body decoder, which builds the message
// in place in the result.
struct MessageKind {
  const char* name;
  void (*decode)(Reader& r, IetfVersion v, ControlMessage& into);
};

template <class M>
void decode_body(Reader& r, IetfVersion v, ControlMessage& into) {
  M* m = std::get_if<M>(&into);
  if (!m) {
    M::decode(r, v, into.emplace<M>());
    return;
  }
  // A message of this type decoded before: start from a fresh one, but keep the storage of its
  // namespace fields and names (a request stream task keeps its message between jobs, so a
  // steady stream of requests allocates nothing).
  // Only their capacity: a message that does not carry them (a -18 joining FETCH) must not
  // keep the previous one's.
  // The old message is destroyed and a fresh one built in its place, which costs less than
  // move-assigning a fresh one over it field by field.
  std::vector<std::string> fields;
  std::string name;
  if constexpr (requires { m->track_namespace; }) fields.swap(m->track_namespace.fields);
  if constexpr (requires { m->track_name; }) name.swap(m->track_name);
  M& fresh = into.emplace<M>();
  if constexpr (requires { m->track_namespace; }) {
    fields.clear();
    fresh.track_namespace.fields.swap(fields);
  }
  if constexpr (requires { m->track_name; }) {
    name.clear();
    fresh.track_name.swap(name);
  }
  M::decode(r, v, fresh);
}

template <class M>
constexpr MessageKind kind(const char* name) {
  return {name, decode_body<M>};
}

// Every message type, once: its name, its body and the drafts that have it (version.h
// predicates); nullopt when type is not a message of draft v. Exhaustive over MessageType, so a
// new code point does not compile until it is placed here.
std::optional<MessageKind> message_kind(uint64_t type, IetfVersion v) {
  switch (MessageType(type)) {
    case MessageType::RequestUpdate:
      return kind<RequestUpdate>("REQUEST_UPDATE");
    case MessageType::Subscribe:
      return kind<Subscribe>("SUBSCRIBE");
    case MessageType::SubscribeOk:
      return kind<SubscribeOk>("SUBSCRIBE_OK");
    case MessageType::RequestError:
      return kind<RequestError>("REQUEST_ERROR");
    case MessageType::PublishNamespace:
      return kind<PublishNamespace>("PUBLISH_NAMESPACE");
    case MessageType::RequestOk:
      return kind<RequestOk>("REQUEST_OK");
    case MessageType::Namespace:
      return kind<Namespace>("NAMESPACE");
    case MessageType::PublishDone:
      return kind<PublishDone>("PUBLISH_DONE");
    case MessageType::TrackStatus:
      return kind<TrackStatus>("TRACK_STATUS");
    case MessageType::NamespaceDone:
      return kind<NamespaceDone>("NAMESPACE_DONE");
    case MessageType::PublishBlocked:
      return kind<PublishBlocked>(publish_blocked_name(v));
    case MessageType::GoAway:
      return kind<GoAway>("GOAWAY");
    case MessageType::Fetch:
      return kind<Fetch>("FETCH");
    case MessageType::FetchOk:
      return kind<FetchOk>("FETCH_OK");
    case MessageType::Publish:
      return kind<Publish>("PUBLISH");
    case MessageType::PublishOkLegacy:
      if (!accepts_publish_ok_type(v)) return std::nullopt;
      return kind<RequestOk>("PUBLISH_OK");
    case MessageType::PublishStateNotify:
      if (!has_publish_state_notify(v)) return std::nullopt;
      return kind<PublishStateNotify>("PUBLISH_STATE_NOTIFY");
    case MessageType::SubscribeNamespace:
      if (subscribe_namespace_has_options(v)) return std::nullopt;
      return kind<SubscribeNamespace>("SUBSCRIBE_NAMESPACE");
    case MessageType::SubscribeNamespaceWithOptions:
      if (!subscribe_namespace_has_options(v)) return std::nullopt;
      return kind<SubscribeNamespace>("SUBSCRIBE_NAMESPACE");
    case MessageType::SubscribeTracks:
      if (subscribe_namespace_has_options(v)) return std::nullopt;
      return kind<SubscribeTracks>("SUBSCRIBE_TRACKS");
    case MessageType::Setup:
      return kind<Setup>("SETUP");
  }
  return std::nullopt;
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

const char* message_type_name(uint64_t type, IetfVersion v) {
  const std::optional<MessageKind> k = message_kind(type, v);
  return k ? k->name : nullptr;
}

const char* control_name(const ControlMessage& m, IetfVersion v) {
  const char* n = message_type_name(wire_type(control_type(m), v), v);
  return n ? n : "unknown message";
}

Decoded<std::monostate> decode_control_into(std::span<const uint8_t> in, IetfVersion v,
                                            ControlMessage& into) {
  Decoded<std::monostate> d;
  auto fail = [&d](Error e) {
    d.status = DecodeStatus::Malformed;
    d.error = std::move(e);
  };
  const VarintDecode t = decode_varint(in, kVarint);
  if (t.status != DecodeStatus::Ok) {
    d.needed = t.length;
    return d;
  }
  const std::optional<MessageKind> kind = message_kind(t.value, v);
  if (!kind) {
    fail(Error{kProtocolViolation,
               "control message: field 'message type': " + describe_value(t.value) + " is not a " +
                   version_name(v) + " message type"});
    return d;
  }
  const size_t header = t.length + 2;
  const size_t body_length = in.size() < header ? 0 : size_t{in[t.length]} << 8 | in[t.length + 1];
  if (in.size() < header + body_length) {
    d.needed = header + body_length;
    return d;
  }
  Reader r(in.subspan(header, body_length), kVarint, kind->name);
  kind->decode(r, v, into);
  if (r.status() == DecodeStatus::NeedMore) {
    fail(Error{kProtocolViolation, overrun_text(r.error(), body_length)});
  } else if (!r.ok()) {
    fail(r.to_error());
  } else if (!r.at_end()) {
    fail(Error{kProtocolViolation, std::string(kind->name) + ": field 'message length': Length " +
                                       std::to_string(body_length) + " leaves " +
                                       std::to_string(r.remaining()) +
                                       " bytes after the last field"});
  } else {
    d.status = DecodeStatus::Ok;
    d.consumed = header + body_length;
  }
  return d;
}

Decoded<ControlMessage> decode_control(std::span<const uint8_t> in, IetfVersion v) {
  // Every path returns this one result, so the compiler builds it in the caller's slot (a
  // ControlMessage is costly to move).
  Decoded<ControlMessage> d;
  Decoded<std::monostate> r = decode_control_into(in, v, d.value);
  d.status = r.status;
  d.consumed = r.consumed;
  d.needed = r.needed;
  d.error = std::move(r.error);
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
        const uint64_t type = wire_type(std::decay_t<decltype(msg)>::kType, v);
        return encode_framed(w, type, control_name(m, v),
                             [&](Writer& body) { msg.encode(body, v); });
      },
      m);
}

}  // namespace moq::wire::ietf
