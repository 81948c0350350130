// The single-threaded deterministic runtime (ARCHITECTURE.md, "The runtime").
//
// - A Task is an object with a poll() step. poll() does all the work it can, arms Waiters on the
//   wait lists of the conditions it still needs, and returns Pending; or it returns Done.
// - WaitList::notify_*() only enqueues tasks on the executor's FIFO ready queue; it never runs
//   user code inline. A Waiter is a node inside the waiting object: arming allocates nothing and
//   destruction unlinks in O(1).
// - Timers sit in a heap keyed by (deadline, insertion number): ties break the same way every run.
// - Tasks spawned through a Scope are owned by it; destroying or cancelling the Scope cancels
//   them with a reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/async/clock.h"
#include "model/async/list.h"
#include "model/async/role.h"
#include "model/base/result.h"

namespace moq {

class Executor;
class Scope;
class Task;
class Waiter;

struct ReadyTag;
struct AllTasksTag;
struct ScopeTag;
struct WaitTag;
struct TaskWaitersTag;

enum class Poll : uint8_t { Pending, Done };

// A condition that tasks wait on: "stream readable", "group has new frames", "closed".
class WaitList {
 public:
  explicit WaitList(const char* what = "condition") : what_(what) {}
  WaitList(const WaitList&) = delete;
  WaitList& operator=(const WaitList&) = delete;
  ~WaitList();  // unlinks waiters without waking them

  // Unlinks every waiter and enqueues its task.
  void notify_all();
  // Unlinks the first waiter (FIFO) and enqueues its task.
  void notify_one();
  bool empty() const { return waiters_.empty(); }
  const char* what() const { return what_; }

 private:
  friend class Waiter;
  IntrusiveList<Waiter, WaitTag> waiters_;
  const char* what_;
};

// One waiting slot of a task. A task waiting on two conditions holds two Waiters.
class Waiter : public Link<WaitTag>, public Link<TaskWaitersTag> {
 public:
  explicit Waiter(Task& task);
  Waiter(const Waiter&) = delete;
  Waiter& operator=(const Waiter&) = delete;
  ~Waiter() = default;  // Link destructors unlink from the wait list and the task

  // Links onto list (moving from any list it was on). The task is enqueued at the next notify.
  void wait(WaitList& list);
  void cancel();
  bool armed() const { return list_ != nullptr; }
  const WaitList* list() const { return list_; }

 private:
  friend class WaitList;
  Task* task_;
  WaitList* list_ = nullptr;
};

// A one-shot deadline of a task; re-arm it to move it.
class Timer {
 public:
  explicit Timer(Task& task) : task_(&task) {}
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  ~Timer() { cancel(); }

  void arm_at(uint64_t deadline_ns);
  void arm_after(uint64_t delay_ns);
  void cancel();
  bool armed() const { return heap_index_ != kNotInHeap; }
  uint64_t deadline() const { return deadline_; }

 private:
  friend class Executor;
  static constexpr size_t kNotInHeap = SIZE_MAX;
  Task* task_;
  uint64_t deadline_ = 0;
  uint64_t seq_ = 0;
  size_t heap_index_ = kNotInHeap;
};

class Task : public Link<ReadyTag>, public Link<AllTasksTag>, public Link<ScopeTag> {
 public:
  Task(Executor& executor, const char* name);
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  virtual ~Task();

  // One step: move everything available, then arm waiters and return Pending, or return Done.
  virtual Poll poll() = 0;
  // Called when the owning Scope cancels the task, before it is destroyed.
  virtual void on_cancel(const Error& /*reason*/) {}

  // Enqueues the task on the ready queue if it is not queued already.
  void wake();
  const char* name() const { return name_; }
  Executor& executor() const { return *executor_; }
  bool queued() const { return Link<ReadyTag>::linked(); }
  bool done() const { return done_; }
  // The role it works for: that of the code that created it (role.h).
  Role role() const { return role_; }

 protected:
  // A pooled task between jobs (model/async/task_pool.h): not counted by live_tasks().
  bool resting_ = false;

 private:
  friend class Executor;
  friend class Waiter;
  friend class Scope;
  void disarm_all();

  Executor* executor_;
  const char* name_;
  Scope* scope_ = nullptr;
  bool done_ = false;
  Role role_;
  IntrusiveList<Waiter, TaskWaitersTag> waiters_;
};

// Owns tasks: deletes each when it finishes, and cancels (then deletes) those still alive when
// the scope is cancelled or destroyed.
class Scope {
 public:
  explicit Scope(const char* name = "scope") : name_(name) {}
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  ~Scope() { cancel(Error{0, std::string(name_) + " dropped"}); }

  // Constructs T(args...) (a Task), takes ownership, and wakes it for its first poll.
  template <class T, class... Args>
  T& spawn(Args&&... args) {
    T* t = new T(std::forward<Args>(args)...);
    adopt(*t);
    return *t;
  }
  void adopt(Task& task);
  void cancel(const Error& reason);
  bool empty() const { return tasks_.empty(); }
  size_t size() const;

 private:
  friend class Executor;
  IntrusiveList<Task, ScopeTag> tasks_;
  const char* name_;
};

// What run_until_idle found.
struct RunReport {
  uint64_t steps = 0;             // polls performed
  bool budget_exhausted = false;  // stopped with tasks still runnable
  std::string detail;             // when exhausted: the runnable tasks
};

class Executor {
 public:
  explicit Executor(Clock& clock) : clock_(&clock) {}
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  ~Executor();

  Clock& clock() const { return *clock_; }
  uint64_t now_ns() const { return clock_->now_ns(); }

  // Polls ready tasks in FIFO order and fires timers that are due at the current time, until
  // nothing is runnable or step_budget polls ran. Never moves the clock.
  RunReport run_until_idle(uint64_t step_budget = 10'000'000);
  // Runs until done() holds. Idle without done() is a deadlock; with a virtual clock, pending
  // timers are fired by advancing time before declaring one. The error names every parked task
  // and what it waits on; an exhausted budget names the runnable tasks.
  template <class Pred>
  Status run_until(Pred&& done, uint64_t step_budget = 10'000'000);
  // Advances a virtual clock to t (firing timers in deadline order on the way), running tasks.
  RunReport advance_to(uint64_t t_ns, uint64_t step_budget = 10'000'000);

  // "task 'x' waits on: a, b; ..." for every live task that is not runnable.
  std::string describe_parked() const;
  std::string describe_runnable() const;
  // Tasks that have not finished and are not resting in a pool between jobs.
  size_t live_tasks() const;
  bool has_timers() const { return !timers_.empty(); }
  uint64_t next_deadline() const { return timers_.empty() ? UINT64_MAX : timers_[0]->deadline_; }
  // Total polls since construction (a per-round cost figure for the harness).
  uint64_t polls() const { return polls_; }

  // The role of the code running now: the polled task's, or run_as's; kHarness otherwise.
  Role role() const { return role_; }
  // Runs f() now as code of `role`, through the role's entry function, so its cost and the
  // tasks it creates are the role's, and returns what f returned. Inside code of a role other
  // than the harness, f runs in that role (entry functions never nest, so a profiler's toggles
  // stay paired). f must not run the executor.
  template <class F>
  std::invoke_result_t<F&> run_as(Role role, F&& f) {
    using R = std::invoke_result_t<F&>;
    if (role == Role::kHarness || role_ != Role::kHarness) return f();
    if constexpr (std::is_void_v<R>) {
      call_as(
          role, [](void* fn) { (*static_cast<std::remove_reference_t<F>*>(fn))(); }, &f);
    } else {
      struct Call {
        std::remove_reference_t<F>* f;
        std::optional<R> result;
      } call{&f, std::nullopt};
      call_as(
          role,
          [](void* c) { static_cast<Call*>(c)->result.emplace((*static_cast<Call*>(c)->f)()); },
          &call);
      return std::move(*call.result);
    }
  }

 private:
  friend class Task;
  friend class Timer;
  void call_as(Role role, void (*thunk)(void*), void* fn);
  void enqueue(Task& t) { ready_.push_back(t); }
  void register_task(Task& t) { all_.push_back(t); }
  void finish(Task& t);
  bool fire_due_timers();
  void heap_push(Timer* t);
  void heap_remove(Timer* t);
  void heap_sift_up(size_t i);
  void heap_sift_down(size_t i);
  static bool earlier(const Timer* a, const Timer* b) {
    return a->deadline_ != b->deadline_ ? a->deadline_ < b->deadline_ : a->seq_ < b->seq_;
  }

  Clock* clock_;
  IntrusiveList<Task, ReadyTag> ready_;
  IntrusiveList<Task, AllTasksTag> all_;
  std::vector<Timer*> timers_;  // binary min-heap
  uint64_t timer_seq_ = 0;
  uint64_t polls_ = 0;
  Role role_ = Role::kHarness;
};

template <class Pred>
Status Executor::run_until(Pred&& done, uint64_t step_budget) {
  uint64_t used = 0;
  while (!done()) {
    RunReport r = run_until_idle(step_budget - used);
    used += r.steps;
    if (done()) break;
    if (r.budget_exhausted) {
      return Error{
          0, "step budget of " + std::to_string(step_budget) + " exhausted; runnable: " + r.detail};
    }
    if (has_timers() && clock_->advance_to(next_deadline())) continue;
    return Error{
        0, "deadlock: nothing runnable and the condition is not met; parked: " + describe_parked()};
  }
  return {};
}

}  // namespace moq
