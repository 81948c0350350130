// The tasks a moq-lite session runs, and the pools that reuse them.
//
// Every request, served or sent, and every group stream is one SessionTask: a small state
// machine (model/async Task) that moves everything available in one poll and then waits. Tasks
// are pooled per kind: when a job ends the task does not finish (a finished Task cannot run
// again) but retires to its pool, parked on the pool's idle list, keeping the capacity of its
// buffers and strings. Steady-state requests therefore allocate no task, no chain and no string.
//
// Closing. When the session closes it wakes every active task; a task polled on a closed session
// abandons its job (ends what it produces with the session's error, drops its streams) and
// retires. The session's destructor abandons the active tasks directly, then frees the pools.
#pragma once

#include <memory>
#include <vector>

#include "model/async/executor.h"
#include "model/async/list.h"
#include "model/base/result.h"

namespace moq::session::lite {

class LiteSession;
class TaskPoolBase;
struct ActiveTag;

class SessionTask : public Task, public Link<ActiveTag> {
 public:
  SessionTask(LiteSession& session, TaskPoolBase& pool, const char* name);

  Poll poll() final;
  // Ends the job in progress with reason (consumers see it), drops every handle and leaves the
  // task ready for reuse. Never called while the task's own step() runs.
  void abandon(const Error& reason);
  bool idle() const { return idle_.armed(); }

 protected:
  // One step of the job. Done: the job is over (its handles dropped or droppable); the task
  // retires. Pending: waiters are armed (or the task was woken already).
  virtual Poll step() = 0;
  // Ends whatever the job still produces with reason. Default: nothing to end.
  virtual void on_abandon(const Error& /*reason*/) {}
  // Drops handles and clears state for the next job, keeping buffer capacity.
  virtual void clear() = 0;

  LiteSession& session_;

 private:
  friend class TaskPoolBase;
  void retire();

  TaskPoolBase* pool_;
  Waiter idle_;
};

// Owns tasks of one kind and reuses them.
class TaskPoolBase {
 public:
  TaskPoolBase() = default;
  TaskPoolBase(const TaskPoolBase&) = delete;
  TaskPoolBase& operator=(const TaskPoolBase&) = delete;

  // Tasks created so far (for tests and leak checks).
  size_t size() const { return owned_.size(); }
  size_t idle() const { return free_.size(); }

 protected:
  friend class SessionTask;
  // A retired task to reuse, or null.
  SessionTask* reuse();
  SessionTask& adopt(std::unique_ptr<SessionTask> task);
  void park(SessionTask& task);

  std::vector<std::unique_ptr<SessionTask>> owned_;
  std::vector<SessionTask*> free_;
  WaitList idle_list_{"idle in the session's task pool"};
};

template <class T>
class TaskPool : public TaskPoolBase {
 public:
  // A task ready for a new job: set it up (its start()), then call launch(session, task).
  T& acquire(LiteSession& session) {
    if (SessionTask* t = reuse()) return static_cast<T&>(*t);
    return static_cast<T&>(adopt(std::make_unique<T>(session, *this)));
  }
};

}  // namespace moq::session::lite
