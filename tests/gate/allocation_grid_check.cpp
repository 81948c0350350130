// No heap allocation in any measured round (tasks and buffers are pooled), checked on the
// results of tests/gate/allocation-grid: every case of every version and session scenario ran,
// and the maximum of its allocation samples is 0. A median would hide the one round that
// allocates (moq-transport fetch_range used to allocate in 2 rounds of 300), so each sample is
// looked at; a failure names the case and the rounds.
//
// Usage: allocation_grid_check RESULTS.json
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "model/wire/version.h"
#include "reports/schema/results_file.h"

namespace moq::gate {
namespace {

using results::CaseResult;
using results::ResultsFile;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const ResultsFile* g_results = nullptr;

constexpr const char* kScenarios[] = {"fetch_frames", "subscribe_frames", "fetch_range"};

// One message per case that failed or allocated, and per version or scenario the grid missed.
std::vector<std::string> allocation_problems(const ResultsFile& file) {
  std::vector<std::string> problems;
  std::set<std::string> seen;
  for (const CaseResult& c : file.cases) {
    seen.insert(c.scenario + " " + c.version);
    if (c.flags.failed) {
      problems.push_back(c.id + ": failed: " + c.flags.reason.value_or(""));
      continue;
    }
    if (!c.metrics.allocations) {
      problems.push_back(c.id + ": no allocation counts");
      continue;
    }
    std::string rounds;
    const std::vector<uint64_t>& samples = c.metrics.allocations->samples;
    for (size_t i = 0; i < samples.size(); ++i) {
      if (samples[i] != 0)
        rounds += " round " + std::to_string(i) + ": " + std::to_string(samples[i]) + ";";
    }
    if (!rounds.empty())
      problems.push_back(c.id + ": allocated in " + std::to_string(samples.size()) +
                         " measured rounds:" + rounds);
  }
  for (const VersionInfo& v : kVersions) {
    if (v.interop_only) continue;  // not in the default sweep the grid runs
    for (const char* scenario : kScenarios) {
      if (!seen.count(std::string(scenario) + " " + std::string(v.name)))
        problems.push_back(std::string(scenario) + " on " + std::string(v.name) +
                           ": not in the results (tests/gate/allocation-grid-args must cover it)");
    }
  }
  return problems;
}

TEST(AllocationGrid, NoMeasuredRoundAllocates) {
  EXPECT_THAT(allocation_problems(*g_results), IsEmpty());
}

// The check can fail: one round of one case allocating once, and a version missing.
TEST(AllocationGrid, CatchesOneRoundThatAllocatesAndAMissingVersion) {
  ResultsFile worse = *g_results;
  ASSERT_FALSE(worse.cases.empty());
  CaseResult& late = worse.cases.back();
  ASSERT_TRUE(late.metrics.allocations);
  std::vector<uint64_t> samples = late.metrics.allocations->samples;
  ASSERT_GE(samples.size(), 2u);
  samples.back() = 1;
  late.metrics.allocations = results::compute_stats(samples);
  EXPECT_EQ(late.metrics.allocations->median, 0u) << "the median hides it; the check must not";
  const std::string last_round = std::to_string(samples.size() - 1);
  EXPECT_THAT(allocation_problems(worse),
              Contains(HasSubstr(late.id + ": allocated in " + std::to_string(samples.size()) +
                                 " measured rounds: round " + last_round + ": 1;")));

  const std::string dropped(kVersions.front().name);
  std::erase_if(worse.cases, [&](const CaseResult& c) { return c.version == dropped; });
  EXPECT_THAT(allocation_problems(worse),
              Contains(HasSubstr("fetch_frames on " + dropped + ": not in the results")));
}

}  // namespace
}  // namespace moq::gate

int main(int argc, char** argv) {
  ::testing::InitGoogleMock(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s RESULTS.json (tests/gate/allocation-grid's sweep)\n", argv[0]);
    return 2;
  }
  moq::results::Result<moq::results::ResultsFile> file = moq::results::read_results_file(argv[1]);
  if (!file) {
    std::fprintf(stderr, "allocation_grid_check: %s\n", file.error().message.c_str());
    return 2;
  }
  moq::gate::g_results = &*file;
  return RUN_ALL_TESTS();
}
