// The Google Benchmark adapter as a user runs it: counters are per-round medians (and the
// allocation maximum), named so, and it says which counter it chose without claiming it was
// asked for.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/harness/subprocess.h"

#ifndef MOQBENCH_GBENCH
#error "MOQBENCH_GBENCH must name the moqbench_gbench binary of this build"
#endif

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::run_process;

TEST(GbenchBinary, CountersArePerRoundMediansAndTheDefaultCounterIsNotAskedFor) {
  ProcessResult r =
      run_process({MOQBENCH_GBENCH, "--benchmark_filter=model/empty_round/none$",
                   "--benchmark_min_time=0.01", "--benchmark_format=json", "--moq_counter=none"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("counter none (asked for)"));
  for (const char* counter : {"\"allocations_median\"", "\"allocations_max\"",
                              "\"allocation_bytes_median\"", "\"tasks_run_median\""})
    EXPECT_THAT(r.out, HasSubstr(counter));
  EXPECT_THAT(r.out, Not(HasSubstr("\"allocations\":")));

  ProcessResult d = run_process(
      {MOQBENCH_GBENCH, "--benchmark_filter=model/empty_round/none$", "--benchmark_min_time=0.01"});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_THAT(d.err, Not(HasSubstr("asked for")));
  EXPECT_THAT(d.err, HasSubstr("(the default"));
}

}  // namespace
}  // namespace moq::harness
