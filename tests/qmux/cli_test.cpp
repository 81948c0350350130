// transport=qmux from the outside: the real moqbench runs cases of both families over QMux-00
// frames on the in-memory byte pipe, counts them the same on every run under callgrind (the
// uninstrumented binary: valgrind cannot run sanitized ones), splits them by role, and refuses
// what the world cannot do with exit 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#if !defined(MOQBENCH) || !defined(MOQBENCH_UNINSTRUMENTED)
#error "MOQBENCH and MOQBENCH_UNINSTRUMENTED must name the moqbench binaries"
#endif

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::run_process;

class QmuxCli : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> env() const { return {"TMPDIR=" + dir_.string()}; }
  // One case run; its result.
  results::CaseResult run(const std::string& binary, const std::string& id,
                          std::vector<std::string> extra, const std::string& name) {
    const std::string out = path(name);
    std::vector<std::string> args = {binary, "run", id, "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = run_process(args, env());
    EXPECT_EQ(r.status, 0) << r.err << r.out;
    results::Result<results::ResultsFile> file = results::read_results_file(out);
    EXPECT_TRUE(file && file->cases.size() == 1) << (file ? "" : file.error().message);
    if (!file || file->cases.size() != 1) return {};
    return file->cases[0];
  }
};

TEST_F(QmuxCli, BothFamiliesDeliverOverQmux) {
  for (const std::string id :
       {"model/subscribe_frames/moq-lite-06/publishers=1/viewers=2/frames=4/transport=qmux",
        "model/fetch_frames/moq-transport-22/publishers=1/viewers=2/frames=4/transport=qmux",
        "relay/subscribe_frames/moq-transport-18/relays=2/publishers=1/viewers=2/frames=4/"
        "transport=qmux",
        "model/subscribe_frames/moq-lite-07-wip/publishers=2/viewers=3/frames=16/"
        "frame_size=40000/transport=qmux"}) {
    SCOPED_TRACE(id);
    const results::CaseResult c =
        run(MOQBENCH, id, {"--rounds", "1", "--warmup", "0", "--counter", "none"}, "run.json");
    EXPECT_EQ(c.id, id);
    EXPECT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  }
}

// Two runs count the same, and a steady-state round allocates what the memory world's does.
TEST_F(QmuxCli, CallgrindCountsRepeatExactly) {
  const std::string id =
      "model/subscribe_frames/moq-lite-06/publishers=1/viewers=2/frames=64/transport=qmux";
  const std::vector<std::string> args = {"--rounds", "2",         "--warmup",
                                         "1",        "--counter", "callgrind"};
  const results::CaseResult one = run(MOQBENCH_UNINSTRUMENTED, id, args, "one.json");
  const results::CaseResult two = run(MOQBENCH_UNINSTRUMENTED, id, args, "two.json");
  ASSERT_FALSE(one.flags.failed) << one.flags.reason.value_or("");
  ASSERT_TRUE(one.metrics.instructions && two.metrics.instructions);
  EXPECT_EQ(one.metrics.instructions->samples, two.metrics.instructions->samples);
  EXPECT_EQ(one.metrics.allocations->samples, two.metrics.allocations->samples);
  const std::string memory_id = id.substr(0, id.size() - std::string("/transport=qmux").size());
  const results::CaseResult memory = run(MOQBENCH_UNINSTRUMENTED, memory_id, args, "memory.json");
  ASSERT_TRUE(memory.metrics.allocations);
  EXPECT_EQ(one.metrics.allocations->samples, memory.metrics.allocations->samples);
  // QMux frames cost more than handing slices across, and nothing on the pipe is a packet.
  EXPECT_GT(one.metrics.instructions->median, memory.metrics.instructions->median);
  EXPECT_FALSE(one.metrics.packets);
}

TEST_F(QmuxCli, RolesSplitTheQmuxWorld) {
  const std::string id =
      "model/subscribe_frames/moq-transport-22/publishers=1/viewers=1/frames=4/transport=qmux";
  const results::CaseResult c =
      run(MOQBENCH_UNINSTRUMENTED, id,
          {"--rounds", "1", "--warmup", "1", "--counter", "callgrind", "--roles"}, "roles.json");
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  ASSERT_EQ(c.roles.size(), 5u);
  uint64_t ir = 0;
  for (const results::RoleCost& role : c.roles)
    ir += role.instructions.samples[0];
  EXPECT_EQ(ir, c.metrics.instructions->samples[0]);
  EXPECT_GT(c.roles[4].instructions.samples[0], 0u);  // the framing and the pipe: transport
}

TEST_F(QmuxCli, WhatTheWorldCannotDoIsExitTwo) {
  const std::string misspelt =
      "model/subscribe_frames/moq-lite-06/publishers=1/viewers=1/frames=4/transport=qmuxx";
  ProcessResult r = run_process({MOQBENCH, "run", misspelt, "--counter", "none"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("qmuxx"));
  r = run_process({MOQBENCH, "run", "subscribe_frames", "--set", "transport=qmux", "--set",
                   "latency_ms=5", "--counter", "none"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("transport=qmux runs on an in-memory byte pipe with no link model"));
}

TEST_F(QmuxCli, TheDefaultSweepLeavesQmuxOut) {
  ProcessResult r = run_process({MOQBENCH, "sweep", "--list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("transport=qmux")));
  r = run_process(
      {MOQBENCH, "sweep", "--list", "--scenario", "subscribe_frames", "--set", "transport=qmux"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("/transport=qmux"));
}

}  // namespace
}  // namespace moq::harness
