// Named baselines with the real moqbench binary: the default folder under the current directory,
// a folder reached through a symlink, an interrupted sweep saving nothing, and a FIFO as --out
// refused without being opened.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <filesystem>

#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary of this build"
#endif

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::run_process;
using testing::RunningProcess;

namespace fs = std::filesystem;

class BaselinesBinaryTest : public testing::ScratchDirTest {
 protected:
  // A quick sweep of four cases, measured with no counter.
  std::vector<std::string> sweep(const std::string& rounds) const {
    return {MOQBENCH,   "sweep", "--scenario", "group_write_frames",
            "--frames", "4,8",   "--counter",  "none",
            "--warmup", "0",     "--rounds",   rounds};
  }
};

TEST_F(BaselinesBinaryTest, TheDefaultFolderIsUnderTheCurrentDirectory) {
  // Without MOQBENCH_BASELINES_DIR: ./.moqbench/baselines of the directory it runs in.
  std::string command = "cd '" + dir_.string() + "' && exec";
  for (const std::string& arg : sweep("1"))
    command += " '" + arg + "'";
  ProcessResult r = run_process({"/usr/bin/env", "-u", "MOQBENCH_BASELINES_DIR", "/bin/sh", "-c",
                                 command + " --out head.json --save-baseline main"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("saved as baseline 'main' (.moqbench/baselines/main.json)"));
  EXPECT_TRUE(results::read_results_file(path(".moqbench/baselines/main.json")));

  // Through a symlink to that folder, by the environment.
  fs::create_symlink(dir_ / ".moqbench" / "baselines", dir_ / "link");
  r = run_process(
      {MOQBENCH, "gate", "--baseline", "main", path("head.json"), "--metric", "allocations"},
      {"MOQBENCH_BASELINES_DIR=" + path("link")});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("model/group_write_frames/none/frames=8/batch=16"));
}

TEST_F(BaselinesBinaryTest, AnInterruptedSweepSavesNoBaseline) {
  const std::vector<std::string> env = {"MOQBENCH_BASELINES_DIR=" + path("baselines")};
  std::vector<std::string> slow = sweep("20000");
  for (const std::string& arg : {std::string("--out"), path("head.json"),
                                 std::string("--save-baseline"), std::string("main")})
    slow.push_back(arg);
  RunningProcess interrupted(slow, env);
  ASSERT_TRUE(interrupted.wait_for_stderr("[1/", std::chrono::seconds(120)));
  interrupted.signal(SIGINT);
  ProcessResult r = interrupted.wait();
  EXPECT_EQ(r.status, 128 + SIGINT) << r.err;
  EXPECT_THAT(r.err, HasSubstr("baseline 'main' not saved: the sweep did not measure every case"));
  EXPECT_FALSE(fs::exists(path("baselines/main.json")));

  // A FIFO as --out: the baseline could not be read back from it, so the sweep is refused before
  // it opens the FIFO (which would block with no reader).
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  std::vector<std::string> to_fifo = sweep("1");
  for (const std::string& arg :
       {std::string("--out"), path("fifo"), std::string("--save-baseline"), std::string("main")})
    to_fifo.push_back(arg);
  r = run_process(to_fifo, env);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--save-baseline needs the results in a regular file"));
}

}  // namespace
}  // namespace moq::harness
