#include "model/async/executor.h"

#include "model/base/ref_count_probe.h"

namespace moq {

// The entry functions of the roles (role.h): every poll and every run_as passes through the one
// of its role, so a profiler that counts inside moq::role_entry::<role>(...) counts exactly the
// role's work. Out of line and with work after the call (the role is set back), so the compiler
// neither inlines them nor turns the call into a jump that a profiler would not see return.
namespace role_entry {

// The reference-count probe counts per role, in the bucket of the role's value; its last bucket
// is the harness's bookkeeping, which no role may share.
static_assert(kRoleCount <= ref_count_probe::kExcluded);
constexpr uint8_t kHarnessBucket = static_cast<uint8_t>(Role::kHarness);

#define MOQ_ROLE_ENTRY(name, role_value)                                       \
  [[gnu::noinline]] Poll name(Task& task, Role& current) {                     \
    current = role_value;                                                      \
    ref_count_probe::set_bucket(static_cast<uint8_t>(role_value));             \
    const Poll poll = task.poll();                                             \
    ref_count_probe::set_bucket(kHarnessBucket);                               \
    current = Role::kHarness;                                                  \
    return poll;                                                               \
  }                                                                            \
  [[gnu::noinline]] void name(void (*thunk)(void*), void* fn, Role& current) { \
    current = role_value;                                                      \
    ref_count_probe::set_bucket(static_cast<uint8_t>(role_value));             \
    thunk(fn);                                                                 \
    ref_count_probe::set_bucket(kHarnessBucket);                               \
    current = Role::kHarness;                                                  \
  }
MOQ_ROLE_ENTRY(harness, Role::kHarness)
MOQ_ROLE_ENTRY(publisher, Role::kPublisher)
MOQ_ROLE_ENTRY(relay, Role::kRelay)
MOQ_ROLE_ENTRY(viewer, Role::kViewer)
MOQ_ROLE_ENTRY(transport, Role::kTransport)
#undef MOQ_ROLE_ENTRY

// Indexed by Role, in the enum's order.
constexpr Poll (*kPollEntries[kRoleCount])(Task&, Role&) = {harness, publisher, relay, viewer,
                                                            transport};
constexpr void (*kCallEntries[kRoleCount])(void (*)(void*), void*, Role&) = {
    harness, publisher, relay, viewer, transport};

}  // namespace role_entry

WaitList::~WaitList() {
  while (Waiter* w = waiters_.pop_front())
    w->list_ = nullptr;
}

void WaitList::notify_all() {
  while (Waiter* w = waiters_.pop_front()) {
    w->list_ = nullptr;
    w->task_->wake();
  }
}

void WaitList::notify_one() {
  if (Waiter* w = waiters_.pop_front()) {
    w->list_ = nullptr;
    w->task_->wake();
  }
}

Waiter::Waiter(Task& task) : task_(&task) {
  task.waiters_.push_back(*this);
}

void Waiter::wait(WaitList& list) {
  if (list_ == &list) return;
  Link<WaitTag>::unlink();
  list_ = &list;
  list.waiters_.push_back(*this);
}

void Waiter::cancel() {
  Link<WaitTag>::unlink();
  list_ = nullptr;
}

void Timer::arm_at(uint64_t deadline_ns) {
  Executor& ex = task_->executor();
  if (armed()) ex.heap_remove(this);
  deadline_ = deadline_ns;
  seq_ = ex.timer_seq_++;
  ex.heap_push(this);
}

void Timer::arm_after(uint64_t delay_ns) {
  arm_at(task_->executor().now_ns() + delay_ns);
}

void Timer::cancel() {
  if (armed()) task_->executor().heap_remove(this);
}

Task::Task(Executor& executor, const char* name)
    : executor_(&executor), name_(name), role_(executor.role_) {
  executor.register_task(*this);
}

Task::~Task() {
  disarm_all();
}

void Task::wake() {
  if (!queued() && !done_) executor_->enqueue(*this);
}

void Task::disarm_all() {
  waiters_.for_each([](Waiter& w) { w.cancel(); });
  Link<ReadyTag>::unlink();
}

void Scope::adopt(Task& task) {
  task.scope_ = this;
  tasks_.push_back(task);
  task.wake();
}

void Scope::cancel(const Error& reason) {
  while (Task* t = tasks_.pop_front()) {
    t->scope_ = nullptr;
    t->on_cancel(reason);
    delete t;
  }
}

size_t Scope::size() const {
  size_t n = 0;
  tasks_.for_each([&](Task&) { ++n; });
  return n;
}

void Executor::call_as(Role role, void (*thunk)(void*), void* fn) {
  role_entry::kCallEntries[static_cast<size_t>(role)](thunk, fn, role_);
}

Executor::~Executor() {
  // Tasks outliving the executor must not touch it: detach the queues.
  ready_.clear();
  all_.clear();
  for (Timer* t : timers_)
    t->heap_index_ = Timer::kNotInHeap;
}

void Executor::finish(Task& t) {
  t.done_ = true;
  t.disarm_all();
  if (t.scope_) {
    IntrusiveList<Task, ScopeTag>::remove(t);
    t.scope_ = nullptr;
    delete &t;
  }
}

RunReport Executor::run_until_idle(uint64_t step_budget) {
  RunReport report;
  for (;;) {
    Task* t = ready_.pop_front();
    if (!t) {
      if (fire_due_timers()) continue;
      return report;
    }
    if (report.steps == step_budget) {
      ready_.push_back(*t);  // put it back: it is still runnable
      report.budget_exhausted = true;
      report.detail = describe_runnable();
      return report;
    }
    ++report.steps;
    ++polls_;
    if (role_entry::kPollEntries[static_cast<size_t>(t->role_)](*t, role_) == Poll::Done)
      finish(*t);
  }
}

RunReport Executor::advance_to(uint64_t t_ns, uint64_t step_budget) {
  RunReport total = run_until_idle(step_budget);
  while (!total.budget_exhausted && has_timers() && next_deadline() <= t_ns) {
    clock_->advance_to(next_deadline());
    RunReport r = run_until_idle(step_budget - total.steps);
    total.steps += r.steps;
    total.budget_exhausted = r.budget_exhausted;
    total.detail = std::move(r.detail);
  }
  if (!total.budget_exhausted) clock_->advance_to(t_ns);
  return total;
}

bool Executor::fire_due_timers() {
  bool fired = false;
  const uint64_t now = clock_->now_ns();
  while (!timers_.empty() && timers_[0]->deadline_ <= now) {
    Timer* t = timers_[0];
    heap_remove(t);
    t->task_->wake();
    fired = true;
  }
  return fired;
}

std::string Executor::describe_parked() const {
  std::string out;
  all_.for_each([&](Task& t) {
    if (t.queued() || t.done_) return;
    if (!out.empty()) out += "; ";
    out += "task '";
    out += t.name_;
    out += "' waits on: ";
    bool first = true;
    t.waiters_.for_each([&](Waiter& w) {
      if (!w.armed()) return;
      if (!first) out += ", ";
      out += w.list()->what();
      first = false;
    });
    if (first) out += "nothing (no waiter armed)";
  });
  return out.empty() ? "no live tasks" : out;
}

std::string Executor::describe_runnable() const {
  std::string out;
  ready_.for_each([&](Task& t) {
    if (!out.empty()) out += ", ";
    out += t.name_;
  });
  return out;
}

size_t Executor::live_tasks() const {
  size_t n = 0;
  all_.for_each([&](Task& t) { n += t.resting_ || t.done_ ? 0 : 1; });
  return n;
}

void Executor::heap_push(Timer* t) {
  t->heap_index_ = timers_.size();
  timers_.push_back(t);
  heap_sift_up(t->heap_index_);
}

void Executor::heap_remove(Timer* t) {
  const size_t i = t->heap_index_;
  Timer* last = timers_.back();
  timers_.pop_back();
  t->heap_index_ = Timer::kNotInHeap;
  if (last == t) return;
  timers_[i] = last;
  last->heap_index_ = i;
  heap_sift_up(i);
  heap_sift_down(last->heap_index_);
}

void Executor::heap_sift_up(size_t i) {
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!earlier(timers_[i], timers_[parent])) break;
    std::swap(timers_[i], timers_[parent]);
    timers_[i]->heap_index_ = i;
    timers_[parent]->heap_index_ = parent;
    i = parent;
  }
}

void Executor::heap_sift_down(size_t i) {
  for (;;) {
    size_t smallest = i;
    for (size_t c = 2 * i + 1; c <= 2 * i + 2 && c < timers_.size(); ++c) {
      if (earlier(timers_[c], timers_[smallest])) smallest = c;
    }
    if (smallest == i) return;
    std::swap(timers_[i], timers_[smallest]);
    timers_[i]->heap_index_ = i;
    timers_[smallest]->heap_index_ = smallest;
    i = smallest;
  }
}

}  // namespace moq
