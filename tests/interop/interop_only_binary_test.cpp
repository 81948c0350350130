// An interop-only version (moq-transport-17, kept for @moq/lite) with the real binary: `list`
// marks it, the default sweep and the default fault runs leave it out, and every command that
// takes a version runs it when named, in each spelling; a misspelt one is still bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::run_process;

constexpr const char* kName = "moq-transport-17";

class InteropOnlyTest : public testing::ScratchDirTest {};

TEST_F(InteropOnlyTest, ListMarksIt) {
  const ProcessResult r = run_process({MOQBENCH, "list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("moq-transport-17 (interop only)"));
  // A swept version carries no mark.
  EXPECT_THAT(r.out, HasSubstr("moq-transport-22"));
  EXPECT_THAT(r.out, Not(HasSubstr("moq-transport-22 (interop only)")));
}

TEST_F(InteropOnlyTest, TheDefaultSweepLeavesItOutAndANamedOneRunsIt) {
  const ProcessResult all = run_process({MOQBENCH, "sweep", "--list"});
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_THAT(all.out, HasSubstr("/moq-transport-22/"));
  EXPECT_THAT(all.out, Not(HasSubstr(kName)));
  // Named, in each spelling a command takes.
  for (const char* spelling : {"moq-transport-17", "moqt-17", "draft-17"}) {
    const ProcessResult named = run_process(
        {MOQBENCH, "sweep", "--list", "--scenario", "subscribe_frames", "--versions", spelling});
    ASSERT_EQ(named.status, 0) << spelling << ": " << named.err;
    EXPECT_THAT(named.out, HasSubstr("model/subscribe_frames/moq-transport-17/")) << spelling;
  }
  const ProcessResult bad =
      run_process({MOQBENCH, "sweep", "--list", "--versions", "moq-transport-16"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err, HasSubstr("moq-transport-16"));
}

TEST_F(InteropOnlyTest, RunAndSweepMeasureIt) {
  const ProcessResult run = run_process({MOQBENCH, "run",
                                         "model/subscribe_frames/moq-transport-17/publishers=1/"
                                         "viewers=1/frames=4",
                                         "--rounds", "1", "--warmup", "0", "--counter", "none"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("delivered 4 frames"));
  const ProcessResult sweep = run_process({MOQBENCH,       "sweep", "--scenario", "fetch_frames",
                                           "--bench",      "relay", "--versions", "moqt-17",
                                           "--publishers", "1",     "--viewers",  "1",
                                           "--frames",     "4",     "--set",      "relays=1",
                                           "--rounds",     "1",     "--warmup",   "0",
                                           "--counter",    "none",  "--out",      path("s.json")});
  ASSERT_EQ(sweep.status, 0) << sweep.out << sweep.err;
  EXPECT_THAT(sweep.out, HasSubstr("relay/fetch_frames/moq-transport-17/"));
}

// (Not the goaway fault: a -17 session never sends GOAWAY, which closes a @moq/lite session.)
TEST_F(InteropOnlyTest, FaultsRunItWhenNamed) {
  const ProcessResult named = run_process(
      {MOQBENCH, "faults", "--versions", "moqt-17", "--seeds", "1", "--fault", "relay-reconnect"});
  ASSERT_EQ(named.status, 0) << named.out << named.err;
  EXPECT_THAT(named.out, HasSubstr(kName));
}

}  // namespace
}  // namespace moq::harness
