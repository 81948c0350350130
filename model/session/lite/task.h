// The two kinds of pooled task the lite engine runs: a task on a bidirectional request stream
// (a request we send or one we answer: core::BidiStreamTask) and a task on a unidirectional stream.
// Both know their LiteSession.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "model/async/task_pool.h"
#include "model/session/core/bidi_stream_task.h"
#include "model/session/core/engine_task.h"
#include "model/session/core/on_read.h"
#include "model/wire/lite/version.h"

namespace moq::session::lite {

class LiteSession;

using BidiTask = core::EngineTask<LiteSession, core::BidiStreamTask>;
using UniTask = core::EngineTask<LiteSession, PooledTask>;

// The decoder BidiTask::next() takes for lite message M under version v.
template <class M>
auto decoder_of(wire::lite::LiteVersion v) {
  return [v](std::span<const uint8_t> in) { return M::decode(in, v); };
}

// A lite message's name, for core::dispatch().
inline const char* message_name(const auto& m) {
  return std::decay_t<decltype(m)>::kName;
}

}  // namespace moq::session::lite
