#include "model/async/task_pool.h"

namespace moq {

PooledTask::PooledTask(TaskHost& host, TaskPoolBase& pool, const char* name)
    : Task(host.executor(), name), host_(&host), pool_(&pool), idle_(*this) {}

Poll PooledTask::poll() {
  if (idle()) return Poll::Pending;  // a wake that arrived before the job ended
  if (host_->stopped_) {
    abandon(*host_->stopped_);
    return Poll::Pending;
  }
  if (step() == Poll::Done) {
    clear();
    retire();
  }
  return Poll::Pending;
}

void PooledTask::abandon(const Error& reason) {
  if (idle()) return;
  on_abandon(reason);
  clear();
  retire();
}

void PooledTask::retire() {
  Link<ActiveTag>::unlink();
  pool_->park(*this);
}

TaskHost::~TaskHost() {
  // The owner abandons its jobs before its pools go; unlink what is left so no pool task points
  // into a dead list.
  active_.clear();
}

void TaskHost::stop(const Error& reason) {
  if (stopped_) return;
  stopped_ = reason;
  active_.for_each([](PooledTask& t) { t.wake(); });
}

void TaskHost::abandon_all(const Error& reason) {
  while (PooledTask* t = active_.front())
    t->abandon(reason);
}

PooledTask* TaskPoolBase::reuse() {
  if (free_.empty()) return nullptr;
  PooledTask* t = free_.back();
  free_.pop_back();
  t->idle_.cancel();
  t->resting_ = false;
  host_.active_.push_back(*t);
  return t;
}

PooledTask& TaskPoolBase::adopt(std::unique_ptr<PooledTask> task) {
  PooledTask& t = *task;
  owned_.push_back(std::move(task));
  host_.active_.push_back(t);
  return t;
}

void TaskPoolBase::park(PooledTask& task) {
  free_.push_back(&task);
  task.resting_ = true;
  task.idle_.wait(idle_list_);
}

}  // namespace moq
