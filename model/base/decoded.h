// Decoded<T>: what every wire decoder returns (moq-lite and moq-transport, control messages and
// data headers alike), for one item decoded from the front of a byte span:
//  - Ok: `value` holds the item and `consumed` the bytes it took (the rest is not touched).
//  - NeedMore: the span is a strict prefix of an item that may still be valid; retry once the
//    span holds at least `needed` bytes (more than were given; 0 when the decoder cannot tell
//    yet). No allocation.
//  - Malformed: `error` carries the session code to close with (PROTOCOL_VIOLATION unless the
//    format names another) and a message that names the message, the field and the value
//    ("SUBSCRIBE: field 'Track Name': ...").
// A decoder never reads past the span and never returns NeedMore once the bytes it has already
// seen are invalid.
#pragma once

#include <cstddef>
#include <utility>

#include "model/base/result.h"
#include "model/base/varint.h"

namespace moq {

template <class T>
struct Decoded {
  DecodeStatus status = DecodeStatus::NeedMore;
  size_t consumed = 0;
  size_t needed = 0;
  T value{};
  Error error;

  bool ok() const { return status == DecodeStatus::Ok; }
  bool need_more() const { return status == DecodeStatus::NeedMore; }
  bool malformed() const { return status == DecodeStatus::Malformed; }
};

template <class T>
Decoded<T> decoded(T value, size_t consumed) {
  Decoded<T> d;
  d.status = DecodeStatus::Ok;
  d.consumed = consumed;
  d.value = std::move(value);
  return d;
}
template <class T>
Decoded<T> need_more(size_t needed) {
  Decoded<T> d;
  d.status = DecodeStatus::NeedMore;
  d.needed = needed;
  return d;
}
// `error` is moved from: clang-tidy 14 misses a move into a member of a dependent type.
template <class T>
Decoded<T> malformed(Error error) {  // NOLINT(performance-unnecessary-value-param)
  Decoded<T> d;
  d.status = DecodeStatus::Malformed;
  d.error = std::move(error);
  return d;
}
// The same outcome carrying another value type (a message widened into a variant of messages).
template <class To, class From>
Decoded<To> widen(Decoded<From>&& from) {
  Decoded<To> to;
  to.status = from.status;
  to.consumed = from.consumed;
  to.needed = from.needed;
  if (from.ok()) to.value = To(std::move(from.value));
  to.error = std::move(from.error);
  return to;
}

}  // namespace moq
