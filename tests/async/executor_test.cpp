#include "model/async/executor.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/clock.h"

namespace moq {
namespace {

// A channel of ints with one wait list for readers.
struct Channel {
  std::vector<int> items;
  WaitList readable{"channel readable"};
  void send(int v) {
    items.push_back(v);
    readable.notify_all();
  }
};

// Reads n items from a channel, recording each in the trace.
class Reader : public Task {
 public:
  Reader(Executor& ex, const char* name, Channel& ch, int n, std::vector<std::string>& trace)
      : Task(ex, name), ch_(ch), left_(n), trace_(trace), waiter_(*this) {}
  Poll poll() override {
    while (left_ > 0 && next_ < ch_.items.size()) {
      trace_.push_back(std::string(name()) + ":" + std::to_string(ch_.items[next_++]));
      --left_;
    }
    if (left_ == 0) return Poll::Done;
    waiter_.wait(ch_.readable);
    return Poll::Pending;
  }

 private:
  Channel& ch_;
  size_t next_ = 0;
  int left_;
  std::vector<std::string>& trace_;
  Waiter waiter_;
};

// Sends one item at each of the given times.
class TimedWriter : public Task {
 public:
  TimedWriter(Executor& ex, Channel& ch, std::vector<uint64_t> times,
              std::vector<std::string>& trace)
      : Task(ex, "writer"), ch_(ch), times_(std::move(times)), trace_(trace), timer_(*this) {}
  Poll poll() override {
    while (next_ < times_.size() && times_[next_] <= executor().now_ns()) {
      trace_.push_back("t=" + std::to_string(executor().now_ns()) + " send " +
                       std::to_string(next_));
      ch_.send(static_cast<int>(next_++));
    }
    if (next_ == times_.size()) return Poll::Done;
    timer_.arm_at(times_[next_]);
    return Poll::Pending;
  }

 private:
  Channel& ch_;
  std::vector<uint64_t> times_;
  size_t next_ = 0;
  std::vector<std::string>& trace_;
  Timer timer_;
};

std::vector<std::string> run_scripted_scenario() {
  sim::VirtualClock clock;
  Executor ex(clock);
  Scope scope("test");
  Channel ch;
  std::vector<std::string> trace;
  scope.spawn<Reader>(ex, "r1", ch, 3, trace);
  scope.spawn<Reader>(ex, "r2", ch, 2, trace);
  scope.spawn<TimedWriter>(ex, ch, std::vector<uint64_t>{10, 10, 30}, trace);
  Status s = ex.run_until([&] { return scope.empty(); });
  EXPECT_TRUE(s.ok()) << s.error().message;
  return trace;
}

TEST(Executor, SameScenarioGivesIdenticalTrace) {
  auto a = run_scripted_scenario();
  auto b = run_scripted_scenario();
  EXPECT_EQ(a, b);
  // FIFO order: both readers woken by the same send run in the order they parked.
  std::vector<std::string> expected = {"t=10 send 0", "t=10 send 1", "r1:0",        "r1:1",
                                       "r2:0",        "r2:1",        "t=30 send 2", "r1:2"};
  EXPECT_EQ(a, expected);
}

class Recorder : public Task {
 public:
  Recorder(Executor& ex, const char* name, std::vector<std::string>& out, uint64_t deadline)
      : Task(ex, name), out_(out), timer_(*this), deadline_(deadline) {}
  Poll poll() override {
    if (!armed_) {
      armed_ = true;
      timer_.arm_at(deadline_);
      return Poll::Pending;
    }
    out_.push_back(name());
    return Poll::Done;
  }

 private:
  std::vector<std::string>& out_;
  Timer timer_;
  uint64_t deadline_;
  bool armed_ = false;
};

TEST(Executor, TimerTiesBreakByArmingOrder) {
  sim::VirtualClock clock;
  Executor ex(clock);
  Scope scope;
  std::vector<std::string> order;
  scope.spawn<Recorder>(ex, "c", order, 50);
  scope.spawn<Recorder>(ex, "a", order, 20);
  scope.spawn<Recorder>(ex, "b", order, 50);
  scope.spawn<Recorder>(ex, "d", order, 20);
  ASSERT_TRUE(ex.run_until([&] { return scope.empty(); }).ok());
  EXPECT_EQ(order, (std::vector<std::string>{"a", "d", "c", "b"}));
  EXPECT_EQ(clock.now_ns(), 50u);
}

TEST(Executor, DeadlockReportNamesParkedTasksAndConditions) {
  sim::VirtualClock clock;
  Executor ex(clock);
  Scope scope;
  Channel ch;
  std::vector<std::string> trace;
  scope.spawn<Reader>(ex, "stuck-reader", ch, 1, trace);
  Status s = ex.run_until([&] { return scope.empty(); });
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("deadlock"), std::string::npos);
  EXPECT_NE(s.error().message.find("task 'stuck-reader' waits on: channel readable"),
            std::string::npos)
      << s.error().message;
}

// Wakes itself forever: never settles.
class Spinner : public Task {
 public:
  explicit Spinner(Executor& ex) : Task(ex, "spinner") {}
  Poll poll() override {
    wake();
    return Poll::Pending;
  }
};

TEST(Executor, StepBudgetReportsRunnableTasks) {
  sim::VirtualClock clock;
  Executor ex(clock);
  Scope scope;
  scope.spawn<Spinner>(ex);
  RunReport r = ex.run_until_idle(100);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_EQ(r.steps, 100u);
  EXPECT_EQ(r.detail, "spinner");
  Status s = ex.run_until([] { return false; }, 50);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("step budget of 50 exhausted; runnable: spinner"),
            std::string::npos);
}

class CancelProbe : public Task {
 public:
  CancelProbe(Executor& ex, std::string& reason, WaitList& never)
      : Task(ex, "probe"), reason_(reason), waiter_(*this), never_(never) {}
  Poll poll() override {
    waiter_.wait(never_);
    return Poll::Pending;
  }
  void on_cancel(const Error& why) override { reason_ = why.message; }

 private:
  std::string& reason_;
  Waiter waiter_;
  WaitList& never_;
};

TEST(Scope, CancelsChildrenWithAReasonAndUnlinksWaiters) {
  sim::VirtualClock clock;
  Executor ex(clock);
  WaitList never("never");
  std::string reason;
  {
    Scope scope("session");
    scope.spawn<CancelProbe>(ex, reason, never);
    (void)ex.run_until_idle();
    EXPECT_FALSE(never.empty());
    EXPECT_EQ(ex.live_tasks(), 1u);
  }
  EXPECT_EQ(reason, "session dropped");
  EXPECT_TRUE(never.empty());  // the waiter unlinked itself in O(1)
  EXPECT_EQ(ex.live_tasks(), 0u);
  never.notify_all();  // nothing left to wake
  EXPECT_EQ(ex.run_until_idle().steps, 0u);
}

TEST(Scope, ExplicitCancelCarriesTheGivenReason) {
  sim::VirtualClock clock;
  Executor ex(clock);
  WaitList never("never");
  std::string reason;
  Scope scope;
  scope.spawn<CancelProbe>(ex, reason, never);
  scope.cancel(Error{7, "connection closed"});
  EXPECT_EQ(reason, "connection closed");
  EXPECT_TRUE(scope.empty());
}

TEST(WaitList, NotifyOneWakesInFifoOrder) {
  sim::VirtualClock clock;
  Executor ex(clock);
  Scope scope;
  Channel ch;
  std::vector<std::string> trace;
  scope.spawn<Reader>(ex, "first", ch, 1, trace);
  scope.spawn<Reader>(ex, "second", ch, 1, trace);
  (void)ex.run_until_idle();
  ch.items.push_back(1);
  ch.readable.notify_one();
  (void)ex.run_until_idle();
  EXPECT_EQ(trace, (std::vector<std::string>{"first:1"}));
  EXPECT_EQ(scope.size(), 1u);
}

}  // namespace
}  // namespace moq

namespace moq {
namespace {

// Records the executor's role each time it is polled, and spawns a child on its first poll.
class RoleProbe : public Task {
 public:
  RoleProbe(Executor& ex, Scope& scope, std::vector<Role>& seen, bool spawn)
      : Task(ex, "role probe"), scope_(scope), seen_(seen), spawn_(spawn) {}
  Poll poll() override {
    seen_.push_back(executor().role());
    if (spawn_) scope_.spawn<RoleProbe>(executor(), scope_, seen_, false);
    return Poll::Done;
  }

 private:
  Scope& scope_;
  std::vector<Role>& seen_;
  bool spawn_;
};

TEST(Roles, ATaskKeepsTheRoleOfTheCodeThatCreatedItAndPollsInIt) {
  sim::VirtualClock clock;
  Executor ex(clock);
  Scope scope;
  std::vector<Role> seen;
  EXPECT_EQ(ex.role(), Role::kHarness);
  RoleProbe* relay_task = ex.run_as(Role::kRelay, [&] {
    EXPECT_EQ(ex.role(), Role::kRelay);
    // Inside a role, run_as of another role stays in the outer one: entries never nest.
    ex.run_as(Role::kViewer, [&] { EXPECT_EQ(ex.role(), Role::kRelay); });
    return &scope.spawn<RoleProbe>(ex, scope, seen, true);
  });
  EXPECT_EQ(ex.role(), Role::kHarness) << "run_as sets the role back";
  EXPECT_EQ(relay_task->role(), Role::kRelay);
  scope.spawn<RoleProbe>(ex, scope, seen, false);  // made by the harness
  ex.run_until_idle();
  // The relay's task, the harness's, then the child the relay's task made: the relay's.
  EXPECT_EQ(seen, (std::vector<Role>{Role::kRelay, Role::kHarness, Role::kRelay}));
  EXPECT_EQ(ex.role(), Role::kHarness);
  EXPECT_EQ(role_name(Role::kTransport), "transport");
}

}  // namespace
}  // namespace moq
