// on_read(): the one place a stream read's result (core::In) becomes what a task does next: go on
// (handle the message, or carry on past the read), or return a Poll: wait, finish or fail.
//
// Every end has a default, so a task names only the ends it treats otherwise, each with a
// handler taking that end's tag (core::on::Fin, ...) and returning a Poll, or a Then to go on
// conditionally. The defaults: a message goes on; nothing complete yet waits (Pending); a
// malformed message waits too (BidiStreamTask::next() already closed the session with it, and
// the closing session abandons the job); once the stream ended, however it ended, the task is
// done. The tags form a small hierarchy, so one handler can take several ends: on::Ended takes
// Fin, Reset and Closed; on::Failed takes Reset and Closed; the handler for the most specific
// tag wins.
//
// read_each() is the same for a task that reads every message there is: it calls next() until
// the read comes to something other than a message, each message's handler returning kGoOn to
// read on.
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

#include "model/async/executor.h"
#include "model/session/core/stream_input.h"

namespace moq::session::core {

namespace on {
struct Message {};
struct Pending {};
struct Malformed {};
struct Ended {};            // the stream ended, however
struct Fin : Ended {};      // the peer finished its half at a message boundary
struct Failed : Ended {};   // it ended abnormally (in.code())
struct Reset : Failed {};   // the peer reset its half
struct Closed : Failed {};  // the connection closed, or the stream was stopped locally
}  // namespace on

// What a task does next: nullopt to go on, else the result to return.
template <class R = Poll>
using Then = std::optional<R>;
inline constexpr std::nullopt_t kGoOn = std::nullopt;

namespace detail {

template <class... H>
struct Overloads : H... {
  using H::operator()...;
};

template <class R, class Tag, class Hs>
constexpr Then<R> end_of(Hs& handlers, Then<R> otherwise) {
  if constexpr (std::is_invocable_v<Hs&, Tag>) {
    return Then<R>(handlers(Tag{}));
  } else {
    // A result other than Poll has no defaults: the task names what each end means for it.
    static_assert(std::is_same_v<R, Poll> || std::is_same_v<Tag, on::Message>,
                  "on_read with a result other than Poll needs a handler for every end");
    return otherwise;
  }
}

template <class R, class Hs>
constexpr Then<R> dispatch(In in, Hs& handlers) {
  // Only Poll's defaults are ever returned (end_of's static_assert); for another R they are
  // placeholders that no instantiation reaches.
  constexpr auto kWait = [] {
    if constexpr (std::is_same_v<R, Poll>)
      return Then<R>(Poll::Pending);
    else
      return Then<R>();
  }();
  constexpr auto kDone = [] {
    if constexpr (std::is_same_v<R, Poll>)
      return Then<R>(Poll::Done);
    else
      return Then<R>();
  }();
  switch (in) {
    case In::Message:
      return end_of<R, on::Message>(handlers, kGoOn);
    case In::Pending:
      return end_of<R, on::Pending>(handlers, kWait);
    case In::Malformed:
      return end_of<R, on::Malformed>(handlers, kWait);
    case In::Fin:
      return end_of<R, on::Fin>(handlers, kDone);
    case In::Reset:
      return end_of<R, on::Reset>(handlers, kDone);
    case In::Closed:
      return end_of<R, on::Closed>(handlers, kDone);
  }
  return kDone;
}

}  // namespace detail

// What the task does with the read's result in (see the header comment).
template <class R = Poll, class... H>
constexpr Then<R> on_read(In in, H&&... handlers) {
  detail::Overloads<std::decay_t<H>...> hs{std::forward<H>(handlers)...};
  return detail::dispatch<R>(in, hs);
}

// Reads with next() (returning an In) until it comes to something other than a message, each
// going through on_read() with handlers: nullopt once the read is over and the task goes on.
template <class R = Poll, class Next, class... H>
Then<R> read_each(Next&& next, H&&... handlers) {
  detail::Overloads<std::decay_t<H>...> hs{std::forward<H>(handlers)...};
  for (;;) {
    const In in = next();
    if (Then<R> then = detail::dispatch<R>(in, hs)) return then;
    if (in != In::Message) return kGoOn;
  }
}

}  // namespace moq::session::core
