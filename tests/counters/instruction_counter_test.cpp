// The common counter API: backend names, the factory, and the wall counter.
#include "harness/counters/instruction_counter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <time.h>

#include <type_traits>

#include "harness/counters/callgrind_launch.h"
#include "harness/counters/open_counter.h"
#include "harness/counters/wall_counter.h"

namespace moq::counters {
namespace {

using ::testing::HasSubstr;

// The counters use the results format's CounterBackend: the one enum of the project.
TEST(InstructionCounter, BackendIsTheResultsFormatsEnum) {
  static_assert(std::is_same_v<CounterBackend, results::CounterBackend>);
  for (CounterBackend b : results::kCounterBackends)
    EXPECT_EQ(results::parse_counter_backend(results::to_string(b)), b);
  EXPECT_EQ(results::to_string(CounterBackend::kCallgrind), "callgrind");
  EXPECT_FALSE(results::parse_counter_backend("cachegrind"));
}

TEST(InstructionCounter, BackendNoneOpensNoCounter) {
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(CounterOptions{});
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("'none' counts no instructions"));
}

TEST(InstructionCounter, FactoryOpensPerfThroughTheCommonApi) {
  CounterOptions options;
  options.backend = CounterBackend::kPerf;
  options.perf.event = "task-clock";
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(options);
  if (!c.ok() && (c.error().code == EACCES || c.error().code == EPERM)) {
    GTEST_SKIP() << c.error().message;
  }
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ((*c)->backend(), CounterBackend::kPerf);
  EXPECT_EQ((*c)->event(), "task-clock");
}

TEST(InstructionCounter, CallgrindOutsideValgrindSaysHowToRunIt) {
  ASSERT_FALSE(running_under_valgrind());
  CounterOptions options;
  options.backend = CounterBackend::kCallgrind;
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
