// Named baselines through the command line (in-process, over the test registry): a sweep saved
// under a name, listed, and read back by compare, gate and report with --baseline; bad and
// unknown names, replacing one, and a sweep that failed saving nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/cli/cli.h"
#include "reports/inputs.h"
#include "reports/schema/results_file.h"
#include "tests/harness/fake_scenarios.h"
#include "tests/harness/in_process_cli.h"
#include "tests/harness/scratch_dir_test.h"

namespace moq::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using harness::testing::CliRun;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class BaselinesCli : public harness::testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    registry_ = harness::testing::make_test_registry();
    folder_ = path("baselines");
    ASSERT_EQ(setenv("MOQBENCH_BASELINES_DIR", folder_.c_str(), 1), 0);
  }
  void TearDown() override {
    unsetenv("MOQBENCH_BASELINES_DIR");
    ScratchDirTest::TearDown();
  }

  CliRun cli(std::vector<std::string> args) {
    return harness::testing::run_in_process(registry_, std::move(args));
  }
  // A quick sweep of the three `plain` cases (or those `extra` keeps) to `out`.
  CliRun sweep(const std::string& out, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"sweep", "--scenario", "plain", "--rounds", "2", "--warmup",
                                     "0",     "--counter",  "none",  "--out",    out};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }
  std::string baseline_file(const std::string& name) const {
    return folder_ + "/" + name + ".json";
  }

  harness::ScenarioRegistry registry_;
  std::string folder_;
};

TEST_F(BaselinesCli, ASavedBaselineIsListedAndReadByName) {
  CliRun none = cli({"baselines"});
  EXPECT_EQ(none.status, kExitOk) << none.err;
  EXPECT_THAT(none.out, HasSubstr("no baselines in " + folder_));

  const std::string head = path("head.json");
  CliRun saved = sweep(head, {"--save-baseline", "main"});
  ASSERT_EQ(saved.status, kExitOk) << saved.err;
  EXPECT_THAT(saved.err, HasSubstr("saved as baseline 'main' (" + baseline_file("main") + ")"));
  results::Result<results::ResultsFile> base = results::read_results_file(baseline_file("main"));
  ASSERT_TRUE(base) << base.error().message;
  results::Result<results::ResultsFile> measured = results::read_results_file(head);
  ASSERT_TRUE(measured) << measured.error().message;
  EXPECT_EQ(*base, *measured) << "the baseline is the sweep's results";
  EXPECT_EQ(base->cases.size(), 3u);

  CliRun list = cli({"baselines"});
  ASSERT_EQ(list.status, kExitOk) << list.err;
  EXPECT_THAT(list.out, HasSubstr("name  commit"));
  std::string row;
  std::istringstream lines(list.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("main ", 0) == 0) row = line;
  EXPECT_THAT(row, HasSubstr(reports::commit_text(base->meta))) << list.out;
  EXPECT_THAT(row, HasSubstr(" none ")) << row;
  EXPECT_THAT(row, HasSubstr(base->meta.start_time)) << row;
  EXPECT_THAT(row, testing::EndsWith(" 3")) << row;

  // compare, gate and report take the name in place of the base file; its label is the name.
  CliRun compare = cli({"compare", "--baseline", "main", head});
  ASSERT_EQ(compare.status, kExitOk) << compare.err;
  EXPECT_THAT(compare.out, HasSubstr("BASE is main"));
  EXPECT_THAT(compare.out, HasSubstr("summary (head against main, 3 cases)"));
  CliRun gate = cli({"gate", "--baseline", "main", head, "--metric", "allocations"});
  EXPECT_EQ(gate.status, kExitOk) << gate.out << gate.err;
  EXPECT_THAT(gate.out, HasSubstr("model/plain/none/count=2"));
  const std::string page = path("report.html");
  CliRun report = cli({"report", "--baseline", "main", head, "--html", page});
  EXPECT_EQ(report.status, kExitOk) << report.err;
  EXPECT_THAT(read_all(page), HasSubstr("summary (head against main, 3 cases)"));
  CliRun alone = cli({"report", "--baseline", "main", "--md"});
  EXPECT_EQ(alone.status, kExitOk) << alone.err;
  EXPECT_THAT(alone.out, HasSubstr("| main | " + baseline_file("main") + " |"));

  // Saving over a name is deliberate: refused before measuring, then replaced with --force.
  const std::string before = read_all(baseline_file("main"));
  const std::string again = path("again.json");
  CliRun refused = sweep(again, {"--save-baseline", "main"});
  EXPECT_EQ(refused.status, kExitBadInput);
  EXPECT_THAT(refused.err, HasSubstr("--save-baseline 'main': a baseline of that name exists in " +
                                     folder_ + "; add --force"));
  EXPECT_FALSE(std::filesystem::exists(again)) << "nothing measured";
  EXPECT_EQ(read_all(baseline_file("main")), before);
  CliRun replaced = sweep(again, {"--save-baseline", "main", "--force", "--filter", "count=1"});
  ASSERT_EQ(replaced.status, kExitOk) << replaced.err;
  base = results::read_results_file(baseline_file("main"));
  ASSERT_TRUE(base) << base.error().message;
  ASSERT_EQ(base->cases.size(), 1u);
  EXPECT_EQ(base->cases[0].id, "model/plain/none/count=1");
  // No temporary file is left beside it, and nothing but the baselines is listed.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder_),
                          std::filesystem::directory_iterator()),
            1);
  EXPECT_EQ(cli({"baselines"}).out.find(".tmp"), std::string::npos);
}

TEST_F(BaselinesCli, BadAndUnknownNamesExitTwoNamingThem) {
  const std::string head = path("head.json");
  for (const std::string name : {"", "../x", "a/b", "..", ".hidden", "a..b", "/abs", "x y"}) {
    CliRun r = sweep(head, {"--save-baseline", name});
    EXPECT_EQ(r.status, kExitBadInput) << "'" << name << "'\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(name.empty() ? "--save-baseline: the name is empty"
                                              : "--save-baseline '" + name +
                                                    "': not a baseline "
                                                    "name"));
    EXPECT_FALSE(std::filesystem::exists(head)) << "refused before measuring: '" << name << "'";
    for (const std::string sub : {"compare", "gate", "report"}) {
      CliRun read = cli({sub, "--baseline", name, path("any.json")});
      EXPECT_EQ(read.status, kExitBadInput) << sub << " '" << name << "'";
      EXPECT_THAT(read.err, HasSubstr("--baseline")) << sub;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(folder_)) << "no bad name created anything";

  ASSERT_EQ(sweep(head).status, kExitOk);
  CliRun unknown = cli({"compare", "--baseline", "nosuch", head});
  EXPECT_EQ(unknown.status, kExitBadInput);
  EXPECT_THAT(unknown.err, HasSubstr("--baseline 'nosuch': no such baseline in " + folder_ +
                                     " (none saved yet"));
  ASSERT_EQ(sweep(path("a.json"), {"--save-baseline", "v1.2_rc-1"}).status, kExitOk);
  ASSERT_EQ(sweep(path("b.json"), {"--save-baseline", "main"}).status, kExitOk);
  for (const std::string sub : {"compare", "gate", "report"}) {
    CliRun r = cli({sub, "--baseline", "nosuch", head});
    EXPECT_EQ(r.status, kExitBadInput) << sub;
    EXPECT_THAT(r.err, HasSubstr("moqbench " + sub + ": --baseline 'nosuch': no such baseline in " +
                                 folder_ + " (saved: main, v1.2_rc-1)"));
  }
  // The file count follows --baseline: HEAD alone.
  CliRun two = cli({"gate", "--baseline", "main", head, head});
  EXPECT_EQ(two.status, kExitBadInput);
  EXPECT_THAT(two.err, HasSubstr("give HEAD.json alone"));
  CliRun one = cli({"gate", head});
  EXPECT_EQ(one.status, kExitBadInput);
  EXPECT_THAT(one.err, HasSubstr("BASE.json and HEAD.json"));
  // --force alone, and a results file that cannot be read back, are refused.
  EXPECT_EQ(sweep(path("c.json"), {"--force"}).status, kExitBadInput);
  CliRun to_stdout = sweep("-", {"--save-baseline", "piped"});
  EXPECT_EQ(to_stdout.status, kExitBadInput);
  EXPECT_THAT(to_stdout.err, HasSubstr("--save-baseline needs the results in a regular file"));
  // A baseline that is not a results file is named by the listing, which fails.
  { std::ofstream(baseline_file("junk")) << "{"; }
  CliRun list = cli({"baselines"});
  EXPECT_EQ(list.status, kExitBadInput);
  EXPECT_THAT(list.err, HasSubstr(baseline_file("junk")));
  EXPECT_THAT(list.out, ::testing::ContainsRegex("junk +unreadable"));
  EXPECT_THAT(list.out, HasSubstr("v1.2_rc-1"));

  // A directory where a baseline would go is never written over, even with --force; a folder
  // that is a file is named as such.
  std::filesystem::create_directories(baseline_file("dir"));
  CliRun onto_dir = sweep(path("d.json"), {"--save-baseline", "dir", "--force"});
  EXPECT_EQ(onto_dir.status, kExitBadInput);
  EXPECT_THAT(onto_dir.err, HasSubstr(baseline_file("dir") + " is not a regular file"));
  EXPECT_FALSE(std::filesystem::exists(path("d.json"))) << "refused before measuring";
  const std::string file_folder = path("head.json");
  ASSERT_EQ(setenv("MOQBENCH_BASELINES_DIR", file_folder.c_str(), 1), 0);
  CliRun not_a_folder = cli({"baselines"});
  EXPECT_EQ(not_a_folder.status, kExitBadInput);
  EXPECT_THAT(not_a_folder.err,
              HasSubstr("the baselines folder " + file_folder + " is not a directory"));
  EXPECT_EQ(sweep(path("e.json"), {"--save-baseline", "x"}).status, kExitBadInput);
}

TEST_F(BaselinesCli, ASweepWithAFailedCaseSavesNoBaseline) {
  CliRun r =
      cli({"sweep", "--scenario", "broken,plain", "--set", "count=1", "--rounds", "2", "--warmup",
           "1", "--counter", "none", "--out", path("failed.json"), "--save-baseline", "main"});
  EXPECT_EQ(r.status, kExitFailed) << r.err;
  EXPECT_THAT(r.err, HasSubstr("baseline 'main' not saved: the sweep did not measure every case"));
  EXPECT_FALSE(std::filesystem::exists(baseline_file("main")));
  EXPECT_THAT(cli({"baselines"}).out, Not(HasSubstr("main")));
}

}  // namespace
}  // namespace moq::cli
