// The real moqbench binary as a user runs it: exit statuses, the JSON it writes, and, under
// callgrind (the uninstrumented build, since valgrind cannot run sanitized binaries), exact counts
// that repeat run after run and a harness overhead within budget.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/runner/case_builder.h"
#include "harness/runner/memory_estimate.h"
#include "harness/runner/registrar.h"
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
using ::testing::Not;
using testing::ProcessResult;
using testing::run_process;
using testing::RunningProcess;

// The harness's own cost per measured round, measured with the empty_round scenario.
constexpr uint64_t kHarnessOverheadBudget = 2000;

class MoqbenchBinaryTest : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> env() const { return {"TMPDIR=" + dir_.string()}; }
};

TEST_F(MoqbenchBinaryTest, BadInputExitsTwo) {
  ProcessResult r = run_process({MOQBENCH, "sweep", "--scenario", "nosuch"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("unknown scenario 'nosuch'"));
  r = run_process({MOQBENCH, "sweep", "--scenario", "group_write_frames", "--frames", "4;8"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("'4;8' is not an integer"));
  r = run_process({MOQBENCH, "sweep", "--scenario", "empty_round", "--counter", "none", "--out",
                   "/proc/moqbench-cannot-write-here.json"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("/proc/moqbench-cannot-write-here.json"));
}

TEST_F(MoqbenchBinaryTest, SweepWritesValidJson) {
  ProcessResult r =
      run_process({MOQBENCH, "sweep", "--scenario", "group_write_frames", "--frames", "4",
                   "--rounds", "2", "--warmup", "1", "--counter", "none", "--out", path("a.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  results::Result<results::ResultsFile> file = results::read_results_file(path("a.json"));
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_EQ(file->cases.size(), 2u);
  EXPECT_EQ(file->cases[0].id, "model/group_write_frames/none/frames=4/batch=1");
  EXPECT_EQ(file->cases[0].delivered.frames, 8u);
}

// Without --out a sweep keeps its results anyway: a timestamped file in the results folder (here
// a scratch one, named by MOQBENCH_RESULTS_DIR, so nothing lands in the build tree), latest.json
// beside it, and both paths named on stderr; a sweep of more than a few cases shows an ETA.
TEST_F(MoqbenchBinaryTest, SweepWithoutOutKeepsTimestampedResultsAndLatest) {
  const std::string folder = path("results");
  ProcessResult r = run_process({MOQBENCH, "sweep", "--scenario", "group_write_frames", "--frames",
                                 "4,8,16", "--rounds", "1", "--warmup", "0", "--counter", "none"},
                                {"MOQBENCH_RESULTS_DIR=" + folder});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::filesystem::path> sweeps;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().filename().string().rfind("sweep-", 0) == 0) sweeps.push_back(entry.path());
  ASSERT_EQ(sweeps.size(), 1u) << r.err;
  EXPECT_THAT(sweeps[0].filename().string(),
              ::testing::MatchesRegex("sweep-[0-9]{8}T[0-9]{6}Z\\.json"));
  EXPECT_THAT(r.err, HasSubstr(sweeps[0].string()));
  EXPECT_THAT(r.err, HasSubstr(folder + "/latest.json"));
  results::Result<results::ResultsFile> file = results::read_results_file(sweeps[0].string());
  ASSERT_TRUE(file) << file.error().message;
  EXPECT_EQ(file->cases.size(), 6u);
  results::Result<results::ResultsFile> latest =
      results::read_results_file(folder + "/latest.json");
  ASSERT_TRUE(latest) << latest.error().message;
  EXPECT_EQ(*latest, *file);
  // Six cases: the ETA appears once a few have been measured, not on the first line.
  EXPECT_THAT(r.err, HasSubstr("ETA "));
  EXPECT_THAT(r.err.substr(0, r.err.find("[2/6]")), Not(HasSubstr("ETA ")));

  // A second sweep gets a file of its own and moves latest.json to its results.
  r = run_process({MOQBENCH, "sweep", "--scenario", "group_write_frames", "--frames", "4",
                   "--rounds", "1", "--warmup", "0", "--counter", "none"},
                  {"MOQBENCH_RESULTS_DIR=" + folder});
  ASSERT_EQ(r.status, 0) << r.err;
  latest = results::read_results_file(folder + "/latest.json");
  ASSERT_TRUE(latest) << latest.error().message;
  EXPECT_EQ(latest->cases.size(), 2u);
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder))
    ++files;
  EXPECT_EQ(files, 3u);

  // A results folder that cannot be made is bad input, before anything runs.
  std::ofstream(path("plain")) << "x";
  r = run_process(
      {MOQBENCH, "sweep", "--scenario", "group_write_frames", "--frames", "4", "--counter", "none"},
      {"MOQBENCH_RESULTS_DIR=" + path("plain") + "/sub"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(path("plain") + "/sub"));
}

// The gate through the binary, on work not done: a sweep stopped by SIGINT after its first case
// lacks the rest of the base (exit 5, naming them); a pair with no case in common (exit 6); a
// pair measured with --counter none compared on instructions (exit 7) or on allocations alone.
TEST_F(MoqbenchBinaryTest, GateFailsOnAnInterruptedSweepADisjointPairAndUnmeasuredInstructions) {
  const std::vector<std::string> sweep = {MOQBENCH,   "sweep",  "--scenario", "group_write_frames",
                                          "--frames", "4,8,16", "--counter",  "none",
                                          "--warmup", "0",      "--rounds"};
  std::vector<std::string> full = sweep;
  for (const char* arg : {"1", "--out"})
    full.push_back(arg);
  full.push_back(path("base.json"));
  ProcessResult r = run_process(full);
  ASSERT_EQ(r.status, 0) << r.err;

  // Enough rounds that the sweep is still running when the signal comes.
  std::vector<std::string> slow = sweep;
  for (const char* arg : {"20000", "--out"})
    slow.push_back(arg);
  slow.push_back(path("head.json"));
  RunningProcess interrupted(slow);
  ASSERT_TRUE(interrupted.wait_for_stderr("[2/", std::chrono::seconds(120)));
  interrupted.signal(SIGINT);
  r = interrupted.wait();
  EXPECT_EQ(r.status, 128 + SIGINT) << r.err;
  results::Result<results::ResultsFile> head = results::read_results_file(path("head.json"));
  ASSERT_TRUE(head) << head.error().message;
  // The case running when the signal came is finished (this counter measures in-process), then
  // the sweep stops: one or two of the six cases.
  const size_t done = head->cases.size();
  ASSERT_GE(done, 1u);
  ASSERT_LT(done, 6u);
  // The file knows its plan and how its run ended.
  ASSERT_TRUE(head->meta.plan && head->meta.run);
  EXPECT_EQ(head->meta.plan->cases.size(), 6u);
  EXPECT_EQ(head->meta.run->state, results::RunState::kInterrupted);
  EXPECT_EQ(head->meta.run->signal, SIGINT);
  EXPECT_EQ(head->meta.run->cases_done, done);

  r = run_process(
      {MOQBENCH, "gate", path("base.json"), path("head.json"), "--metric", "allocations"});
  EXPECT_EQ(r.status, 4) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("interrupted by signal 2 after " + std::to_string(done) +
                               " of 6 planned cases"));
  EXPECT_THAT(r.out, HasSubstr("model/group_write_frames/none/frames=16/batch=1"));
  EXPECT_THAT(r.out, HasSubstr("metrics compared: allocations"));
  // --allow-removed does not excuse cases HEAD planned and never measured.
  r = run_process({MOQBENCH, "gate", path("base.json"), path("head.json"), "--metric",
                   "allocations", "--allow-removed"});
  EXPECT_EQ(r.status, 4) << r.out << r.err;
  r = run_process({MOQBENCH, "compare", path("base.json"), path("head.json")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("warning: head's run interrupted by signal 2"));
  EXPECT_THAT(r.out, HasSubstr("lacks " + std::to_string(6 - done) + " case(s) of BASE"));

  // A complete HEAD whose plan left cases out on purpose (fewer frames): refused by default,
  // accepted with --allow-removed.
  std::vector<std::string> smaller = {
      MOQBENCH,   "sweep",     "--scenario", "group_write_frames", "--frames",
      "4",        "--counter", "none",       "--warmup",           "0",
      "--rounds", "1",         "--out",      path("smaller.json")};
  ASSERT_EQ(run_process(smaller).status, 0);
  r = run_process(
      {MOQBENCH, "gate", path("base.json"), path("smaller.json"), "--metric", "allocations"});
  EXPECT_EQ(r.status, 5) << r.out << r.err;
  r = run_process({MOQBENCH, "gate", path("base.json"), path("smaller.json"), "--metric",
                   "allocations", "--allow-removed"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;

  // Instructions are the default metric and --counter none measured none.
  r = run_process({MOQBENCH, "gate", path("base.json"), path("base.json")});
  EXPECT_EQ(r.status, 7) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("instructions were not measured"));
  r = run_process(
      {MOQBENCH, "gate", path("base.json"), path("base.json"), "--metric", "allocations"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;

  std::vector<std::string> other = {
      MOQBENCH,   "sweep",     "--scenario", "group_write_frames", "--frames",
      "32",       "--counter", "none",       "--warmup",           "0",
      "--rounds", "1",         "--out",      path("other.json")};
  r = run_process(other);
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_process(
      {MOQBENCH, "gate", path("base.json"), path("other.json"), "--metric", "allocations"});
  EXPECT_EQ(r.status, 6) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("no case in common"));
}

// Runs the small sweep under callgrind and returns its results.
results::ResultsFile callgrind_sweep(const std::string& out, const std::vector<std::string>& env) {
  ProcessResult r =
      run_process({MOQBENCH_UNINSTRUMENTED,
                   "sweep",
                   "--scenario",
                   "fetch_frames,fetch_range,subscribe_frames,group_write_frames,empty_round",
                   "--versions",
                   "moq-lite-06,moq-transport-18",
                   "--publishers",
                   "1",
                   "--viewers",
                   "2",
                   "--frames",
                   "4,64",
                   "--burst",
                   "2",
                   "--rounds",
                   "3",
                   "--warmup",
                   "1",
                   "--counter",
                   "callgrind",
                   "--out",
                   out},
                  env);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("a process of its own under callgrind"));
  results::Result<results::ResultsFile> file = results::read_results_file(out);
  EXPECT_TRUE(file) << file.error().message << "\n" << r.err;
  return file ? *file : results::ResultsFile{};
}

TEST_F(MoqbenchBinaryTest, CallgrindCountsRepeatExactly) {
  results::ResultsFile one = callgrind_sweep(path("one.json"), env());
  results::ResultsFile two = callgrind_sweep(path("two.json"), env());
  EXPECT_EQ(one.meta.counter_backend, results::CounterBackend::kCallgrind);
  EXPECT_EQ(one.meta.counter_event, "Ir");
  // fetch_frames 2 versions x 2 frame counts, fetch_range 2 versions, subscribe_frames 2 x 2,
  // each on the model bench and on the relay bench at relays 1 and 2; group_write_frames 2 frame
  // counts x 2 batches, empty_round.
  ASSERT_EQ(one.cases.size(), 3 * (4u + 2u + 4u) + 4u + 1u);
  ASSERT_EQ(two.cases.size(), one.cases.size());
  for (size_t i = 0; i < one.cases.size(); ++i) {
    const results::CaseResult& a = one.cases[i];
    const results::CaseResult& b = two.cases[i];
    ASSERT_EQ(a.id, b.id);
    EXPECT_FALSE(a.flags.failed) << a.id << ": " << a.flags.reason.value_or("");
    ASSERT_TRUE(a.metrics.instructions) << a.id;
    ASSERT_TRUE(b.metrics.instructions) << b.id;
    EXPECT_EQ(a.metrics.instructions->samples, b.metrics.instructions->samples) << a.id;
    EXPECT_EQ(a.metrics.allocations->samples, b.metrics.allocations->samples) << a.id;
    EXPECT_EQ(a.metrics.allocation_bytes->samples, b.metrics.allocation_bytes->samples) << a.id;
    EXPECT_EQ(a.metrics.tasks_run->samples, b.metrics.tasks_run->samples) << a.id;
    EXPECT_EQ(a.delivered, b.delivered) << a.id;
    EXPECT_GT(a.metrics.instructions->min, 0u) << a.id;
  }
  // More frames cost more instructions: the count measures the round, not a constant.
  for (std::string base : {"model/fetch_frames/moq-lite-06/publishers=1/viewers=2/frames=",
                           "model/subscribe_frames/moq-transport-18/publishers=1/viewers=2/frames=",
                           "model/group_write_frames/none/frames="}) {
    std::string suffix = base.find("group_write") != std::string::npos ? "/batch=1" : "";
    const results::CaseResult* small = one.find_case(base + "4" + suffix);
    const results::CaseResult* large = one.find_case(base + "64" + suffix);
    ASSERT_TRUE(small && large) << base;
    EXPECT_GT(large->metrics.instructions->median, small->metrics.instructions->median) << base;
  }
  const results::CaseResult* empty = one.find_case("model/empty_round/none");
  ASSERT_TRUE(empty);
  EXPECT_LE(empty->metrics.instructions->max, kHarnessOverheadBudget);
  EXPECT_EQ(empty->metrics.allocations->max, 0u);
}

// A case's callgrind counts are the same whether it runs alone or inside a
// sweep of other cases, through `run` or `sweep`, with more measured rounds, a longer command
// line and output path, a larger environment, and from another copy of the binary (another build
// directory's path). Before each case ran in a process of its own, the sweep's neighbours moved
// these cases' counts (relay/fetch_frames ... frames=64: 216,313 or 218,647 inside the sweep,
// 213,899 alone).
TEST_F(MoqbenchBinaryTest, CallgrindCountsDependOnTheCaseAlone) {
  results::ResultsFile sweep = callgrind_sweep(path("sweep.json"), env());
  const std::filesystem::path other_build = dir_ / "another-build-directory" / "harness" / "cli";
  std::filesystem::create_directories(other_build);
  std::filesystem::copy_file(MOQBENCH_UNINSTRUMENTED, other_build / "moqbench");
  std::vector<std::string> big_env = env();
  big_env.push_back("MOQ_TEST_PADDING=" + std::string(3000, 'x'));
  for (const std::string id :
       {"relay/fetch_frames/moq-lite-06/relays=2/publishers=1/viewers=2/frames=64",
        "model/subscribe_frames/moq-transport-18/publishers=1/viewers=2/frames=4"}) {
    SCOPED_TRACE(id);
    const results::CaseResult* in_sweep = sweep.find_case(id);
    ASSERT_TRUE(in_sweep);
    const std::string long_out =
        path("a-much-longer-output-path-than-the-sweep-had-" + std::string(40, 'o') + ".json");
    for (const auto& [binary, environment] :
         {std::pair{std::string(MOQBENCH_UNINSTRUMENTED), env()},
          std::pair{(other_build / "moqbench").string(), big_env}}) {
      ProcessResult r = run_process({binary, "run", id, "--rounds", "5", "--warmup", "1",
                                     "--counter", "callgrind", "--out", long_out},
                                    environment);
      ASSERT_EQ(r.status, 0) << r.err;
      results::Result<results::ResultsFile> alone = results::read_results_file(long_out);
      ASSERT_TRUE(alone) << alone.error().message;
      const results::CaseResult& c = alone->cases.at(0);
      std::vector<uint64_t> first(c.metrics.instructions->samples.begin(),
                                  c.metrics.instructions->samples.begin() + 3);
      EXPECT_EQ(first, in_sweep->metrics.instructions->samples) << binary;
      std::vector<uint64_t> allocs(c.metrics.allocations->samples.begin(),
                                   c.metrics.allocations->samples.begin() + 3);
      EXPECT_EQ(allocs, in_sweep->metrics.allocations->samples) << binary;
    }
  }
}

// --roles: every measured round split into the five roles, each part measured by its own
// callgrind pass, adding up exactly to the plain measurement (instructions and allocations);
// each role that runs in the case costs something, and compare shows the split.
TEST_F(MoqbenchBinaryTest, RolesSplitEachRoundAndAddUpToItsTotal) {
  for (const std::string id : {"relay/join/moq-transport-22/relays=1/broadcasts=1",
                               "model/fetch_frames/moq-lite-06/publishers=1/viewers=2/frames=4",
                               "relay/fetch_frames/moq-lite-06/relays=2/publishers=1/viewers=2/"
                               "frames=4/transport=quic-sim"}) {
    SCOPED_TRACE(id);
    const std::string out = path("roles.json");
    ProcessResult r = run_process({MOQBENCH_UNINSTRUMENTED, "run", id, "--rounds", "2", "--warmup",
                                   "1", "--counter", "callgrind", "--roles", "--out", out},
                                  env());
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_THAT(r.out, HasSubstr("by role, first measured round"));
    results::Result<results::ResultsFile> file = results::read_results_file(out);
    ASSERT_TRUE(file) << file.error().message;
    const results::CaseResult& c = file->cases.at(0);
    ASSERT_EQ(c.roles.size(), 5u);
    const bool relayed = id.starts_with("relay/");
    for (size_t round = 0; round < 2; ++round) {
      uint64_t ir = 0, allocs = 0;
      for (const results::RoleCost& role : c.roles) {
        ir += role.instructions.samples[round];
        allocs += role.allocations.samples[round];
        const bool runs = role.role != "relay" || relayed;
        EXPECT_EQ(role.instructions.samples[round] > 0, runs) << role.role;
      }
      EXPECT_EQ(ir, c.metrics.instructions->samples[round]);
      EXPECT_EQ(allocs, c.metrics.allocations->samples[round]);
    }
    if (id.ends_with("quic-sim")) {  // QUIC's work is the transport's, and so are its allocations
      EXPECT_GT(c.roles[4].instructions.median, c.metrics.instructions->median / 2);
      EXPECT_EQ(c.roles[4].allocations.median, c.metrics.allocations->median);
    } else if (relayed) {  // a joining viewer allocates on the relay and in its own session
      EXPECT_GT(c.roles[2].allocations.median, 0u);
      EXPECT_GT(c.roles[3].allocations.median, 0u);
    }
    ProcessResult cmp = run_process({MOQBENCH_UNINSTRUMENTED, "compare", out, out});
    ASSERT_EQ(cmp.status, 0) << cmp.err;
    EXPECT_THAT(cmp.out, HasSubstr("by role (medians per round)"));
    EXPECT_THAT(cmp.out, HasSubstr("transport"));
  }
  // Bad combinations are refused by name.
  ProcessResult none =
      run_process({MOQBENCH_UNINSTRUMENTED, "run", "fetch_frames", "--counter", "none", "--roles"});
  EXPECT_EQ(none.status, 2);
  EXPECT_THAT(none.err, HasSubstr("--roles needs the callgrind counter"));
  ProcessResult quic =
      run_process({MOQBENCH_UNINSTRUMENTED, "run", "fetch_frames", "--set", "transport=quic",
                   "--counter", "callgrind", "--rounds", "1", "--roles"},
                  env());
  EXPECT_NE(quic.status, 0);
  EXPECT_THAT(quic.out + quic.err,
              HasSubstr("only the memory and quic-sim transports are split by role"));
}

// 1234567 -> "1,234,567", as the reports print counts.
std::string with_commas(uint64_t v) {
  std::string digits = std::to_string(v);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<size_t>(i), ",");
  return digits;
}

// explain diffs one measured round per function, from kept profiles, from
// results files (their binary measures the round again, the same round they recorded) and from
// binaries; the same build on both sides changes nothing.
TEST_F(MoqbenchBinaryTest, ExplainShowsWhereARoundsInstructionsWent) {
  const std::string small = "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=4";
  const std::string large = "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=64";
  for (const auto& [id, name] : {std::pair{small, "small"}, std::pair{large, "large"}}) {
    ProcessResult r = run_process(
        {MOQBENCH_UNINSTRUMENTED, "run", id, "--counter", "callgrind", "--rounds", "2", "--out",
         path(std::string(name) + ".json"), "--profile", path(std::string(name) + ".cg")},
        env());
    ASSERT_EQ(r.status, 0) << r.err;
  }
  results::Result<results::ResultsFile> small_results =
      results::read_results_file(path("small.json"));
  results::Result<results::ResultsFile> large_results =
      results::read_results_file(path("large.json"));
  ASSERT_TRUE(small_results && large_results);
  const uint64_t small_last = small_results->cases[0].metrics.instructions->samples.back();
  const uint64_t large_last = large_results->cases[0].metrics.instructions->samples.back();

  ProcessResult r = run_process(
      {MOQBENCH_UNINSTRUMENTED, "explain", path("small.cg"), path("large.cg"), "--top", "5"},
      env());
  ASSERT_EQ(r.status, 0) << r.err;
  // The profile is the last measured round: its total is that round's count.
  EXPECT_THAT(r.out, HasSubstr("small " + with_commas(small_last) + " -> large " +
                               with_commas(large_last) + " instructions"));
  EXPECT_THAT(r.out, HasSubstr("FrameParser::feed"));  // more frames: more frame parsing
  EXPECT_THAT(r.out, HasSubstr("not shown change self costs by +"));

  // Results files: the binary that wrote them measures the first measured round again.
  r = run_process({MOQBENCH_UNINSTRUMENTED, "explain", path("small.json"), path("large.json"),
                   "--format", "md"},
                  env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| function | self small | self large |"));
  EXPECT_THAT(r.err, Not(HasSubstr("differs from the results file")));

  // The binary is found by the absolute path the results record, not by the argv, which may be
  // relative to a directory the explaining process is not in.
  results::ResultsFile relative = *small_results;
  ASSERT_TRUE(relative.meta.executable);
  relative.meta.command_line[0] = "./somewhere-else/moqbench";
  ASSERT_TRUE(results::write_results_file(path("relative.json"), relative));
  r = run_process({MOQBENCH_UNINSTRUMENTED, "explain", path("relative.json"), path("small.json")},
                  env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0 functions changed"));

  // The same build on both sides: nothing changed.
  r = run_process(
      {MOQBENCH_UNINSTRUMENTED, "explain", MOQBENCH_UNINSTRUMENTED, MOQBENCH_UNINSTRUMENTED, small},
      env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(0, +0.00%)"));
  EXPECT_THAT(r.out, HasSubstr("0 functions changed"));

  r = run_process({MOQBENCH_UNINSTRUMENTED, "explain", path("small.json"), path("nothing.cg")},
                  env());
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("no such file"));
}

TEST_F(MoqbenchBinaryTest, AutoCounterSaysWhatItTookAndWhy) {
  ProcessResult r = run_process({MOQBENCH_UNINSTRUMENTED, "run", "model/empty_round/none",
                                 "--rounds", "1", "--warmup", "0", "--out", path("auto.json")},
                                env());
  ASSERT_EQ(r.status, 0) << r.err;
  results::Result<results::ResultsFile> file = results::read_results_file(path("auto.json"));
  ASSERT_TRUE(file) << file.error().message;
  // perf where the PMU works; without one (these machines), callgrind: valgrind is installed.
  if (file->meta.counter_backend == results::CounterBackend::kPerf) {
    EXPECT_THAT(r.err, HasSubstr("counter perf (auto"));
  } else {
    EXPECT_EQ(file->meta.counter_backend, results::CounterBackend::kCallgrind);
    EXPECT_THAT(r.err, HasSubstr("counter callgrind (auto: perf unavailable"));
    EXPECT_THAT(r.err, HasSubstr("re-running under"));
  }
}

// Scenarios register themselves. A linker drops the object files of a static archive that
// nothing refers to, registrars and all, so every MOQ_REGISTER_SCENARIO in scenarios/ must show up
// in `moqbench list` (and in a registry filled from what this test links).
TEST_F(MoqbenchBinaryTest, EveryRegisteredScenarioShowsUpInList) {
  size_t in_sources = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MOQ_SOURCE_DIR "/scenarios")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);)
      if (line.rfind("MOQ_REGISTER_SCENARIO(", 0) == 0) ++in_sources;
  }
  ASSERT_GT(in_sources, 0u);

  ProcessResult r = run_process({MOQBENCH, "list"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::set<std::string> listed;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const size_t at = line.find("  (bench: ");
    if (at != std::string::npos && line[0] != ' ') listed.insert(line.substr(0, at));
  }
  EXPECT_EQ(listed.size(), in_sources) << r.out;

  ScenarioRegistry registry;
  ASSERT_TRUE(register_linked_scenarios(registry));
  std::set<std::string> linked;
  for (const auto& def : registry.scenarios())
    linked.insert(def->name);
  EXPECT_EQ(linked, listed);
  EXPECT_EQ(registered_scenario_count(), in_sources);
}

// A case that cannot fit in what the process may use is refused before it is
// built, with its size and the axes to lower; it used to die in the allocator (SIGABRT) without a
// word. The address-space limit stands in for a smaller machine; the uninstrumented build, since
// a sanitizer's shadow memory does not fit under one.
TEST_F(MoqbenchBinaryTest, CaseThatCannotFitIsRefusedWithItsSizeAndTheAxesToLower) {
  const std::string id = "model/fetch_frames/moq-lite-06/publishers=1/viewers=1024/frames=65536";
  ProcessResult r = run_process({"/bin/sh", "-c",
                                 // One shell command in two literals, not a missing comma.
                                 // NOLINTNEXTLINE(bugprone-suspicious-missing-comma)
                                 "ulimit -v 2097152 && exec \"$0\" run \"$1\" --counter none "
                                 "--rounds 1 --warmup 0",
                                 MOQBENCH_UNINSTRUMENTED, id});
  EXPECT_EQ(r.status, 2) << "signal " << r.signal << "\n" << r.err;
  EXPECT_THAT(r.err, HasSubstr("case " + id + " needs about"));
  EXPECT_THAT(r.err, HasSubstr("GiB of memory, more than the 2.0 GiB this process may use"));
  EXPECT_THAT(r.err, HasSubstr("RLIMIT_AS"));
  EXPECT_THAT(r.err,
              HasSubstr("frames each viewer holds in a round (viewers 1024 x groups per round 1 x "
                        "frames 65536 x 320 B)"));
  EXPECT_THAT(r.err, HasSubstr("; lower viewers or frames"));
}

// The estimates stay above what the cases really use (peak resident set of the Release build), for
// the scenario whose viewers hold the most (subscribe_frames, with its viewers' caches) and the one
// whose viewers hold each round's frames (fetch_frames).
TEST_F(MoqbenchBinaryTest, MemoryEstimatesAreAboveThePeakUse) {
  ScenarioRegistry registry;
  ASSERT_TRUE(register_linked_scenarios(registry));
  for (const std::string id :
       {"model/fetch_frames/moq-lite-06/publishers=1/viewers=64/frames=16384",
        "model/fetch_frames/moq-transport-22/publishers=2/viewers=16/frames=16384",
        "model/subscribe_frames/moq-lite-06/publishers=1/viewers=8/frames=16384",
        "model/subscribe_frames/moq-transport-18/publishers=1/viewers=8/frames=4096"}) {
    Result<CaseSpec> spec = parse_case_id(registry, id);
    ASSERT_TRUE(spec) << spec.error().message;
    ASSERT_TRUE(spec->scenario().estimate_memory) << id;
    const uint64_t estimate = spec->scenario().estimate_memory(*spec).total();
    ProcessResult r = run_process({MOQBENCH_UNINSTRUMENTED, "run", id, "--counter", "none",
                                   "--rounds", "3", "--warmup", "1"});
    ASSERT_EQ(r.status, 0) << r.err;
    // The peak moqbench reports from inside (VmHWM), not wait4's ru_maxrss: Linux carries that
    // across exec, so under a sanitized test binary it was this test's own peak (98.9 MiB
    // "used" by a case that holds 41 MiB, on CI).
    const std::string marker = "peak memory ";
    const size_t at = r.out.find(marker);
    ASSERT_NE(at, std::string::npos) << r.out;
    const uint64_t used = std::stoull(r.out.substr(at + marker.size()));
    EXPECT_GE(estimate, used) << id << ": estimated " << format_bytes(estimate) << ", used "
                              << format_bytes(used);
    // And not so far above that it would refuse cases a machine can run.
    EXPECT_LE(estimate, 4 * used) << id << ": estimated " << format_bytes(estimate) << ", used "
                                  << format_bytes(used);
  }
}

// A callgrind run keeps every file it makes (out-file, region dumps, vgdb
// pipes) in one private directory under $TMPDIR and removes it however the run ends.
class CallgrindTmpdirTest : public MoqbenchBinaryTest {
 protected:
  void SetUp() override {
    MoqbenchBinaryTest::SetUp();
    tmp_ = dir_ / "tmp";
    std::filesystem::create_directories(tmp_);
  }
  std::vector<std::string> tmp_entries() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(tmp_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::vector<std::string> tmp_env() const { return {"TMPDIR=" + tmp_.string()}; }

  std::filesystem::path tmp_;
};

TEST_F(CallgrindTmpdirTest, RunLeavesNothingInTmpdir) {
  ProcessResult r = run_process({MOQBENCH_UNINSTRUMENTED, "run", "model/empty_round/none",
                                 "--counter", "callgrind", "--rounds", "2", "--warmup", "0"},
                                tmp_env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("a process of its own under callgrind"));
  EXPECT_THAT(tmp_entries(), ::testing::IsEmpty());
}

TEST_F(CallgrindTmpdirTest, InterruptedSweepLeavesNothingInTmpdir) {
  for (int sig : {SIGINT, SIGTERM}) {
    RunningProcess sweep({MOQBENCH_UNINSTRUMENTED, "sweep", "--scenario", "fetch_frames",
                          "--counter", "callgrind", "--rounds", "20"},
                         tmp_env());
    // The second case has started: the first was measured under callgrind, dumps and all.
    ASSERT_TRUE(sweep.wait_for_stderr("[2/", std::chrono::seconds(300))) << strsignal(sig);
    const std::vector<std::string> during = tmp_entries();
    ASSERT_EQ(during.size(), 1u) << "one private directory, nothing else: "
                                 << ::testing::PrintToString(during);
    EXPECT_THAT(during[0], ::testing::StartsWith("moq-callgrind."));
    sweep.signal(sig);
    ProcessResult r = sweep.wait();
    // The sweep stops, records how it ended and exits as a shell reports a signal's end.
    EXPECT_EQ(r.status, 128 + sig) << "exits 128 + the signal it was sent\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr("interrupted by signal " + std::to_string(sig)));
    EXPECT_THAT(tmp_entries(), ::testing::IsEmpty()) << strsignal(sig);
  }
}

TEST_F(CallgrindTmpdirTest, RunRemovesWhatKilledRunsLeft) {
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);  // reaped: no process has this pid now
  const std::string dead_dir = "moq-callgrind." + std::to_string(dead) + ".a1B2c3";
  const std::string dead_old_file = "moq-callgrind." + std::to_string(dead) + ".out";
  const std::string live_dir = "moq-callgrind." + std::to_string(getpid()) + ".d4E5f6";
  std::filesystem::create_directories(tmp_ / dead_dir);
  std::ofstream(tmp_ / dead_dir / "callgrind.out") << "left by a killed run\n";
  std::ofstream(tmp_ / dead_old_file) << "left by an older version\n";
  std::filesystem::create_directories(tmp_ / live_dir);  // this test process is alive
  std::ofstream(tmp_ / "unrelated.txt") << "not ours\n";

  ProcessResult r = run_process({MOQBENCH_UNINSTRUMENTED, "run", "model/empty_round/none",
                                 "--counter", "callgrind", "--rounds", "1", "--warmup", "0"},
                                tmp_env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(tmp_entries(), (std::vector<std::string>{live_dir, "unrelated.txt"}));
}

}  // namespace
}  // namespace moq::harness
