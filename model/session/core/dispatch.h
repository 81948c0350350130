// Message dispatch per stream kind.
//
// Each stream kind (a request stream of SUBSCRIBE, the control stream, ...) has a handler that
// declares on(const M&) for each message it takes, returning true when the message was welcome
// in its present state. dispatch() calls the overload for the message held; a message with no
// overload, or one the handler declines, is "unexpected on this stream": the one place that
// turns it into an error, naming the message and the stream kind, for the session to close
// with PROTOCOL_VIOLATION. The overloads are found at compile time, so adding a message to a
// family's variant cannot silently give a stream a new meaning.
#pragma once

#include <string>
#include <variant>

#include "model/base/codec.h"
#include "model/base/result.h"

namespace moq::session::core {

// "SUBSCRIBE_OK is unexpected on a FETCH request stream".
inline Error unexpected_message(const char* message, const char* stream_kind) {
  return Error{Reader::kMalformedCode,
               std::string(message) + " is unexpected on a " + stream_kind + " stream"};
}

// name(const M&) gives a message's name for the error.
template <class Handler, class Name, class... Ms>
Status dispatch(Handler& handler, const std::variant<Ms...>& message, const char* stream_kind,
                Name&& name) {
  return std::visit(
      [&](const auto& m) -> Status {
        if constexpr (requires { handler.on(m); }) {
          if (handler.on(m)) return {};
        }
        return unexpected_message(name(m), stream_kind);
      },
      message);
}

}  // namespace moq::session::core
