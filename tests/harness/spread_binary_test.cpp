// The spread of a metric over the rounds, through the real moqbench binary: wall time spreads and
// the table shows it, an exact counter (callgrind) honestly shows none, compare judges a change
// against the rounds' spread, and a results file of an older schema is still read.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <vector>

#include "reports/schema/json_io.h"
#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary of this build"
#endif
#ifndef MOQBENCH_UNINSTRUMENTED
#error "MOQBENCH_UNINSTRUMENTED must name the uninstrumented moqbench binary"
#endif
#ifndef MOQ_SOURCE_DIR
#error "MOQ_SOURCE_DIR must name the source tree"
#endif

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::run_process;

constexpr const char* kCase = "model/group_write_frames/none/frames=4/batch=16";

class SpreadBinaryTest : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> env() const { return {"TMPDIR=" + dir_.string()}; }

  results::ResultsFile read(const std::string& name) const {
    results::Result<results::ResultsFile> file = results::read_results_file(path(name));
    EXPECT_TRUE(file.ok()) << file.error().message;
    return file.ok() ? *file : results::ResultsFile{};
  }

  void write(const std::string& name, const results::ResultsFile& file) const {
    ASSERT_TRUE(results::write_results_file(path(name), file).ok());
  }
};

TEST_F(SpreadBinaryTest, WallTimeSpreadsAndTheResultsCarryIt) {
  // The scenario's own warm-up, so the rounds measured allocate alike and only the clock varies.
  ProcessResult r = run_process(
      {MOQBENCH, "run", kCase, "--counter", "none", "--rounds", "5", "--out", path("wall.json")},
      env());
  ASSERT_EQ(r.status, 0) << r.err;
  // The summary has the spread columns, and the file their figures, agreeing with the samples.
  EXPECT_THAT(r.out, HasSubstr("stddev"));
  EXPECT_THAT(r.out, HasSubstr("outliers"));
  const results::ResultsFile file = read("wall.json");
  ASSERT_EQ(file.cases.size(), 1u);
  const results::MetricStats& wall = *file.cases[0].metrics.wall_ns;
  ASSERT_EQ(wall.samples.size(), 5u);
  EXPECT_GT(wall.stddev, 0.0) << "five rounds of wall time all equal to the nanosecond";
  EXPECT_NEAR(wall.cv, wall.stddev / wall.mean, 1e-12);
  // Tukey's fences over the five rounds, quartiles interpolated between the sorted samples.
  std::vector<double> sorted(wall.samples.begin(), wall.samples.end());
  std::sort(sorted.begin(), sorted.end());
  const double q1 = sorted[1], q3 = sorted[3];  // positions 0.25 x 4 and 0.75 x 4
  const auto outside = std::count_if(sorted.begin(), sorted.end(), [&](double v) {
    return v < q1 - 1.5 * (q3 - q1) || v > q3 + 1.5 * (q3 - q1);
  });
  EXPECT_EQ(wall.outliers, static_cast<uint64_t>(outside));
  // Counts that repeat have no spread.
  EXPECT_EQ(file.cases[0].metrics.allocations->stddev, 0.0);
  EXPECT_EQ(file.cases[0].metrics.allocations->outliers, 0u);
  std::ifstream in(path("wall.json"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("\"schema\": \"moqbench.results/3\""));
  EXPECT_THAT(text, HasSubstr("\"outliers\":"));

  // The sweep table shows median ± spread for the wall time.
  r = run_process(
      {MOQBENCH, "sweep", "--scenario", "group_write_frames", "--set", "frames=4", "--set",
       "batch=16", "--counter", "none", "--rounds", "3", "--out", path("sweep.json")},
      env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::ContainsRegex("[0-9]+ ±[0-9]+\\.[0-9]%"));
  EXPECT_THAT(r.out, HasSubstr("± their coefficient of variation"));
}

TEST_F(SpreadBinaryTest, AnExactCounterShowsNoSpread) {
  // With the scenario's warm-up (the first rounds fill pools and differ), callgrind's count
  // repeats round after round.
  ProcessResult r = run_process({MOQBENCH_UNINSTRUMENTED, "run", kCase, "--counter", "callgrind",
                                 "--rounds", "3", "--out", path("exact.json")},
                                env());
  ASSERT_EQ(r.status, 0) << r.err;
  const results::ResultsFile file = read("exact.json");
  ASSERT_EQ(file.cases.size(), 1u);
  const results::MetricStats& ir = *file.cases[0].metrics.instructions;
  ASSERT_EQ(ir.samples.size(), 3u);
  EXPECT_EQ(ir.min, ir.max);
  EXPECT_EQ(ir.stddev, 0.0);
  EXPECT_EQ(ir.cv, 0.0);
  EXPECT_EQ(ir.outliers, 0u);
}

// Two files of different commits (so no rerun or build noise between them) whose instruction
// medians differ by 1%: noise when the rounds spread by several percent, a regression when they
// barely spread. The summary line agrees with the marker.
TEST_F(SpreadBinaryTest, CompareJudgesAChangeAgainstTheRoundsSpread) {
  ProcessResult r = run_process({MOQBENCH, "run", kCase, "--counter", "none", "--warmup", "0",
                                 "--rounds", "5", "--out", path("template.json")},
                                env());
  ASSERT_EQ(r.status, 0) << r.err;
  results::ResultsFile base = read("template.json");
  ASSERT_EQ(base.cases.size(), 1u);
  // The instructions a counter would have given: set by hand, so the verdict is the rule's.
  base.meta.counter_backend = results::CounterBackend::kCallgrind;
  base.meta.counter_event = "Ir";
  base.meta.git_commit = std::string(40, 'a');
  base.meta.git_dirty = false;
  auto with = [](results::ResultsFile file, std::vector<uint64_t> samples, char commit) {
    file.cases[0].metrics.instructions = results::compute_stats(std::move(samples));
    file.meta.git_commit = std::string(40, commit);
    return file;
  };
  // cv about 4%: twice sqrt(2) x 4% is far above 1%.
  write("noisy_base.json", with(base, {10000, 9500, 10400, 9700, 10300}, 'a'));
  write("noisy_head.json", with(base, {10100, 9600, 10500, 9800, 10400}, 'b'));
  // cv about 0.01%: 1% is beyond it.
  write("quiet_base.json", with(base, {10000, 10001, 10000, 10002, 10000}, 'a'));
  write("quiet_head.json", with(base, {10100, 10101, 10100, 10102, 10100}, 'b'));

  r = run_process({MOQBENCH, "compare", path("noisy_base.json"), path("noisy_head.json")}, env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("+1.00% (noise)"));
  EXPECT_THAT(r.out, HasSubstr("1 within noise"));
  EXPECT_THAT(r.out, HasSubstr("The rounds' spread counts as noise too"));

  r = run_process({MOQBENCH, "compare", path("quiet_base.json"), path("quiet_head.json")}, env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("+1.00%"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("+1.00% (noise)")));
  EXPECT_THAT(r.out, HasSubstr("1 regressed"));

  r = run_process(
      {MOQBENCH, "compare", path("noisy_base.json"), path("noisy_head.json"), "--format", "json"},
      env());
  ASSERT_EQ(r.status, 0) << r.err;
  const results::Json doc = results::Json::parse(r.out);
  const results::Json& row = doc["cases"][0];
  EXPECT_EQ(row["verdict"], "within noise");
  EXPECT_EQ(row["significant"][1], false);
  EXPECT_GT(row["spread_pct"][1].get<double>(), 1.0);
  EXPECT_EQ(row["spread_pct"][0], nullptr);
}

// Removes the spread figures (and callgrind's simulated metrics) a version 3 writer adds, leaving
// what a version 2 writer wrote.
void strip_to_version_2(results::Json& j) {
  if (j.is_object()) {
    if (j.contains("samples")) {
      for (const char* key : {"stddev", "cv", "outliers"})
        j.erase(key);
    }
    for (const char* key : {"l1_misses", "ll_misses", "branch_misses"})
      j.erase(key);
    for (auto& item : j.items())
      strip_to_version_2(item.value());
  } else if (j.is_array()) {
    for (results::Json& e : j)
      strip_to_version_2(e);
  }
}

// The committed gate baseline (whatever schema it was written with) reads; as version 2 and 1
// files its stats get their spread from their samples, so compare judges against it: zero spread
// where callgrind repeated its count, some where its rounds differed.
TEST_F(SpreadBinaryTest, OlderSchemaFilesAreStillRead) {
  const std::string baseline = std::string(MOQ_SOURCE_DIR) + "/tests/gate/baseline.json";
  ProcessResult r = run_process({MOQBENCH, "report", baseline, "--md"}, env());
  ASSERT_EQ(r.status, 0) << r.err;

  results::Json v2 = results::Json::parse(std::ifstream(baseline));
  strip_to_version_2(v2);
  v2["schema"] = "moqbench.results/2";
  std::ofstream(path("v2.json")) << v2.dump();
  r = run_process({MOQBENCH, "compare", path("v2.json"), path("v2.json"), "--format", "json"},
                  env());
  ASSERT_EQ(r.status, 0) << r.err;
  const results::Json doc = results::Json::parse(r.out);
  ASSERT_EQ(doc["cases"].size(), v2["cases"].size());
  size_t repeating = 0;
  for (const results::Json& row : doc["cases"]) {
    const results::Json* written = nullptr;
    for (const results::Json& c : v2["cases"])
      if (c["id"] == row["id"]) written = &c;
    ASSERT_NE(written, nullptr) << row["id"];
    const results::Json& samples = (*written)["metrics"]["instructions"]["samples"];
    if (samples.size() < 2) continue;
    const bool repeats = std::all_of(samples.begin(), samples.end(),
                                     [&](const results::Json& s) { return s == samples[0]; });
    if (repeats) {
      ++repeating;
      EXPECT_EQ(row["spread_pct"][1], 0.0) << row["id"];
    } else {
      EXPECT_GT(row["spread_pct"][1].get<double>(), 0.0) << row["id"];
    }
  }
  EXPECT_GT(repeating, 0u) << "no case of the baseline repeats its count";

  // The same file as version 1 (no plan, no run end).
  results::Json v1 = v2;
  v1["schema"] = "moqbench.results/1";
  v1["meta"].erase("plan");
  v1["meta"].erase("run");
  std::ofstream(path("v1.json")) << v1.dump();
  r = run_process({MOQBENCH, "report", path("v1.json"), "--md"}, env());
  EXPECT_EQ(r.status, 0) << r.err;
  r = run_process({MOQBENCH, "compare", path("v1.json"), baseline}, env());
  EXPECT_EQ(r.status, 0) << r.err;

  // A version 2 file holding a spread key is not a version 2 file.
  v2["cases"][0]["metrics"]["allocations"]["stddev"] = 0.0;
  std::ofstream(path("bad.json")) << v2.dump();
  r = run_process({MOQBENCH, "compare", path("bad.json"), baseline}, env());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.err, HasSubstr("cases[0].metrics.allocations.stddev: unknown field"));
}

}  // namespace
}  // namespace moq::harness
