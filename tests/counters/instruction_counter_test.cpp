// The common counter API: backend names, the factory, and the wall counter.
#include "harness/counters/instruction_counter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <time.h>

#include "harness/counters/callgrind_launch.h"
#include "harness/counters/open_counter.h"
#include "harness/counters/wall_counter.h"

namespace moq::counters {
namespace {

using ::testing::HasSubstr;

TEST(InstructionCounter, BackendNamesRoundTrip) {
  for (CounterBackend b : {CounterBackend::None, CounterBackend::Perf, CounterBackend::Callgrind}) {
    Result<CounterBackend> parsed = parse_counter_backend(counter_backend_name(b));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, b);
  }
  EXPECT_STREQ(counter_backend_name(CounterBackend::None), "none");
  EXPECT_STREQ(counter_backend_name(CounterBackend::Perf), "perf");
  EXPECT_STREQ(counter_backend_name(CounterBackend::Callgrind), "callgrind");
}

TEST(InstructionCounter, UnknownBackendNameListsTheValidOnes) {
  Result<CounterBackend> parsed = parse_counter_backend("cachegrind");
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.error().message, HasSubstr("'cachegrind'"));
  EXPECT_THAT(parsed.error().message, HasSubstr("none, perf, callgrind"));
}

TEST(InstructionCounter, BackendNoneOpensNoCounter) {
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(CounterOptions{});
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("'none' counts no instructions"));
}

TEST(InstructionCounter, FactoryOpensPerfThroughTheCommonApi) {
  CounterOptions options;
  options.backend = CounterBackend::Perf;
  options.perf.event = "task-clock";
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(options);
  if (!c.ok() && (c.error().code == EACCES || c.error().code == EPERM)) {
    GTEST_SKIP() << c.error().message;
  }
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ((*c)->backend(), CounterBackend::Perf);
  EXPECT_EQ((*c)->event(), "task-clock");
}

TEST(InstructionCounter, CallgrindOutsideValgrindSaysHowToRunIt) {
  ASSERT_FALSE(running_under_valgrind());
  CounterOptions options;
  options.backend = CounterBackend::Callgrind;
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(options);
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("not running under valgrind"));
  EXPECT_THAT(c.error().message, HasSubstr("run_under_callgrind"));
}

TEST(WallCounter, MeasuresElapsedTime) {
  WallCounter w;
  w.start();
  timespec ten_ms{0, 10'000'000};
  nanosleep(&ten_ms, nullptr);
  const uint64_t ns = w.elapsed_ns();
  EXPECT_GE(ns, 10'000'000u);
  EXPECT_LT(ns, 10'000'000'000u);
}

}  // namespace
}  // namespace moq::counters
