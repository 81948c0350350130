#include "model/session/lite/task.h"

#include "model/session/lite/lite_session.h"

namespace moq::session::lite {

SessionTask::SessionTask(LiteSession& session, TaskPoolBase& pool, const char* name)
    : Task(session.executor(), name), session_(session), pool_(&pool), idle_(*this) {}

Poll SessionTask::poll() {
  if (idle_.armed()) return Poll::Pending;  // a wake that arrived before it retired
  if (session_.is_closed()) {
    abandon(session_.close_reason());
    return Poll::Pending;
  }
  if (step() == Poll::Done) {
    clear();
    retire();
  }
  return Poll::Pending;
}

void SessionTask::abandon(const Error& reason) {
  if (idle()) return;
  on_abandon(reason);
  clear();
  retire();
}

void SessionTask::retire() {
  Link<ActiveTag>::unlink();
  pool_->park(*this);
}

SessionTask* TaskPoolBase::reuse() {
  if (free_.empty()) return nullptr;
  SessionTask* t = free_.back();
  free_.pop_back();
  t->idle_.cancel();
  t->session_.active_tasks().push_back(*t);
  return t;
}

SessionTask& TaskPoolBase::adopt(std::unique_ptr<SessionTask> task) {
  SessionTask& t = *task;
  owned_.push_back(std::move(task));
  t.session_.active_tasks().push_back(t);
  return t;
}

void TaskPoolBase::park(SessionTask& task) {
  free_.push_back(&task);
  task.idle_.wait(idle_list_);
}

}  // namespace moq::session::lite
