// Sharded sweeps end to end with the real binary: N shards run as separate processes at once,
// `moqbench merge` joins them, and the merge equals the unsharded sweep case for case; a missing
// shard and a shard of another sweep are reported.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::run_process;
using testing::RunningProcess;

class ShardMergeTest : public testing::ScratchDirTest {
 protected:
  // The sweep the tests shard: both benches, two scenarios, two versions (allocations and
  // delivery are exact without an instruction counter; wall time is not compared).
  std::vector<std::string> sweep(const std::string& out, const std::vector<std::string>& more,
                                 const std::string& rounds = "2") {
    std::vector<std::string> argv = {MOQBENCH,       "sweep",
                                     "--scenario",   "fetch_frames,empty_round",
                                     "--versions",   "moq-lite-06,moq-transport-22",
                                     "--viewers",    "1,2",
                                     "--frames",     "4",
                                     "--publishers", "1",
                                     "--rounds",     rounds,
                                     "--warmup",     "1",
                                     "--counter",    "none",
                                     "--out",        out};
    argv.insert(argv.end(), more.begin(), more.end());
    return argv;
  }

  static results::ResultsFile read(const std::string& file) {
    auto r = results::read_results_file(file);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : results::ResultsFile{};
  }
};

TEST_F(ShardMergeTest, ThreeShardsRunAtOnceMergeIntoTheUnshardedSweep) {
  ProcessResult whole = run_process(sweep(path("whole.json"), {}));
  ASSERT_EQ(whole.status, 0) << whole.err;
  std::vector<std::unique_ptr<RunningProcess>> shards;
  for (int i = 1; i <= 3; ++i) {
    shards.push_back(std::make_unique<RunningProcess>(
        sweep(path("shard" + std::to_string(i) + ".json"), {"--shard", std::to_string(i) + "/3"})));
  }
  for (auto& s : shards) {
    ProcessResult r = s->wait();
    ASSERT_EQ(r.status, 0) << r.err;
  }
  ProcessResult merged = run_process({MOQBENCH, "merge", path("shard2.json"), path("shard3.json"),
                                      path("shard1.json"), "--out", path("merged.json")});
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_THAT(merged.err, HasSubstr("the whole sweep"));

  const results::ResultsFile a = read(path("whole.json"));
  const results::ResultsFile b = read(path("merged.json"));
  EXPECT_FALSE(b.meta.shard);
  ASSERT_GT(a.cases.size(), 6u);
  ASSERT_EQ(a.cases.size(), b.cases.size());
  for (size_t i = 0; i < a.cases.size(); ++i) {
    results::CaseResult x = a.cases[i];
    results::CaseResult y = b.cases[i];
    x.metrics.wall_ns.reset();  // the one metric that is not exact
    y.metrics.wall_ns.reset();
    EXPECT_EQ(x, y) << "case " << i << ": " << x.id << " / " << y.id;
  }
}

TEST_F(ShardMergeTest, AMissingShardAndAnotherSweepAreReported) {
  for (int i = 1; i <= 2; ++i) {
    ProcessResult r = run_process(
        sweep(path("s" + std::to_string(i) + ".json"), {"--shard", std::to_string(i) + "/3"}));
    ASSERT_EQ(r.status, 0) << r.err;
  }
  ProcessResult partial = run_process(
      {MOQBENCH, "merge", path("s1.json"), path("s2.json"), "--out", path("partial.json")});
  EXPECT_EQ(partial.status, 3) << partial.err;
  EXPECT_THAT(partial.err, HasSubstr("missing shards (no file; their cases cannot be named): 3"));
  EXPECT_TRUE(std::filesystem::exists(path("partial.json")));

  // Another sweep definition: 3 measured rounds.
  ProcessResult o = run_process(sweep(path("other.json"), {"--shard", "3/3"}, "3"));
  ASSERT_EQ(o.status, 0) << o.err;
  ProcessResult refused = run_process({MOQBENCH, "merge", path("s1.json"), path("s2.json"),
                                       path("other.json"), "--out", path("refused.json")});
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("is of another sweep"));
  EXPECT_FALSE(std::filesystem::exists(path("refused.json")));

  ProcessResult bad = run_process(sweep(path("bad.json"), {"--shard", "4/3"}));
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err, HasSubstr("I must be a whole number from 1 to N (3)"));
}

}  // namespace
}  // namespace moq::harness
