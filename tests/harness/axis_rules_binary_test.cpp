// A combination of axis values a scenario refuses, with the real binary: `sweep`, `sweep --list`
// and `run` refuse it as bad input (exit 2) before anything runs, naming the case, the axes with
// their values and the rule; a combination the rules accept still lists and runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::run_process;

// congested paces a group's frames in whole ns: 100 ms does not divide by 3 frames.
const std::string kUneven = "model/congested/moq-lite-06/frames=3/group_ms=100";
const std::string kUnevenRule =
    "group_ms=100 (100000000 ns) does not divide by frames=3: a group's time must split into "
    "whole ns per frame";

class AxisRulesTest : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> sweep(const std::string& frames) {
    return {MOQBENCH,     "sweep",       "--scenario", "congested",
            "--versions", "moq-lite-06", "--frames",   frames,
            "--rounds",   "1",           "--warmup",   "0",
            "--counter",  "none",        "--out",      path("sweep.json")};
  }
  static void expect_refused(const ProcessResult& r, const std::string& rule) {
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("is refused: " + rule));
    EXPECT_EQ(r.out, "");
  }
};

TEST_F(AxisRulesTest, SweepWithARefusedCombinationIsBadInputBeforeAnyCase) {
  const ProcessResult r = run_process(sweep("4,3"));
  expect_refused(r, kUnevenRule);
  EXPECT_THAT(r.err, HasSubstr("model/congested/moq-lite-06/"));
  EXPECT_FALSE(std::filesystem::exists(path("sweep.json")))
      << "a refused sweep must measure and write nothing";
}

TEST_F(AxisRulesTest, SweepListRefusesTheSameCombination) {
  std::vector<std::string> argv = sweep("3");
  argv.push_back("--list");
  expect_refused(run_process(argv), kUnevenRule);
}

TEST_F(AxisRulesTest, RunOfARefusedCaseIdIsBadInput) {
  expect_refused(run_process({MOQBENCH, "run", kUneven, "--rounds", "1", "--warmup", "0",
                              "--counter", "none", "--out", path("run.json")}),
                 kUnevenRule);
  EXPECT_FALSE(std::filesystem::exists(path("run.json")));
}

// The rules of the shared axes and of the other scenarios refuse at parse time too, each naming
// its axes and values.
TEST_F(AxisRulesTest, EveryScenarioRuleIsCheckedWhenParsed) {
  expect_refused(
      run_process({MOQBENCH, "run", "model/group_write_frames/none/frames=65536/frame_size=4096"}),
      "frames=65536 x frame_size=4096 = 268435456 bytes exceeds the largest group");
  expect_refused(run_process({MOQBENCH, "sweep", "--list", "--scenario", "delivery", "--set",
                              "paced=yes", "--set", "burst=4"}),
                 "paced=yes writes one frame a round, so burst=4 must be burst=1");
  expect_refused(
      run_process({MOQBENCH, "run", "delivery", "--set", "broadcasts=2", "--set", "watch=5"}),
      "watch=5 exceeds the 2 broadcasts a viewer can reach (broadcasts=2)");
  expect_refused(run_process({MOQBENCH, "sweep", "--list", "--scenario", "fetch_frames", "--set",
                              "transport=quic", "--set", "latency_ms=10"}),
                 "transport=quic runs on real sockets with no link model, so latency_ms=10");
}

TEST_F(AxisRulesTest, AnAcceptedCombinationStillListsAndRuns) {
  std::vector<std::string> argv = sweep("4");
  argv.push_back("--list");
  const ProcessResult listed = run_process(argv);
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_EQ(std::count(listed.out.begin(), listed.out.end(), '\n'), 1) << listed.out;
  EXPECT_THAT(listed.out, HasSubstr("/frames=4/"));
  const ProcessResult ran = run_process(sweep("4"));
  EXPECT_EQ(ran.status, 0) << ran.err;
  EXPECT_TRUE(std::filesystem::exists(path("sweep.json")));
}

}  // namespace
}  // namespace moq::harness
