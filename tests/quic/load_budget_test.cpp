// The load budget: 16 publishers x 64 viewers of 1 KiB frames at 30 frames/s for 10 s
// against the in-process relay, the whole process pinned to one core, with no frame lost.
// The uninstrumented moqbench (a sanitized one is several times slower). Label `long`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH_UNINSTRUMENTED
#error "MOQBENCH_UNINSTRUMENTED must name the uninstrumented moqbench binary"
#endif

namespace moq::harness {
namespace {

using testing::ProcessResult;
using testing::run_process;

class LoadBudget : public testing::ScratchDirTest {};

TEST_F(LoadBudget, SixteenBySixtyFourAt30FpsOnOneCoreLosesNothing) {
  ProcessResult r =
      run_process({"/usr/bin/taskset", "-c", "0", MOQBENCH_UNINSTRUMENTED, "load", "--publishers",
                   "16", "--viewers", "64", "--frame-size", "1024", "--fps", "30", "--duration",
                   "10", "--max-loss", "0", "--out", path("load.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  std::printf("%s", r.out.c_str());
  results::Result<results::ResultsFile> f = results::read_results_file(path("load.json"));
  ASSERT_TRUE(f) << f.error().message;
  const results::LoadSummary& l = *f->cases.at(0).load;
  EXPECT_EQ(l.frames_expected, 64u * 30 * 10);
  EXPECT_EQ(l.frames_lost, 0u);
}

}  // namespace
}  // namespace moq::harness
