// The callgrind backend end to end: moq_counter_probe re-runs itself under callgrind and counts a
// fixed loop in each round. Counts must be exact (identical across rounds and runs) and grow
// exactly linearly with the loop length.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "harness/counters/callgrind_launch.h"

#ifndef MOQ_COUNTER_PROBE
#error "MOQ_COUNTER_PROBE must name the uninstrumented moq_counter_probe binary"
#endif

namespace moq::counters {
namespace {

using ::testing::HasSubstr;

struct ProbeRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs the probe with its dumps in a fresh directory, which is removed afterwards; an argument
// list in `env_and_args` is passed to /bin/sh as is.
ProbeRun run_probe(const std::string& env_and_args) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("moq-counters-test-" + std::to_string(getpid()) + "-" +
       std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const std::string cmd = "TMPDIR=" + dir.string() + " " + env_and_args + " 2>&1";
  ProbeRun run;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return run;
  char buf[512];
  while (fgets(buf, sizeof buf, p) != nullptr)
    run.output += buf;
  const int status = pclose(p);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::filesystem::remove_all(dir);
  return run;
}

struct Round {
  uint64_t instructions = 0;
  uint64_t allocs = 0;
  uint64_t bytes = 0;
};

// The rounds printed by the probe.
std::vector<Round> rounds_of(const std::string& output) {
  static const std::regex line(
      R"(round=\d+ backend=callgrind event=Ir instructions=(\d+) multiplexed=0 allocs=(\d+) )"
      R"(bytes=(\d+))");
  std::vector<Round> rounds;
  for (auto it = std::sregex_iterator(output.begin(), output.end(), line);
       it != std::sregex_iterator(); ++it) {
    rounds.push_back(Round{std::stoull((*it)[1].str()), std::stoull((*it)[2].str()),
                           std::stoull((*it)[3].str())});
  }
  return rounds;
}

std::vector<Round> probe_rounds(int iterations, int allocations, int rounds_wanted = 2,
                                std::string* output = nullptr) {
  ProbeRun run =
      run_probe(std::string(MOQ_COUNTER_PROBE) + " --counter callgrind --rounds " +
                std::to_string(rounds_wanted) + " --iterations " + std::to_string(iterations) +
                " --allocate " + std::to_string(allocations));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::vector<Round> rounds = rounds_of(run.output);
  EXPECT_EQ(rounds.size(), static_cast<size_t>(rounds_wanted)) << run.output;
  if (output != nullptr) *output = run.output;
  return rounds;
}

// The instructions of each round of a probe run with no allocation.
std::vector<uint64_t> callgrind_rounds(int iterations) {
  std::vector<uint64_t> counts;
  for (const Round& r : probe_rounds(iterations, 0)) {
    EXPECT_EQ(r.allocs, 0u);
    counts.push_back(r.instructions);
  }
  return counts;
}

#define SKIP_WITHOUT_VALGRIND() \
  if (Result<std::string> v = find_valgrind(); !v.ok()) GTEST_SKIP() << v.error().message

TEST(CallgrindBackend, FixedLoopCountsAreExactAndLinear) {
  SKIP_WITHOUT_VALGRIND();
  const std::vector<uint64_t> a = callgrind_rounds(1000);
  const std::vector<uint64_t> b = callgrind_rounds(1000);
  const std::vector<uint64_t> c = callgrind_rounds(2000);
  const std::vector<uint64_t> d = callgrind_rounds(3000);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  ASSERT_EQ(c.size(), 2u);
  ASSERT_EQ(d.size(), 2u);

  // Exact: the same region gives the same count in every round and every run.
  EXPECT_EQ(a[0], a[1]);
  EXPECT_EQ(a, b);
  EXPECT_EQ(c[0], c[1]);
  EXPECT_EQ(d[0], d[1]);

  // Linear: each extra 1000 iterations adds the same count, a few instructions per iteration.
  ASSERT_GT(c[0], a[0]);
  const uint64_t per_1000 = c[0] - a[0];
  EXPECT_EQ(d[0] - c[0], per_1000);
  EXPECT_EQ(per_1000 % 1000, 0u) << "per-iteration cost is not a whole number: " << per_1000;
  EXPECT_GE(per_1000, 2000u);
  EXPECT_LE(per_1000, 20000u);
  // The region's fixed overhead (the counter's own entry and exit) is small.
  EXPECT_LT(a[0] - per_1000, 500u);
}

// The allocation counter keeps counting under callgrind (valgrind's callgrind tool does not
// replace the allocator), so one run measures both.
TEST(CallgrindBackend, AllocationsAreCountedUnderCallgrind) {
  SKIP_WITHOUT_VALGRIND();
  std::string output;
  const std::vector<Round> rounds = probe_rounds(1000, 3, 3, &output);
  EXPECT_THAT(output, HasSubstr("alloc_coverage=new-delete+malloc"));
  ASSERT_EQ(rounds.size(), 3u);
  for (const Round& r : rounds) {
    EXPECT_EQ(r.allocs, 3u);
    EXPECT_EQ(r.bytes, 3u * 32u);
  }
  // Round 0 may pay for the allocator's first use of the size class (a warm-up round, as the
  // runner has); from then on the counts are exact.
  EXPECT_GE(rounds[0].instructions, rounds[1].instructions);
  EXPECT_EQ(rounds[1].instructions, rounds[2].instructions);
}

TEST(CallgrindBackend, MissingValgrindIsAClearError) {
  ProbeRun run = run_probe("PATH=/nonexistent " + std::string(MOQ_COUNTER_PROBE) +
                           " --counter callgrind --rounds 1");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_THAT(run.output, HasSubstr("valgrind is not installed"));
  EXPECT_THAT(run.output, HasSubstr("'valgrind'"));
}

// Under the counting layer with mimalloc (the uninstrumented build), an
// allocation that cannot be served throws std::bad_alloc, as operator new must. mimalloc's own
// operator new aborted instead, so a case too big for the machine died without a word.
TEST(AllocationFailure, OperatorNewThrowsBadAllocRatherThanAborting) {
  ProbeRun run = run_probe(std::string(MOQ_COUNTER_PROBE) + " --new-bytes 1152921504606846976");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("new_bytes=1152921504606846976 result=bad_alloc"));
  ProbeRun small = run_probe(std::string(MOQ_COUNTER_PROBE) + " --new-bytes 4096");
  EXPECT_THAT(small.output, HasSubstr("new_bytes=4096 result=ok"));
}

}  // namespace
}  // namespace moq::counters
