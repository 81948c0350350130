// The two kinds of pooled task the moq-transport engine runs: a task on a bidirectional request
// stream (a request we send or one we answer: core::BidiStreamTask) and a task on a
// unidirectional stream. Both know their IetfSession.
#pragma once

#include "model/async/task_pool.h"
#include "model/session/core/bidi_stream_task.h"
#include "model/session/core/engine_task.h"
#include "model/session/core/on_read.h"
#include "model/wire/ietf/control.h"

namespace moq::session::ietf {

namespace w = ::moq::wire::ietf;

class IetfSession;

using BidiTask = core::EngineTask<IetfSession, core::BidiStreamTask>;
using UniTask = core::EngineTask<IetfSession, PooledTask>;

// A control message's name in draft v, for core::dispatch() and errors.
template <class M>
const char* message_name(const M&, w::IetfVersion v) {
  const char* name = w::message_type_name(w::wire_type(M::kType, v), v);
  return name ? name : "message";
}

}  // namespace moq::session::ietf
