// Control message framing (draft-ietf-moq-transport, control messages): Message Type (vi64),
// Message Length (16 bits, big-endian), Body. decode_control reads one whole message from the front
// of a buffer; encode_control writes one. Strict: a body shorter or longer than its Length, an
// unknown type, or a type the draft does not have is Malformed with an error naming the message,
// the field and the value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/base/varint.h"
#include "model/wire/ietf/messages.h"

namespace moq::wire::ietf {

using ControlMessage =
    std::variant<Setup, GoAway, Subscribe, SubscribeOk, RequestUpdate, Publish, PublishDone,
                 PublishStateNotify, Fetch, FetchOk, TrackStatus, RequestOk, RequestError,
                 PublishNamespace, Namespace, NamespaceDone, SubscribeNamespace, SubscribeTracks,
                 PublishBlocked>;

// The message's name in draft v, or nullptr when the type is not a message of the draft (unknown
// types close the session).
const char* message_type_name(uint64_t type, IetfVersion v);

// The wire type of the message held (REQUEST_OK is always sent as 0x07).
MessageType control_type(const ControlMessage& m);
// Its name in draft v ("PUBLISH_SKIPPED" for PublishBlocked under -22).
const char* control_name(const ControlMessage& m, IetfVersion v);

// Decodes the next whole control message (consumed: the whole frame). NeedMore only while the
// message is incomplete (the type, the 2-byte length or the body has not fully arrived; needed:
// the total input size known to be required) and its type is one the draft has; every
// complete-but-wrong input is Malformed, with a session termination code and a text.
Decoded<ControlMessage> decode_control(std::span<const uint8_t> in, IetfVersion v);
// The same into `into`, which keeps its storage (namespace fields, names) when it already holds
// a message of the type that arrives; on Malformed or NeedMore it holds a partly decoded one.
Decoded<std::monostate> decode_control_into(std::span<const uint8_t> in, IetfVersion v,
                                            ControlMessage& into);

// Appends one framed message. Fails (writing nothing) when the message breaks a rule check()
// covers or its body exceeds 65535 bytes.
Status encode_control(Writer& w, const ControlMessage& m, IetfVersion v);
template <class M>
Status encode_message(Writer& w, const M& m, IetfVersion v) {
  return encode_control(w, ControlMessage(m), v);
}

// Writes type and a placeholder length; finish_frame patches the length once the body is written
// (and removes the whole frame, failing, when the body exceeds 65535 bytes). Used by
// encode_control and by tests that need raw bodies.
size_t begin_frame(Writer& w, uint64_t type);
Status finish_frame(Writer& w, size_t frame_start, const char* name);
template <class Body>
Status encode_framed(Writer& w, uint64_t type, const char* name, Body&& body) {
  const size_t start = begin_frame(w, type);
  body(w);
  return finish_frame(w, start, name);
}

}  // namespace moq::wire::ietf
