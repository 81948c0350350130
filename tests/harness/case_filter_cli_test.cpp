// `sweep --filter REGEX --exclude REGEX` through the command line (in-process, over the test
// registry): the cases kept, the choice recorded in the results' plan (so a gate accepts the
// cases it left out with --allow-removed), shards of a filtered sweep, and bad patterns or an
// empty choice refused with exit 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/cli/cli.h"
#include "reports/schema/results_file.h"
#include "tests/harness/fake_scenarios.h"
#include "tests/harness/in_process_cli.h"
#include "tests/harness/scratch_dir_test.h"

namespace moq::cli {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using harness::testing::CliRun;

class CaseFilterCli : public harness::testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    registry_ = harness::testing::make_test_registry();
  }
  CliRun sweep(std::vector<std::string> extra) {
    std::vector<std::string> args = {"sweep",    "--scenario", "plain",     "--rounds", "2",
                                     "--warmup", "0",          "--counter", "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    return harness::testing::run_in_process(registry_, args);
  }
  harness::ScenarioRegistry registry_;
};

TEST_F(CaseFilterCli, FilterAndExcludeChooseCasesAndAreRecordedInThePlan) {
  CliRun list = sweep({"--list", "--filter", "count=[12]$"});
  ASSERT_EQ(list.status, kExitOk) << list.err;
  EXPECT_EQ(list.out, "model/plain/none/count=1\nmodel/plain/none/count=2\n");
  CliRun excluded = sweep({"--list", "--exclude", "count=2"});
  EXPECT_EQ(excluded.out, "model/plain/none/count=1\nmodel/plain/none/count=3\n");

  const std::string out = path("filtered.json");
  CliRun r = sweep({"--filter", "count=[12]", "--exclude", "count=2", "--out", out});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  results::Result<results::ResultsFile> file = results::read_results_file(out);
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_EQ(file->cases.size(), 1u);
  EXPECT_EQ(file->cases[0].id, "model/plain/none/count=1");
  ASSERT_TRUE(file->meta.plan);
  EXPECT_THAT(file->meta.plan->cases, ElementsAre("model/plain/none/count=1"));
  EXPECT_THAT(file->meta.plan->selection, HasSubstr("--filter count=[12] --exclude count=2"));

  // The plan says the other cases were left out on purpose: the gate accepts their absence when
  // asked to, and only then.
  const std::string full = path("full.json");
  ASSERT_EQ(sweep({"--out", full}).status, kExitOk);
  CliRun strict =
      harness::testing::run_in_process(registry_, {"gate", full, out, "--metric", "allocations"});
  EXPECT_EQ(strict.status, 5) << strict.out;
  CliRun allowed = harness::testing::run_in_process(
      registry_, {"gate", full, out, "--metric", "allocations", "--allow-removed"});
  EXPECT_EQ(allowed.status, kExitOk) << allowed.out << allowed.err;

  // Shards split what the filter kept.
  const std::string shard = path("shard.json");
  ASSERT_EQ(sweep({"--exclude", "count=3", "--shard", "2/2", "--out", shard}).status, kExitOk);
  file = results::read_results_file(shard);
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_TRUE(file->meta.shard);
  EXPECT_EQ(file->meta.shard->plan_cases, 2u);
  EXPECT_THAT(file->meta.shard->cases, ElementsAre("model/plain/none/count=2"));
}

TEST_F(CaseFilterCli, BadPatternsAndAnEmptyChoiceExitTwo) {
  const std::string out = path("never.json");
  CliRun bad = sweep({"--filter", "count=(1", "--out", out});
  EXPECT_EQ(bad.status, kExitBadInput);
  EXPECT_THAT(bad.err, HasSubstr("--filter 'count=(1': not a valid regular expression"));
  CliRun bad_exclude = sweep({"--exclude", "[", "--out", out});
  EXPECT_EQ(bad_exclude.status, kExitBadInput);
  EXPECT_THAT(bad_exclude.err, HasSubstr("--exclude '[': not a valid regular expression"));
  CliRun none = sweep({"--filter", "count=9", "--out", out});
  EXPECT_EQ(none.status, kExitBadInput);
  EXPECT_THAT(none.err, HasSubstr("--filter 'count=9' selects none of the sweep's 3 cases"));
  CliRun all_excluded = sweep({"--filter", "plain", "--exclude", "count", "--list"});
  EXPECT_EQ(all_excluded.status, kExitBadInput);
  EXPECT_THAT(all_excluded.err,
              HasSubstr("--filter 'plain' with --exclude 'count' selects none of the sweep's 3"));
  EXPECT_EQ(all_excluded.out, "") << "never an empty success";
  EXPECT_FALSE(std::filesystem::exists(out)) << "nothing measured, no file";
}

}  // namespace
}  // namespace moq::cli
