// Where --out and --html write, with the real binary: "-" is standard output (and the table moves
// to stderr), a symlink is written through (the link stays, its target gets the results), a FIFO
// is written once in place and stays a FIFO, and a missing directory is bad input before anything
// runs. Everything lives in a scratch directory; no real device node is touched.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::run_process;

namespace fs = std::filesystem;

const std::string kCase = "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=4";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class OutputPathTest : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> run_case(const std::string& out) {
    return {MOQBENCH, "run",      kCase, "--counter", "none", "--rounds",
            "1",      "--warmup", "0",   "--out",     out};
  }
  // Two cases, so a regular file is rewritten between them.
  std::vector<std::string> sweep(const std::string& out) {
    return {MOQBENCH,     "sweep",       "--scenario",   "fetch_frames",
            "--versions", "moq-lite-06", "--publishers", "1",
            "--viewers",  "1",           "--frames",     "4,8",
            "--rounds",   "1",           "--warmup",     "0",
            "--counter",  "none",        "--out",        out};
  }
  // How many cases sweep() selects, as `sweep --list` counts them.
  size_t sweep_cases() {
    std::vector<std::string> argv = sweep("unused.json");
    argv.push_back("--list");
    const ProcessResult r = run_process(argv);
    EXPECT_EQ(r.status, 0) << r.err;
    const size_t lines = static_cast<size_t>(std::count(r.out.begin(), r.out.end(), '\n'));
    EXPECT_GE(lines, 2u) << "the sweep must rewrite a regular file between cases";
    return lines;
  }
  // The results text parsed and validated as a results file, through a regular file.
  size_t case_count(const std::string& text) {
    const std::string copy = path("copy.json");
    std::ofstream(copy, std::ios::binary) << text;
    results::Result<results::ResultsFile> file = results::read_results_file(copy);
    EXPECT_TRUE(file.ok()) << (file.ok() ? "" : file.error().message) << "\n" << text;
    return file.ok() ? file->cases.size() : 0;
  }
};

TEST_F(OutputPathTest, RunOutToASymlinkWritesItsTargetAndTheLinkStays) {
  fs::create_directories(path("real"));
  fs::create_symlink("real/results.json", path("link.json"));
  const ProcessResult r = run_process(run_case(path("link.json")));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("link.json")));
  EXPECT_EQ(fs::read_symlink(path("link.json")), fs::path("real/results.json"));
  EXPECT_EQ(case_count(read_text(path("real/results.json"))), 1u);
  // The temporary file was made beside the target, and nothing is left of it.
  EXPECT_FALSE(fs::exists(path("real/results.json.tmp")));
  EXPECT_FALSE(fs::exists(path("link.json.tmp")));
}

TEST_F(OutputPathTest, SweepOutThroughAChainOfSymlinksKeepsEveryLink) {
  fs::create_directories(path("a/b"));
  fs::create_symlink("b/final.json", path("a/mid.json"));
  fs::create_symlink("a/mid.json", path("first.json"));
  const ProcessResult r = run_process(sweep(path("first.json")));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("first.json")));
  EXPECT_TRUE(fs::is_symlink(path("a/mid.json")));
  EXPECT_EQ(case_count(read_text(path("a/b/final.json"))), sweep_cases());
}

TEST_F(OutputPathTest, SweepOutToAFifoWithAReaderWritesOneDocumentAndTheFifoStays) {
  ASSERT_EQ(::mkfifo(path("results.fifo").c_str(), 0644), 0);
  std::string received;
  // The reader opens the FIFO as a consumer would; the writer's open waits for it.
  std::thread reader([&] { received = read_text(path("results.fifo")); });
  const ProcessResult r = run_process(sweep(path("results.fifo")));
  // Had moqbench never opened the FIFO, the reader would wait in open() for ever: a writer's
  // open and close of our own lets it see end of file, so the test fails instead of hanging.
  if (const int fd = ::open(path("results.fifo").c_str(), O_WRONLY | O_NONBLOCK); fd >= 0)
    ::close(fd);
  reader.join();
  ASSERT_EQ(r.status, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::lstat(path("results.fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(case_count(received), sweep_cases());
  EXPECT_FALSE(fs::exists(path("results.fifo.tmp")));
}

TEST_F(OutputPathTest, RunOutDashPrintsTheResultsOnStdoutAndTheSummaryOnStderr) {
  const ProcessResult r = run_process(run_case("-"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(case_count(r.out), 1u);
  EXPECT_THAT(r.err, HasSubstr("case      " + kCase));
  EXPECT_THAT(r.err, HasSubstr("results written to standard output"));
  EXPECT_FALSE(fs::exists("-"));
}

TEST_F(OutputPathTest, SweepOutDashPrintsOneDocumentOnStdoutAndTheTableOnStderr) {
  const ProcessResult r = run_process(sweep("-"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(case_count(r.out), sweep_cases());
  EXPECT_THAT(r.err, HasSubstr("frames=8"));
}

TEST_F(OutputPathTest, AMissingDirectoryIsBadInputBeforeAnythingRuns) {
  const ProcessResult r = run_process(run_case(path("no-such-dir/results.json")));
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("the directory " + path("no-such-dir") + " does not exist"));
  EXPECT_THAT(r.err, Not(HasSubstr("case      ")));
  // A link into a missing directory says both.
  fs::create_symlink("gone/results.json", path("dangling.json"));
  const ProcessResult d = run_process(sweep(path("dangling.json")));
  EXPECT_EQ(d.status, 2);
  EXPECT_THAT(d.err, HasSubstr("links to"));
  EXPECT_TRUE(fs::is_symlink(path("dangling.json")));
}

TEST_F(OutputPathTest, ReportHtmlToASymlinkWritesItsTargetAndHtmlDashPrintsThePage) {
  const ProcessResult r = run_process(run_case(path("results.json")));
  ASSERT_EQ(r.status, 0) << r.err;
  fs::create_directories(path("site"));
  fs::create_symlink("site/index.html", path("page.html"));
  const ProcessResult html =
      run_process({MOQBENCH, "report", path("results.json"), "--html", path("page.html")});
  ASSERT_EQ(html.status, 0) << html.err;
  EXPECT_TRUE(fs::is_symlink(path("page.html")));
  EXPECT_THAT(read_text(path("site/index.html")), HasSubstr("<html"));
  const ProcessResult dash =
      run_process({MOQBENCH, "report", path("results.json"), "--html", "-", "--md"});
  ASSERT_EQ(dash.status, 0) << dash.err;
  EXPECT_THAT(dash.out, HasSubstr("<html"));
  // The Markdown report moved to stderr, out of the page's way.
  EXPECT_THAT(dash.out, Not(HasSubstr("| ")));
  EXPECT_FALSE(fs::exists("-"));
  const ProcessResult missing =
      run_process({MOQBENCH, "report", path("results.json"), "--html", path("nowhere/page.html")});
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.err, HasSubstr("does not exist"));
}

TEST_F(OutputPathTest, MergeOutDashPrintsTheMergedResults) {
  std::vector<std::string> shard = sweep(path("shard.json"));
  shard.insert(shard.end(), {"--shard", "1/1"});
  const ProcessResult r = run_process(shard);
  ASSERT_EQ(r.status, 0) << r.err;
  const ProcessResult m = run_process({MOQBENCH, "merge", path("shard.json"), "--out", "-"});
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(case_count(m.out), sweep_cases());
  EXPECT_THAT(m.err, HasSubstr("results written to"));
}

TEST_F(OutputPathTest, FaultsSeedThatDoesNotFitIsBadInput) {
  const ProcessResult r = run_process({MOQBENCH, "faults", "--seed", "-1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--seed '-1' is not a seed"));
  EXPECT_THAT(r.out, Not(HasSubstr("0 runs")));
}

}  // namespace
}  // namespace moq::harness
