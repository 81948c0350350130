// Pooled tasks: tasks that serve one job after another and are never destroyed between jobs, so
// a steady state of requests and streams allocates no task object, no chain and no string.
//
// A Task that finished cannot run again. A PooledTask whose job ends therefore does not finish:
// it clears the job (drops its handles, keeps its buffers' capacity) and parks on its pool's
// idle list until acquire() hands it the next job. Executor::describe_parked() shows a parked
// task as waiting on "idle in a task pool".
//
// Pools belong to a TaskHost (a session): the host lists the active jobs of all its pools. When
// the host stops (the session closes), every active job is abandoned at its next poll with the
// host's reason: it ends what it produces with that error and retires. Destroying the host
// abandons whatever is still active directly (no task runs then), and then the pools, which own
// the tasks, free them.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "model/async/executor.h"
#include "model/async/list.h"
#include "model/base/result.h"

namespace moq {

class TaskHost;
class TaskPoolBase;
struct ActiveTag;

class PooledTask : public Task, public Link<ActiveTag> {
 public:
  PooledTask(TaskHost& host, TaskPoolBase& pool, const char* name);

  Poll poll() final;
  // Ends the job in progress with reason (what it produces sees it), drops every handle and
  // parks the task for reuse. Never called from inside the task's own step().
  void abandon(const Error& reason);
  bool idle() const { return idle_.armed(); }

 protected:
  // One step of the job. Done: the job is over (its handles dropped or droppable) and the task
  // retires; Pending: waiters are armed (or the task was woken already).
  virtual Poll step() = 0;
  // Ends whatever the job still produces with reason. Default: nothing to end.
  virtual void on_abandon(const Error& /*reason*/) {}
  // Drops handles and resets state for the next job, keeping buffer capacity.
  virtual void clear() = 0;

 private:
  friend class TaskPoolBase;
  void retire();

  TaskHost* host_;
  TaskPoolBase* pool_;
  Waiter idle_;
};

class TaskHost {
 public:
  explicit TaskHost(Executor& executor) : executor_(executor) {}
  TaskHost(const TaskHost&) = delete;
  TaskHost& operator=(const TaskHost&) = delete;
  ~TaskHost();

  Executor& executor() const { return executor_; }
  // Every active job is abandoned with reason at its next poll (they are woken), and so is any
  // job started later. Only the first call counts.
  void stop(const Error& reason);
  const std::optional<Error>& stopped() const { return stopped_; }
  // Abandons every active job now; for the owner's destructor (no task of the host runs then).
  void abandon_all(const Error& reason);
  bool has_active() const { return !active_.empty(); }

 private:
  friend class PooledTask;
  friend class TaskPoolBase;
  Executor& executor_;
  IntrusiveList<PooledTask, ActiveTag> active_;
  std::optional<Error> stopped_;
};

// Owns the tasks of one kind and reuses them.
class TaskPoolBase {
 public:
  explicit TaskPoolBase(TaskHost& host) : host_(host) {}
  TaskPoolBase(const TaskPoolBase&) = delete;
  TaskPoolBase& operator=(const TaskPoolBase&) = delete;

  // Tasks created so far, and how many of them are parked (for tests and leak checks).
  size_t size() const { return owned_.size(); }
  size_t idle() const { return free_.size(); }
  TaskHost& host() const { return host_; }

 protected:
  // A parked task made active again, or null.
  PooledTask* reuse();
  PooledTask& adopt(std::unique_ptr<PooledTask> task);

 private:
  friend class PooledTask;
  void park(PooledTask& task);

  TaskHost& host_;
  std::vector<std::unique_ptr<PooledTask>> owned_;
  std::vector<PooledTask*> free_;
  WaitList idle_list_{"idle in a task pool"};
};

// A pool of T, made as T(owner, pool) when none is parked. The caller gives the task its job
// (its own start(...), which wakes it).
template <class T, class Owner>
class TaskPool : public TaskPoolBase {
 public:
  explicit TaskPool(Owner& owner) : TaskPoolBase(owner), owner_(owner) {}
  T& acquire() {
    if (PooledTask* t = reuse()) return static_cast<T&>(*t);
    return static_cast<T&>(adopt(std::make_unique<T>(owner_, *this)));
  }

 private:
  Owner& owner_;
};

}  // namespace moq
