// The moqbench command line driven in-process (run_cli) over the test registry plus the real
// scenarios: --help everywhere, bad input exits 2 naming the bad value, a sweep's JSON validates,
// a failed delivery check is recorded and makes the exit status non-zero.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/cli/cli.h"
#include "harness/cli/fatal_errors.h"
#include "harness/runner/registrar.h"
#include "reports/schema/results_file.h"
#include "tests/harness/fake_scenarios.h"
#include "tests/harness/in_process_cli.h"
#include "tests/harness/scratch_dir_test.h"

namespace moq::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using harness::testing::CliRun;

class CliTest : public harness::testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    registry_ = harness::testing::make_test_registry();
    for (const char* name : {"group_write_frames", "empty_round"}) {
      Result<harness::ScenarioDef> def = harness::registered_scenario(name);
      ASSERT_TRUE(def) << def.error().message;
      ASSERT_TRUE(registry_.add(std::move(*def)));
    }
  }

  CliRun cli(std::vector<std::string> args) {
    return harness::testing::run_in_process(registry_, std::move(args));
  }

  harness::ScenarioRegistry registry_;
};

TEST_F(CliTest, HelpOnEverySubcommand) {
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--help"},
                                             {"list", "--help"},
                                             {"run", "--help"},
                                             {"sweep", "--help"},
                                             {"compare", "--help"},
                                             {"gate", "--help"},
                                             {"report", "--help"},
                                             {"baselines", "--help"}}) {
    CliRun r = cli(args);
    EXPECT_EQ(r.status, 0) << args.front();
    EXPECT_THAT(r.out, HasSubstr("Usage")) << args.front();
  }
  EXPECT_THAT(cli({"sweep", "--help"}).out, HasSubstr("--publishers"));
  EXPECT_THAT(cli({"run", "--help"}).out, HasSubstr("--set"));
}

TEST_F(CliTest, ListShowsScenariosAxesAndDefaults) {
  CliRun r = cli({"list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("versions: implemented moq-lite-06, moq-lite-07-wip"));
  EXPECT_THAT(r.out, HasSubstr("group_write_frames"));
  EXPECT_THAT(r.out, HasSubstr("integer, default 256, allowed 1..65536, sweep 4,256"));
  EXPECT_THAT(r.out, HasSubstr("empty_round"));
  EXPECT_THAT(r.out, HasSubstr("in the case id only when not 64"));
  EXPECT_EQ(cli({"list", "versioned"}).status, 0);
}

TEST_F(CliTest, BadInputExitsTwoNamingTheValue) {
  struct Bad {
    std::vector<std::string> args;
    std::string names;
  };
  std::vector<Bad> bads = {
      {{"run", "nosuch"}, "unknown scenario 'nosuch'"},
      {{"list", "nosuch"}, "unknown scenario 'nosuch'"},
      {{"sweep", "--scenario", "plain,nosuch"}, "unknown scenario 'nosuch'"},
      {{"run", "plain", "--set", "burst=2"}, "has no axis 'burst'"},
      {{"run", "plain", "--set", "count"}, "--set 'count': expected axis=value"},
      {{"run", "model/versioned/moq-lite-99"}, "unknown version 'moq-lite-99'"},
      {{"sweep", "--versions", "moq-lite-06,moq-lite-99"}, "unknown version 'moq-lite-99'"},
      {{"sweep", "--versions", "moq-transport-18"}, "'moq-transport-18' is not implemented yet"},
      {{"sweep", "--publishers", "1,,4"}, "--publishers: malformed list '1,,4'"},
      {{"sweep", "--viewers", "1,x"}, "--viewers: axis 'viewers': 'x' is not an integer"},
      {{"sweep", "--burst", "2"}, "--burst: no selected scenario has the axis 'burst'"},
      {{"sweep", "--scenario", "plain", "--set", "count=0"}, "'0' is outside 1..10"},
      {{"sweep", "--bench", "lab"}, "--bench: unknown bench 'lab'"},
      {{"sweep", "--counter", "cycles"}, "unknown counter 'cycles'"},
      {{"sweep", "--scenario", "plain", "--counter", "none", "--out", path("missing-dir/x.json")},
       "missing-dir/x.json"},
      {{"sweep", "--rounds", "0"}, "--rounds"},
      {{"sweep", "--no-such-option"}, "--no-such-option"},
      {{"frobnicate"}, "frobnicate"},
  };
  for (const Bad& b : bads) {
    CliRun r = cli(b.args);
    std::string what = ::testing::PrintToString(b.args);
    EXPECT_EQ(r.status, kExitBadInput) << what << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(b.names)) << what;
  }
}

TEST_F(CliTest, SweepWritesValidJsonAndATable) {
  const std::string out = path("sweep.json");
  CliRun r = cli({"sweep", "--scenario", "group_write_frames", "--frames", "4,16", "--rounds", "3",
                  "--warmup", "1", "--counter", "none", "--out", out});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[1/4] model/group_write_frames/none/frames=4/batch=1"));
  EXPECT_THAT(r.err, HasSubstr("[4/4] model/group_write_frames/none/frames=16/batch=16"));
  EXPECT_THAT(r.err, HasSubstr("elapsed"));
  EXPECT_THAT(r.out, HasSubstr("model/group_write_frames/none/frames=16/batch=1"));
  EXPECT_THAT(r.out, HasSubstr("allocs"));

  results::Result<results::ResultsFile> file = results::read_results_file(out);  // validates
  ASSERT_TRUE(file) << file.error().message;
  EXPECT_EQ(file->meta.counter_backend, results::CounterBackend::kNone);
  EXPECT_FALSE(file->meta.counter_event);
  EXPECT_EQ(file->meta.command_line.front(), "moqbench");
  ASSERT_EQ(file->cases.size(), 4u);
  for (const results::CaseResult& c : file->cases) {
    EXPECT_FALSE(c.flags.failed) << c.id << ": " << c.flags.reason.value_or("");
    EXPECT_EQ(c.rounds.measured, 3u);
    EXPECT_EQ(c.delivered.frames,
              3u * static_cast<uint64_t>(std::get<int64_t>(c.find_param("frames")->value)));
    EXPECT_EQ(c.delivered.bytes, 64u * c.delivered.frames);
    EXPECT_FALSE(c.metrics.instructions);
    EXPECT_EQ(c.metrics.tasks_run->samples.size(), 3u);
  }
}

TEST_F(CliTest, RunPrintsASummary) {
  CliRun r = cli({"run", "group_write_frames", "--set", "frames=8", "--set", "batch=4", "--rounds",
                  "2", "--warmup", "1", "--counter", "none"});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  EXPECT_THAT(r.out, HasSubstr("case      model/group_write_frames/none/frames=8/batch=4"));
  EXPECT_THAT(r.out, HasSubstr("allocations"));
  EXPECT_THAT(r.out, HasSubstr("delivered 16 frames, 1024 bytes"));
  CliRun by_id = cli({"run", "model/group_write_frames/none/frames=8/batch=4", "--rounds", "2",
                      "--warmup", "1", "--counter", "none"});
  ASSERT_EQ(by_id.status, kExitOk) << by_id.err;
  EXPECT_THAT(by_id.out, HasSubstr("case      model/group_write_frames/none/frames=8/batch=4"));
}

TEST_F(CliTest, FailedDeliveryIsRecordedAndTheSweepGoesOn) {
  const std::string out = path("failed.json");
  CliRun r = cli({"sweep", "--scenario", "broken,plain", "--set", "count=1", "--rounds", "2",
                  "--warmup", "1", "--counter", "none", "--out", out});
  EXPECT_EQ(r.status, kExitFailed) << r.err;
  EXPECT_THAT(r.err,
              HasSubstr("FAILED model/broken/none: measured round 1: delivery check failed"));
  EXPECT_THAT(r.out, HasSubstr("FAILED"));
  results::Result<results::ResultsFile> file = results::read_results_file(out);
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_EQ(file->cases.size(), 2u);
  EXPECT_TRUE(file->cases[0].flags.failed);
  EXPECT_THAT(file->cases[0].flags.reason.value_or(""), HasSubstr("delivery check failed"));
  EXPECT_FALSE(file->cases[1].flags.failed);
  EXPECT_EQ(file->cases[1].id, "model/plain/none/count=1");
}

TEST_F(CliTest, SweepListPrintsTheDefaultSweep) {
  CliRun r = cli({"sweep", "--list"});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  EXPECT_EQ(r.out,
            "model/versioned/moq-lite-06/publishers=1/viewers=1/mode=fast\n"
            "model/versioned/moq-lite-06/publishers=1/viewers=16/mode=fast\n"
            "model/versioned/moq-lite-06/publishers=4/viewers=1/mode=fast\n"
            "model/versioned/moq-lite-06/publishers=4/viewers=16/mode=fast\n"
            "model/versioned/moq-lite-07-wip/publishers=1/viewers=1/mode=fast\n"
            "model/versioned/moq-lite-07-wip/publishers=1/viewers=16/mode=fast\n"
            "model/versioned/moq-lite-07-wip/publishers=4/viewers=1/mode=fast\n"
            "model/versioned/moq-lite-07-wip/publishers=4/viewers=16/mode=fast\n");
}

TEST_F(CliTest, ReportCommandsReadSweepResults) {
  const std::string base = path("base.json"), head = path("head.json");
  for (const std::string& out : {base, head}) {
    CliRun r = cli({"sweep", "--scenario", "plain", "--rounds", "2", "--warmup", "1", "--counter",
                    "none", "--out", out});
    ASSERT_EQ(r.status, kExitOk) << r.err;
  }
  CliRun compare = cli({"compare", base, head});
  EXPECT_EQ(compare.status, 0) << compare.err;
  EXPECT_THAT(compare.out, HasSubstr("model/plain/none/count=3"));
  // Counted with --counter none: the gate compares the metric that was measured.
  CliRun gate = cli({"gate", base, head, "--format", "md", "--metric", "allocations"});
  EXPECT_EQ(gate.status, 0) << gate.err;
  EXPECT_THAT(gate.out, HasSubstr("model/plain/none/count=1"));
  CliRun report = cli({"report", base, "--md"});
  EXPECT_EQ(report.status, 0) << report.err;
  EXPECT_FALSE(report.out.empty());

  CliRun bad_format = cli({"compare", base, head, "--format", "xml"});
  EXPECT_EQ(bad_format.status, kExitBadInput);
  EXPECT_THAT(bad_format.err, HasSubstr("xml"));
  CliRun missing = cli({"compare", base, path("missing.json")});
  EXPECT_EQ(missing.status, kExitBadInput);
  EXPECT_THAT(missing.err, HasSubstr("missing.json"));
  CliRun one_file = cli({"compare", base});
  EXPECT_EQ(one_file.status, kExitBadInput);
}

// ---- Harness defects found with hostile inputs and careless use ----------------------------

class CliReportInputTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    base_ = path("base.json");
    head_ = path("head.json");
    for (const std::string& out : {base_, head_}) {
      CliRun r = cli({"sweep", "--scenario", "plain", "--rounds", "2", "--warmup", "1", "--counter",
                      "none", "--out", out});
      ASSERT_EQ(r.status, kExitOk) << r.err;
    }
  }
  std::string base_, head_;
};

TEST_F(CliReportInputTest, DeeplyNestedJsonIsBadInputNotACrash) {
  const std::string deep = path("deep.json");
  {
    std::ofstream out(deep);
    out << std::string(100000, '[') << std::string(100000, ']') << '\n';
  }
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"compare", base_, deep}, {"gate", base_, deep}, {"report", deep, "--md"}}) {
    CliRun r = cli(args);
    EXPECT_EQ(r.status, kExitBadInput) << args.front() << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(deep + ": nested deeper than 64 levels")) << args.front();
  }
}

TEST_F(CliReportInputTest, ADirectoryIsNamedAsOne) {
  CliRun r = cli({"compare", base_, dir_.string()});
  EXPECT_EQ(r.status, kExitBadInput) << r.err;
  EXPECT_THAT(r.err, HasSubstr(dir_.string() + ": is a directory, not a results file"));
  EXPECT_THAT(r.err, Not(HasSubstr("not valid JSON")));
}

TEST_F(CliReportInputTest, GateRefusesNegativeAndOutOfRangeLimits) {
  struct Bad {
    std::string option, value;
  };
  for (const Bad& b : std::vector<Bad>{{"--max-allocations-increase", "-1"},
                                       {"--max-allocations-increase", "-5"},
                                       {"--max-allocations-increase", "18446744073709551616"},
                                       {"--max-allocations-increase", "1.5"},
                                       {"--max-allocations-increase", "x"},
                                       {"--max-instructions-regression", "-1"},
                                       {"--max-instructions-regression", "nan"},
                                       {"--max-instructions-regression", "inf"},
                                       {"--max-instructions-regression", "1e999"}}) {
    CliRun r = cli({"gate", base_, head_, b.option, b.value});
    EXPECT_EQ(r.status, kExitBadInput) << b.option << " " << b.value << "\n" << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr(b.option)) << b.value;
    EXPECT_THAT(r.err, HasSubstr("\"" + b.value + "\"")) << b.option;
  }
  // The largest count and a plain percentage still work.
  EXPECT_EQ(cli({"gate", base_, head_, "--max-allocations-increase", "18446744073709551615",
                 "--metric", "allocations"})
                .status,
            kExitOk);
  // Instructions were not measured (--counter none): the percentage is accepted, and the gate
  // then says it had no instructions to compare.
  EXPECT_EQ(cli({"gate", base_, head_, "--max-instructions-regression", "2.5"}).status, 7);
}

TEST_F(CliTest, RunSaysWhatItFilledInAndTheCanonicalId) {
  const std::string canonical = "model/versioned/moq-lite-06/publishers=1/viewers=1/mode=fast";
  CliRun partial = cli({"run", "model/versioned/moq-lite-06/publishers=1", "--rounds", "1",
                        "--warmup", "0", "--counter", "none"});
  ASSERT_EQ(partial.status, kExitOk) << partial.err;
  EXPECT_THAT(partial.err, HasSubstr("filled in from the defaults: viewers=1, mode=fast"));
  EXPECT_THAT(partial.err, HasSubstr("running " + canonical));

  CliRun reordered = cli({"run", "model/versioned/moq-lite-06/viewers=1/publishers=1/mode=fast",
                          "--rounds", "1", "--warmup", "0", "--counter", "none"});
  ASSERT_EQ(reordered.status, kExitOk) << reordered.err;
  EXPECT_THAT(reordered.err, HasSubstr("running " + canonical));
  EXPECT_THAT(reordered.err, Not(HasSubstr("filled in")));

  CliRun padded = cli({"run", "model/versioned/moq-lite-06/publishers=01/viewers=1/mode=fast",
                       "--rounds", "1", "--warmup", "0", "--counter", "none"});
  ASSERT_EQ(padded.status, kExitOk) << padded.err;
  EXPECT_THAT(padded.err, HasSubstr("'publishers=01' is written 'publishers=1'"));
  EXPECT_THAT(padded.err, HasSubstr("running " + canonical));

  CliRun exact = cli({"run", canonical, "--rounds", "1", "--warmup", "0", "--counter", "none"});
  ASSERT_EQ(exact.status, kExitOk) << exact.err;
  EXPECT_THAT(exact.err, Not(HasSubstr("running ")));
}

TEST_F(CliTest, CpuOutOfRangeNamesTheCpuNotPerf) {
  CliRun r = cli({"run", "model/plain/none/count=1", "--rounds", "1", "--warmup", "0", "--counter",
                  "none", "--cpu", "999"});
  EXPECT_EQ(r.status, kExitBadInput) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--cpu 999"));
  EXPECT_THAT(r.err, HasSubstr("this thread may run on CPUs"));
  EXPECT_THAT(r.err, Not(HasSubstr("perf")));
}

TEST_F(CliTest, CaseBeyondMemoryIsBadInputNamingTheSizeAndTheAxis) {
  harness::ScenarioDef huge;
  huge.name = "huge";
  huge.summary = "a case whose estimate no machine has";
  huge.axes = {harness::AxisSpec::integer("viewers", "viewers", 1, 1, 1024, {1, 1024})};
  huge.make = [](const harness::CaseSpec&) -> Result<std::unique_ptr<harness::Case>> {
    return harness::testing::make_fake_case({});
  };
  huge.estimate_memory = [](const harness::CaseSpec& spec) {
    harness::MemoryEstimate e;
    e.add("what each viewer holds", uint64_t{1} << 50,
          {{"viewers", static_cast<uint64_t>(spec.integer("viewers"))}}, {"viewers"});
    return e;
  };
  ASSERT_TRUE(registry_.add(std::move(huge)));
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"run", "model/huge/none/viewers=2"}, {"sweep", "--scenario", "huge"}}) {
    args.insert(args.end(), {"--counter", "none", "--rounds", "1", "--warmup", "0"});
    CliRun r = cli(args);
    EXPECT_EQ(r.status, kExitBadInput) << r.err;
    EXPECT_THAT(r.err, HasSubstr(" PiB of memory, more than the"));
    EXPECT_THAT(r.err, HasSubstr("physical memory"));
    EXPECT_THAT(r.err, HasSubstr("; lower viewers"));
    EXPECT_THAT(r.err, Not(HasSubstr("[1/"))) << "refused before anything ran";
  }
}

[[noreturn]] void throw_bad_alloc() {
  throw std::bad_alloc();
}
[[noreturn]] void throw_runtime_error() {
  throw std::runtime_error("escaped");
}

// An exception where none may escape (a noexcept function, a destructor) ends the program through
// std::terminate: the handler says what it was instead of a bare abort.
TEST(FatalErrors, AnExceptionThatEndsTheProgramIsNamed) {
  EXPECT_DEATH(
      {
        install_fatal_error_handlers("moqbench");
        []() noexcept { throw_bad_alloc(); }();
      },
      "moqbench: out of memory \\(std::bad_alloc\\)");
  EXPECT_DEATH(
      {
        install_fatal_error_handlers("moqbench");
        []() noexcept { throw_runtime_error(); }();
      },
      "moqbench: fatal: an exception escaped: escaped");
}

// A growth order planted in a test scenario (a round allocating n*n/16 times)
// is classified O(n^2) from 4 points by `fit`, and `gate --growth` with an O(n) bound fails on
// it; its linear twin passes.
TEST_F(CliTest, APlantedQuadraticFailsTheGrowthGate) {
  for (const char* order : {"quadratic", "linear"}) {
    SCOPED_TRACE(order);
    const std::string out = path("growth.json");
    CliRun sweep =
        cli({"sweep", "--scenario", "planted_growth", "--set", std::string("order=") + order,
             "--rounds", "2", "--warmup", "1", "--counter", "none", "--out", out});
    ASSERT_EQ(sweep.status, 0) << sweep.err;
    CliRun fit = cli({"fit", out, "--axis", "n", "--metric", "allocations"});
    ASSERT_EQ(fit.status, 0) << fit.err;
    EXPECT_THAT(fit.out, HasSubstr(std::string("model/planted_growth/none/n=*/order=") + order));
    EXPECT_THAT(fit.out, HasSubstr(std::string(order) == "quadratic" ? "O(n^2)" : "O(n)"));
    CliRun gate =
        cli({"gate", out, out, "--growth", "planted_growth/n=O(n)", "--growth-metric",
             "allocations", "--max-allocations-increase", "100000", "--metric", "allocations"});
    if (std::string(order) == "quadratic") {
      EXPECT_EQ(gate.status, 3) << gate.out << gate.err;
      EXPECT_THAT(gate.err, HasSubstr("grows O(n^2), beyond O(n)"));
    } else {
      EXPECT_EQ(gate.status, 0) << gate.out << gate.err;
    }
  }
}

}  // namespace
}  // namespace moq::cli
