// The common counter API: backend names, the registry, the factory, and the wall counter.
#include "harness/counters/instruction_counter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <time.h>

#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "harness/counters/callgrind_launch.h"
#include "harness/counters/open_counter.h"
#include "harness/counters/wall_counter.h"

namespace moq::counters {
namespace {

using ::testing::HasSubstr;

// The counters use the results format's CounterBackend: the one type of the project.
TEST(InstructionCounter, BackendIsTheResultsFormatsType) {
  static_assert(std::is_same_v<CounterBackend, results::CounterBackend>);
  for (std::string_view name : results::kCounterBackendNames) {
    std::optional<CounterBackend> b = results::parse_counter_backend(name);
    ASSERT_TRUE(b) << name;
    EXPECT_EQ(results::to_string(*b), name);
    EXPECT_TRUE(b->listed());
  }
  EXPECT_EQ(results::to_string(CounterBackend::kCallgrind), "callgrind");
  EXPECT_FALSE(results::parse_counter_backend("cachegrind"));
  EXPECT_FALSE(CounterBackend::named("cachegrind").listed());
}

// A backend is its file plus its name in the schema's list: every backend linked here is listed
// (else results could not record it), and every listed name but "none" has its backend.
TEST(InstructionCounter, LinkedBackendsAreTheSchemasList) {
  Result<std::vector<CounterBackendDef>> defs = registered_counter_backends();
  ASSERT_TRUE(defs) << defs.error().message;
  std::vector<std::string_view> registered;
  for (const CounterBackendDef& def : *defs) {
    EXPECT_TRUE(def.backend.listed())
        << def.backend.name() << " is not in reports/schema/counter_backend.h's list";
    registered.push_back(def.backend.name());
  }
  for (std::string_view name : results::kCounterBackendNames) {
    if (name == "none") continue;
    EXPECT_THAT(registered, ::testing::Contains(name)) << name << " is listed but not linked";
  }
  // auto's order: perf, then callgrind.
  EXPECT_EQ(counter_backend_names(*defs), "perf, callgrind");
}

TEST(InstructionCounter, AnUnregisteredNameOpensNoCounter) {
  CounterOptions options;
  options.backend = CounterBackend::named("papi");
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(options);
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("no counter backend 'papi'"));
  EXPECT_THAT(c.error().message, HasSubstr("choose perf or callgrind"));
}

TEST(InstructionCounter, BackendNoneOpensNoCounter) {
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(CounterOptions{});
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("'none' counts no instructions"));
}

TEST(InstructionCounter, FactoryOpensPerfThroughTheCommonApi) {
  CounterOptions options;
  options.backend = CounterBackend::kPerf;
  options.event = "task-clock";
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
