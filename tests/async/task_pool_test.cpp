// Pooled tasks: a job that ends parks its task for the next job (no new task, buffers kept), a
// stopped host abandons active jobs at their next poll, and abandon_all() ends them at once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/async/task_pool.h"
#include "sim/clock.h"

namespace moq {
namespace {

struct Host : TaskHost {
  explicit Host(Executor& ex) : TaskHost(ex) {}
  std::vector<std::string> log;
};

// A job: counts `steps` polls (waiting on a list between them), then ends.
class CountingTask final : public PooledTask {
 public:
  CountingTask(Host& host, TaskPoolBase& pool)
      : PooledTask(host, pool, "counting task"), host_(host) {}
  void start(std::string name, int steps, WaitList& list) {
    name_ = std::move(name);
    left_ = steps;
    list_ = &list;
    buffer_.reserve(64);
    wake();
  }
  size_t buffer_capacity() const { return buffer_.capacity(); }

 protected:
  Poll step() override {
    host_.log.push_back(name_ + " step");
    if (--left_ <= 0) return Poll::Done;
    waiter_.wait(*list_);
    return Poll::Pending;
  }
  void on_abandon(const Error& reason) override {
    host_.log.push_back(name_ + " abandoned: " + reason.message);
  }
  void clear() override {
    host_.log.push_back(name_ + " cleared");
    name_.clear();
    buffer_.clear();  // keeps capacity
    waiter_.cancel();
  }

 private:
  Host& host_;
  std::string name_;
  int left_ = 0;
  WaitList* list_ = nullptr;
  std::vector<int> buffer_;
  Waiter waiter_{*this};
};

struct World {
  sim::VirtualClock clock;
  Executor executor{clock};
  Host host{executor};
  TaskPool<CountingTask, Host> pool{host};
  WaitList list{"test condition"};
};

TEST(TaskPool, AFinishedJobParksItsTaskForTheNextJob) {
  World w;
  CountingTask& a = w.pool.acquire();
  a.start("a", 2, w.list);
  w.executor.run_until_idle();
  EXPECT_FALSE(a.idle());
  w.list.notify_all();
  w.executor.run_until_idle();
  EXPECT_TRUE(a.idle());
  EXPECT_EQ(w.pool.size(), 1u);
  EXPECT_EQ(w.pool.idle(), 1u);
  EXPECT_FALSE(w.host.has_active());
  EXPECT_NE(w.executor.describe_parked().find("idle in a task pool"), std::string::npos);

  CountingTask& b = w.pool.acquire();  // the same task, its buffer capacity kept
  EXPECT_EQ(&a, &b);
  EXPECT_GE(b.buffer_capacity(), 64u);
  b.start("b", 1, w.list);
  w.executor.run_until_idle();
  EXPECT_EQ(w.pool.size(), 1u);
  EXPECT_EQ(w.host.log,
            (std::vector<std::string>{"a step", "a step", "a cleared", "b step", "b cleared"}));
}

TEST(TaskPool, StoppingTheHostAbandonsActiveJobsAtTheirNextPoll) {
  World w;
  w.pool.acquire().start("a", 5, w.list);
  w.pool.acquire().start("b", 5, w.list);
  w.executor.run_until_idle();
  EXPECT_EQ(w.pool.size(), 2u);
  w.host.stop(Error{3, "closed"});
  w.host.stop(Error{4, "again"});  // only the first stop counts
  w.executor.run_until_idle();
  EXPECT_FALSE(w.host.has_active());
  EXPECT_EQ(w.pool.idle(), 2u);
  EXPECT_EQ(w.host.log,
            (std::vector<std::string>{"a step", "b step", "a abandoned: closed", "a cleared",
                                      "b abandoned: closed", "b cleared"}));
  // A job started after the stop ends at its first poll.
  w.host.log.clear();
  w.pool.acquire().start("c", 5, w.list);
  w.executor.run_until_idle();
  EXPECT_EQ(w.host.log, (std::vector<std::string>{"c abandoned: closed", "c cleared"}));
}

TEST(TaskPool, AbandonAllEndsEveryJobAtOnce) {
  World w;
  w.pool.acquire().start("a", 5, w.list);
  w.executor.run_until_idle();
  w.host.abandon_all(Error{0, "owner gone"});
  EXPECT_FALSE(w.host.has_active());
  EXPECT_EQ(w.host.log.back(), "a cleared");
  w.list.notify_all();  // a stale wake does not run the parked task
  w.executor.run_until_idle();
  EXPECT_EQ(w.host.log.size(), 3u);
}

}  // namespace
}  // namespace moq
