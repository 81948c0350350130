// callgrind's cache and branch simulators through the real moqbench binary: `--cache-sim` and
// `--branch-sim` add l1_misses, ll_misses and branch_misses per round without changing the
// instruction count, a case that touches more memory misses more (larger frames over QUIC, whose
// packets copy and encrypt the payload; the in-memory transport passes payloads by reference, so
// there the frame size changes nothing), compare and report show them,
// gate judges them with --metric, explain diffs them with --event, and the flags are refused with
// any counter but callgrind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary of this build"
#endif
#ifndef MOQBENCH_UNINSTRUMENTED
#error "MOQBENCH_UNINSTRUMENTED must name the uninstrumented moqbench binary"
#endif

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::run_process;

constexpr const char* kSmall =
    "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=4/transport=quic-sim";
constexpr const char* kLarge =
    "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=4/frame_size=16384/"
    "transport=quic-sim";

class CacheSimBinaryTest : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> env() const { return {"TMPDIR=" + dir_.string()}; }

  results::ResultsFile read(const std::string& name) const {
    results::Result<results::ResultsFile> file = results::read_results_file(path(name));
    EXPECT_TRUE(file.ok()) << file.error().message;
    return file.ok() ? *file : results::ResultsFile{};
  }

  // Both frame sizes in one callgrind sweep (the model bench alone), one round each, with
  // `flags` added.
  ProcessResult sweep(const std::string& out, std::vector<std::string> flags) const {
    std::vector<std::string> argv = {MOQBENCH_UNINSTRUMENTED,
                                     "sweep",
                                     "--scenario",
                                     "fetch_frames",
                                     "--filter",
                                     "^model/",
                                     "--set",
                                     "version=moq-lite-06",
                                     "--set",
                                     "publishers=1",
                                     "--set",
                                     "viewers=1",
                                     "--set",
                                     "frames=4",
                                     "--set",
                                     "frame_size=64,16384",
                                     "--set",
                                     "transport=quic-sim",
                                     "--counter",
                                     "callgrind",
                                     "--rounds",
                                     "1",
                                     "--warmup",
                                     "1",
                                     "--out",
                                     path(out)};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return run_process(argv, env());
  }
};

TEST_F(CacheSimBinaryTest, SimulatedMissesGrowWithTheMemoryTouchedAndLeaveInstructionsAlone) {
  ProcessResult r = sweep("plain.json", {});
  ASSERT_EQ(r.status, 0) << r.err;
  r = sweep("sim.json", {"--cache-sim", "--branch-sim"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("l1_misses"));
  EXPECT_THAT(r.out, HasSubstr("branch_misses"));

  const results::ResultsFile plain = read("plain.json");
  const results::ResultsFile sim = read("sim.json");
  ASSERT_EQ(plain.cases.size(), 2u);
  ASSERT_EQ(sim.cases.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    // Without the flags there is nothing simulated; with them, the same instructions.
    for (results::Metric m : results::kSimMetrics)
      EXPECT_FALSE(plain.cases[i].metrics.get(m).has_value()) << results::metric_name(m);
    EXPECT_EQ(sim.cases[i].id, plain.cases[i].id);
    EXPECT_EQ(sim.cases[i].metrics.instructions->samples,
              plain.cases[i].metrics.instructions->samples)
        << sim.cases[i].id;
    for (results::Metric m : results::kSimMetrics) {
      ASSERT_TRUE(sim.cases[i].metrics.get(m).has_value()) << results::metric_name(m);
      EXPECT_EQ(sim.cases[i].metrics.get(m)->stddev, 0.0) << "one round has no spread";
    }
    EXPECT_GT(sim.cases[i].metrics.branch_misses->median, 0u);
  }
  const results::CaseResult* small = sim.find_case(kSmall);
  const results::CaseResult* large = sim.find_case(kLarge);
  ASSERT_TRUE(small && large);
  // Each round starts with empty simulated caches (callgrind clears them when the round switches
  // instrumentation on), so its misses follow the lines it touches: four 16 KiB frames copied
  // into packets and encrypted touch far more of them than four 64-byte frames.
  EXPECT_GT(large->metrics.l1_misses->median, 2 * small->metrics.l1_misses->median);
  EXPECT_GT(large->metrics.ll_misses->median, small->metrics.ll_misses->median);
  EXPECT_GE(small->metrics.l1_misses->median, small->metrics.ll_misses->median);

  // report carries them.
  r = run_process({MOQBENCH, "report", path("sim.json"), "--md"}, env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ll_misses"));

  // gate --metric: a head whose first-level misses grew 50% regresses (exit 3), unless the
  // metric is not gated; a file without the metric is bad input.
  results::ResultsFile worse = sim;
  for (results::CaseResult& c : worse.cases) {
    std::vector<uint64_t> samples = c.metrics.l1_misses->samples;
    for (uint64_t& s : samples)
      s += s / 2 + 1;
    c.metrics.l1_misses = results::compute_stats(samples);
  }
  ASSERT_TRUE(results::write_results_file(path("worse.json"), worse).ok());
  // compare shows them side by side; the plain files have none to show.
  r = run_process({MOQBENCH, "compare", path("sim.json"), path("worse.json")}, env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("l1_misses sim -> worse"));
  EXPECT_THAT(r.out, HasSubstr("branch_misses"));
  r = run_process({MOQBENCH, "compare", path("plain.json"), path("sim.json")}, env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("l1_misses plain -> sim"));
  r = run_process({MOQBENCH, "gate", path("sim.json"), path("worse.json"), "--metric", "l1_misses"},
                  env());
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("l1_misses"));
  r = run_process({MOQBENCH, "gate", path("sim.json"), path("worse.json"), "--metric",
                   "instructions,ll_misses,branch_misses"},
                  env());
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  r = run_process(
      {MOQBENCH, "gate", path("plain.json"), path("plain.json"), "--metric", "l1_misses"}, env());
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("has no l1_misses"));
  EXPECT_THAT(r.err, HasSubstr("--cache-sim"));
}

TEST_F(CacheSimBinaryTest, ExplainDiffsTheSimulatedMissesOfTwoProfiles) {
  for (const auto& [id, name] : {std::pair{kSmall, "small"}, std::pair{kLarge, "large"}}) {
    ProcessResult r =
        run_process({MOQBENCH_UNINSTRUMENTED, "run", id, "--counter", "callgrind", "--rounds", "1",
                     "--warmup", "0", "--cache-sim", "--profile", path(std::string(name) + ".cg")},
                    env());
    ASSERT_EQ(r.status, 0) << r.err;
  }
  ProcessResult r = run_process({MOQBENCH, "explain", path("small.cg"), path("large.cg"), "--event",
                                 "l1_misses", "--top", "3"},
                                env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(" l1_misses ("));
  r = run_process(
      {MOQBENCH, "explain", path("small.cg"), path("large.cg"), "--event", "D1mw", "--top", "3"},
      env());
  EXPECT_EQ(r.status, 0) << r.err;
  // Instructions still explain by default; a branch event the profiles lack is named.
  r = run_process({MOQBENCH, "explain", path("small.cg"), path("large.cg"), "--top", "3"}, env());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(" instructions ("));
  r = run_process(
      {MOQBENCH, "explain", path("small.cg"), path("large.cg"), "--event", "branch_misses"}, env());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.err, HasSubstr("has no Bcm event"));
  r = run_process({MOQBENCH, "explain", path("small.cg"), path("large.cg"), "--event", "cycles"},
                  env());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.err, HasSubstr("--event 'cycles'"));
}

TEST_F(CacheSimBinaryTest, TheSimulatorsNeedTheCallgrindCounter) {
  for (const char* flag : {"--cache-sim", "--branch-sim"}) {
    ProcessResult r = run_process({MOQBENCH, "run", kSmall, "--counter", "none", "--rounds", "1",
                                   flag, "--out", path("never.json")},
                                  env());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr(std::string(flag) + " needs the callgrind counter"));
    EXPECT_FALSE(std::filesystem::exists(path("never.json"))) << "refused before anything ran";
  }
  ProcessResult r = run_process({MOQBENCH, "sweep", "--scenario", "transport_write_read",
                                 "--counter", "none", "--cache-sim", "--branch-sim"},
                                env());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--cache-sim and --branch-sim need the callgrind counter"));
  r = run_process({MOQBENCH, "run", kSmall, "--counter", "callgrind", "--roles", "--cache-sim"},
                  env());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--cache-sim and --roles measure differently"));
}

}  // namespace
}  // namespace moq::harness
