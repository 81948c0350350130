// The quic-sim world gives the same instruction and allocation counts on every run of the same
// build and arguments (reruns 0.00% apart, so that any change a commit makes shows), under
// callgrind, in two processes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

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

class QuicSimCounts : public testing::ScratchDirTest {
 protected:
  results::ResultsFile sweep(const std::string& name,
                             const std::vector<std::string>& network = {"transport=quic-sim"},
                             const std::string& scenarios = "fetch_frames,subscribe_frames") {
    const std::string out = path(name);
    std::vector<std::string> args = {MOQBENCH_UNINSTRUMENTED,
                                     "sweep",
                                     "--scenario",
                                     scenarios,
                                     "--versions",
                                     "moq-lite-06,moq-transport-22",
                                     "--publishers",
                                     "1",
                                     "--viewers",
                                     "2",
                                     "--frames",
                                     "64",
                                     "--set",
                                     "relays=2",
                                     "--rounds",
                                     "3",
                                     "--warmup",
                                     "1",
                                     "--counter",
                                     "callgrind",
                                     "--out",
                                     out};
    for (const std::string& setting : network) {
      args.push_back("--set");
      args.push_back(setting);
    }
    ProcessResult r = run_process(args, {"TMPDIR=" + dir_.string()});
    EXPECT_EQ(r.status, 0) << r.err;
    results::Result<results::ResultsFile> file = results::read_results_file(out);
    EXPECT_TRUE(file) << file.error().message << "\n" << r.err;
    return file ? *file : results::ResultsFile{};
  }
};

TEST_F(QuicSimCounts, RerunsGiveIdenticalCounts) {
  results::ResultsFile one = sweep("one.json");
  results::ResultsFile two = sweep("two.json");
  // 2 scenarios x 2 versions, on the model bench and the relay bench at 2 relays.
  ASSERT_EQ(one.cases.size(), 8u);
  ASSERT_EQ(two.cases.size(), one.cases.size());
  for (size_t i = 0; i < one.cases.size(); ++i) {
    const results::CaseResult& a = one.cases[i];
    const results::CaseResult& b = two.cases[i];
    ASSERT_EQ(a.id, b.id);
    EXPECT_THAT(a.id, ::testing::EndsWith("/transport=quic-sim"));
    ASSERT_FALSE(a.flags.failed) << a.id << ": " << a.flags.reason.value_or("");
    ASSERT_TRUE(a.metrics.instructions && b.metrics.instructions) << a.id;
    EXPECT_EQ(a.metrics.instructions->samples, b.metrics.instructions->samples) << a.id;
    EXPECT_EQ(a.metrics.allocations->samples, b.metrics.allocations->samples) << a.id;
    EXPECT_EQ(a.metrics.allocation_bytes->samples, b.metrics.allocation_bytes->samples) << a.id;
    ASSERT_TRUE(a.metrics.packets && b.metrics.packets) << a.id;
    EXPECT_EQ(a.metrics.packets->samples, b.metrics.packets->samples) << a.id;
    EXPECT_EQ(a.metrics.udp_bytes->samples, b.metrics.udp_bytes->samples) << a.id;
    EXPECT_EQ(a.delivered, b.delivered) << a.id;
  }
}

// The network model (sim/net) repeats exactly too: the same seed gives the same counts on memory
// and quic-sim, and another seed gives other draws (quic-sim's lost packets change its counts).
TEST_F(QuicSimCounts, ShapedNetworksRepeatExactlyAndFollowTheSeed) {
  const std::vector<std::string> shaped = {"transport=memory,quic-sim", "latency_ms=20",
                                           "bandwidth_kbps=20000", "loss_pct=5"};
  std::vector<std::string> seed3 = shaped, seed4 = shaped;
  seed3.push_back("seed=3");
  seed4.push_back("seed=4");
  results::ResultsFile one = sweep("shaped-one.json", seed3, "fetch_frames");
  results::ResultsFile two = sweep("shaped-two.json", seed3, "fetch_frames");
  results::ResultsFile other = sweep("shaped-other.json", seed4, "fetch_frames");
  // 2 transports x 2 versions, on the model bench and the relay bench at 2 relays.
  ASSERT_EQ(one.cases.size(), 8u);
  ASSERT_EQ(two.cases.size(), one.cases.size());
  ASSERT_EQ(other.cases.size(), one.cases.size());
  bool seed_matters = false;
  for (size_t i = 0; i < one.cases.size(); ++i) {
    const results::CaseResult& a = one.cases[i];
    const results::CaseResult& b = two.cases[i];
    ASSERT_EQ(a.id, b.id);
    EXPECT_THAT(a.id,
                ::testing::HasSubstr("/latency_ms=20/bandwidth_kbps=20000/loss_pct=5/seed=3"));
    ASSERT_FALSE(a.flags.failed) << a.id << ": " << a.flags.reason.value_or("");
    ASSERT_FALSE(other.cases[i].flags.failed) << other.cases[i].id;
    EXPECT_EQ(a.metrics.instructions->samples, b.metrics.instructions->samples) << a.id;
    EXPECT_EQ(a.metrics.allocations->samples, b.metrics.allocations->samples) << a.id;
    EXPECT_EQ(a.delivered, b.delivered) << a.id;
    if (a.metrics.packets) {
      EXPECT_EQ(a.metrics.packets->samples, b.metrics.packets->samples) << a.id;
      seed_matters |=
          a.metrics.packets->samples != other.cases[i].metrics.packets->samples ||
          a.metrics.instructions->samples != other.cases[i].metrics.instructions->samples;
    }
  }
  EXPECT_TRUE(seed_matters) << "seed 4 gave quic-sim the same losses as seed 3";
}

// A round that allocates counts the same whatever the measured process's surroundings. The
// allocator's pages once went back to the OS on a clock-measured delay, and this case's third
// round then cost a few hundred instructions more or less as $TMPDIR grew by one character (which
// moves where the heap's earlier allocations fall); which lengths flipped it depended on the rest
// of the path, so four lengths in a row are tried.
TEST_F(QuicSimCounts, AnAllocatingRoundCountsTheSameWhateverTheTemporaryFolder) {
  const std::string id =
      "relay/fetch_frames/moq-lite-06/relays=2/publishers=1/viewers=2/frames=64/"
      "transport=quic-sim/latency_ms=20/bandwidth_kbps=20000/loss_pct=5/seed=3";
  std::vector<results::ResultsFile> runs;
  for (const std::string tmp : {"t", "tt", "ttt", "tttt"}) {
    std::filesystem::create_directories(path(tmp));
    const std::string out = path(tmp + ".json");
    ProcessResult r = run_process({MOQBENCH_UNINSTRUMENTED, "run", id, "--rounds", "3", "--warmup",
                                   "1", "--counter", "callgrind", "--out", out},
                                  {"TMPDIR=" + path(tmp)});
    ASSERT_EQ(r.status, 0) << r.err;
    results::Result<results::ResultsFile> file = results::read_results_file(out);
    ASSERT_TRUE(file) << file.error().message;
    ASSERT_EQ(file->cases.size(), 1u);
    ASSERT_FALSE(file->cases[0].flags.failed) << file->cases[0].flags.reason.value_or("");
    runs.push_back(*file);
  }
  // The case allocates in its measured rounds, so the allocator's own paths are on it.
  EXPECT_GT(runs[0].cases[0].metrics.allocations->max, 0u);
  for (size_t i = 1; i < runs.size(); ++i)
    EXPECT_EQ(runs[i].cases[0].metrics.instructions->samples,
              runs[0].cases[0].metrics.instructions->samples)
        << "TMPDIR of " << i + 1 << " characters against 1";
}

}  // namespace
}  // namespace moq::harness
