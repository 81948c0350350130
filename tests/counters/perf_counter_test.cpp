// The perf backend's plumbing, checked with software events (these machines have no PMU), and
// its "no PMU" error, which must send the user to the callgrind backend.
#include "harness/counters/perf_counter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace moq::counters {
namespace {

using ::testing::HasSubstr;

volatile uint64_t sink;

void spin(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    sink = sink + i;
}

// Opens a software event; skips (saying why) only where the kernel forbids perf_event_open
// altogether, as a container's seccomp profile may.
std::unique_ptr<PerfCounter> open_or_skip(const std::string& event, std::string* skip) {
  Result<std::unique_ptr<PerfCounter>> c = PerfCounter::open(PerfOptions{event, std::nullopt});
  if (c) return std::move(*c);
  const uint64_t err = c.error().code;
  if (err == EACCES || err == EPERM || err == ENOSYS) {
    *skip = "perf_event_open is forbidden here: " + c.error().message;
    return nullptr;
  }
  ADD_FAILURE() << c.error().message;
  return nullptr;
}

// `var` is the name the macro declares, which cannot take parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define OPEN_OR_SKIP(var, event)                       \
  std::string skip_##var;                              \
  auto var = open_or_skip(event, &skip_##var);         \
  if (!skip_##var.empty()) GTEST_SKIP() << skip_##var; \
  ASSERT_NE(var, nullptr)
// NOLINTEND(bugprone-macro-parentheses)

TEST(PerfCounter, SoftwareEventResolvesThroughLibpfmAndCounts) {
  OPEN_OR_SKIP(c, "task-clock");
  EXPECT_EQ(c->backend(), CounterBackend::kPerf);
  EXPECT_EQ(c->event(), "task-clock");
  // libpfm4 names the perf software event itself; no raw PERF_TYPE_SOFTWARE fallback needed.
  EXPECT_THAT(c->encoded_event(), HasSubstr("PERF_COUNT_SW_TASK_CLOCK"));
  ASSERT_TRUE(c->start().ok());
  spin(200000);
  Result<InstrReading> r = c->stop();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GT(r->instructions, 0u);
  EXPECT_FALSE(r->multiplexed);
  EXPECT_EQ(r->backend, CounterBackend::kPerf);
}

TEST(PerfCounter, EachRegionCountsOnlyItsOwnEvents) {
  OPEN_OR_SKIP(c, "page-faults");
  const long page = sysconf(_SC_PAGESIZE);
  constexpr int kPages = 64;
  void* mem =
      mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED);
  madvise(mem, kPages * page, MADV_NOHUGEPAGE);  // one fault per page, not one per huge page

  ASSERT_TRUE(c->start().ok());
  for (int i = 0; i < kPages; ++i)
    static_cast<volatile char*>(mem)[i * page] = 1;
  Result<InstrReading> touching = c->stop();
  ASSERT_TRUE(touching.ok()) << touching.error().message;

  ASSERT_TRUE(c->start().ok());
  for (int i = 0; i < kPages; ++i)
    static_cast<volatile char*>(mem)[i * page] = 2;  // mapped now
  Result<InstrReading> retouching = c->stop();
  ASSERT_TRUE(retouching.ok()) << retouching.error().message;
  munmap(mem, kPages * page);

  EXPECT_GE(touching->instructions, static_cast<uint64_t>(kPages));
  EXPECT_FALSE(touching->multiplexed);
  // Not cumulative: the second region sees none of the first one's faults.
  EXPECT_LT(retouching->instructions, static_cast<uint64_t>(kPages));
}

TEST(PerfCounter, StartTwiceAndStopWithoutStartAreErrors) {
  OPEN_OR_SKIP(c, "task-clock");
  Result<InstrReading> early = c->stop();
  ASSERT_FALSE(early.ok());
  EXPECT_THAT(early.error().message, HasSubstr("without start"));
  ASSERT_TRUE(c->start().ok());
  Status again = c->start();
  ASSERT_FALSE(again.ok());
  EXPECT_THAT(again.error().message, HasSubstr("already open"));
  EXPECT_TRUE(c->stop().ok());
}

TEST(PerfCounter, BogusEventNameIsAClearError) {
  Result<std::unique_ptr<PerfCounter>> c =
      PerfCounter::open(PerfOptions{"no_such_event_xyz:u", std::nullopt});
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("'no_such_event_xyz:u'"));
  EXPECT_THAT(c.error().message, HasSubstr("libpfm4 cannot encode"));
}

TEST(PerfCounter, KernelOnlyEventIsRejected) {
  Result<std::unique_ptr<PerfCounter>> c =
      PerfCounter::open(PerfOptions{"task-clock:k", std::nullopt});
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("kernel space only"));
}

// On a machine without a PMU (these build machines), the default event must fail with the cause
// and the way out; on a machine with one, it must count.
TEST(PerfCounter, HardwareInstructionsCountOrNameTheCallgrindBackend) {
  Result<std::unique_ptr<PerfCounter>> c = PerfCounter::open(PerfOptions{});
  if (c.ok()) {
    EXPECT_EQ((*c)->event(), "instructions:u");
    ASSERT_TRUE((*c)->start().ok());
    spin(100000);
    Result<InstrReading> r = (*c)->stop();
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_GT(r->instructions, 100000u);
    return;
  }
  const std::string& m = c.error().message;
  EXPECT_THAT(m, HasSubstr("'instructions:u'"));
  EXPECT_THAT(m, HasSubstr("--counter callgrind"));
  EXPECT_THAT(m, HasSubstr(strerror(static_cast<int>(c.error().code))));
  if (c.error().code == EACCES || c.error().code == EPERM) {
    EXPECT_THAT(m, HasSubstr("perf_event_paranoid is"));
  }
}

TEST(PerfCounter, MultiplexedReadingIsFlaggedAndNeverScaled) {
  const PerfRawCount begin{1000, 5000, 5000};
  const InstrReading full = perf_region_reading(begin, PerfRawCount{1700, 6000, 6000});
  EXPECT_EQ(full.instructions, 700u);
  EXPECT_FALSE(full.multiplexed);
  EXPECT_EQ(full.backend, CounterBackend::kPerf);

  // Enabled for 1000 ns, running for 400: a partial count, reported as read.
  const InstrReading partial = perf_region_reading(begin, PerfRawCount{1300, 6000, 5400});
  EXPECT_EQ(partial.instructions, 300u);
  EXPECT_TRUE(partial.multiplexed);
}

TEST(PerfCounter, PinsToAnAllowedCpuAndRejectsAnImpossibleOne) {
  cpu_set_t original;
  ASSERT_EQ(sched_getaffinity(0, sizeof original, &original), 0);
  int target = -1;
  for (int cpu = CPU_SETSIZE - 1; cpu >= 0 && target < 0; --cpu) {
    if (CPU_ISSET(cpu, &original)) target = cpu;
  }
  ASSERT_GE(target, 0);

  Result<std::unique_ptr<PerfCounter>> c = PerfCounter::open(PerfOptions{"task-clock", target});
  cpu_set_t pinned;
  ASSERT_EQ(sched_getaffinity(0, sizeof pinned, &pinned), 0);
  const int running_on = sched_getcpu();
  ASSERT_EQ(sched_setaffinity(0, sizeof original, &original), 0);  // restore before asserting
  if (!c.ok() && (c.error().code == EACCES || c.error().code == EPERM)) {
    GTEST_SKIP() << c.error().message;
  }
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(CPU_COUNT(&pinned), 1);
  EXPECT_TRUE(CPU_ISSET(target, &pinned));
  EXPECT_EQ(running_on, target);

  Status bad = pin_current_thread_to_cpu(CPU_SETSIZE + 5);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, HasSubstr(std::to_string(CPU_SETSIZE + 5)));

  const int absent = CPU_SETSIZE - 1;
  if (!CPU_ISSET(absent, &original)) {
    Status refused = pin_current_thread_to_cpu(absent);
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(refused.error().message, HasSubstr("CPU " + std::to_string(absent)));
    EXPECT_THAT(refused.error().message, HasSubstr("may run on CPUs "));
  }
}

}  // namespace
}  // namespace moq::counters
