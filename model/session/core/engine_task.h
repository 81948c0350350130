// EngineTask<S, Base>: a pooled task of an engine whose session type is S (LiteSession,
// IetfSession), on top of PooledTask or core::BidiTask; it only adds the typed session_.
#pragma once

#include "model/async/task_pool.h"

namespace moq::session::core {

template <class Session, class Base>
class EngineTask : public Base {
 protected:
  EngineTask(Session& session, TaskPoolBase& pool, const char* name)
      : Base(session, pool, name), session_(session) {}
  Session& session_;
};

}  // namespace moq::session::core
