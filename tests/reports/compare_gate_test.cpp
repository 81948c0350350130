// compare and gate over synthetic results files written by the test: zero deltas for identical
// files, regressions named with exit 3, NEW/REMOVED, mismatched backends exit 2, override files,
// the noise column for same-build files, and the four output formats.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/commands.h"
#include "reports/compare.h"
#include "reports/gate.h"
#include "reports/overrides.h"
#include "reports/schema/json_io.h"
#include "reports/table.h"
#include "tests/reports/synthetic.h"

namespace moq::reports {
namespace {

using results::CaseResult;
using results::CounterBackend;
using results::Json;
using results::ResultsFile;
using results::testing::kCommitA;
using results::testing::kCommitB;
using results::testing::synthetic_case;
using results::testing::synthetic_meta;
using results::testing::TempDir;
using results::testing::write_synthetic;

const std::string kFrames1 = "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=1";
const std::string kFrames16 = "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=16";
const std::string kFrames256 = "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=256";
const std::string kFanout = "model/fanout/moq-transport-18/mode=paced/viewers=4";
const std::string kNewCase = "model/fanout/moq-transport-18/mode=paced/viewers=64";

CaseResult frames_case(int64_t frames, uint64_t instructions, uint64_t allocations,
                       CounterBackend backend = CounterBackend::kCallgrind) {
  return synthetic_case("fetch_frames", "moq-lite-06",
                        {{"publishers", 1}, {"viewers", 1}, {"frames", frames}}, instructions,
                        allocations, backend);
}

CaseResult fanout_case(int64_t viewers, uint64_t instructions, uint64_t allocations,
                       CounterBackend backend = CounterBackend::kCallgrind) {
  return synthetic_case("fanout", "moq-transport-18",
                        {{"mode", std::string("paced")}, {"viewers", viewers}}, instructions,
                        allocations, backend);
}

ResultsFile base_file(CounterBackend backend = CounterBackend::kCallgrind,
                      const std::string& commit = kCommitA) {
  ResultsFile file;
  file.meta = synthetic_meta(backend, commit);
  file.cases = {frames_case(1, 10000, 2, backend), frames_case(16, 40000, 2, backend),
                frames_case(256, 400000, 3, backend), fanout_case(4, 90000, 5, backend)};
  return file;
}

CaseResult* find(ResultsFile& file, const std::string& id) {
  for (CaseResult& c : file.cases) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

struct CommandRun {
  int code;
  std::string out;
  std::string err;
};

CommandRun compare_files(const std::vector<std::string>& files, OutputFormat format) {
  std::ostringstream out, err;
  const int code = run_compare({files, format}, out, err);
  return {code, out.str(), err.str()};
}

CommandRun gate_files(const GateCommand& command) {
  std::ostringstream out, err;
  const int code = run_gate(command, out, err);
  return {code, out.str(), err.str()};
}

GateCommand gate_command(const std::string& base, const std::string& head,
                         OutputFormat format = OutputFormat::kTable) {
  GateCommand command;
  command.base = base;
  command.head = head;
  command.format = format;
  return command;
}

// The line of `text` that mentions id, or "" (rows are one line each in table output).
std::string line_of(const std::string& text, const std::string& id) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    // Match the whole id, not a prefix of a longer one (frames=1 vs frames=16).
    const size_t at = line.find(id);
    if (at != std::string::npos && (at + id.size() == line.size() || line[at + id.size()] == ' ' ||
                                    line[at + id.size()] == ',' || line[at + id.size()] == '`' ||
                                    line[at + id.size()] == '|')) {
      return line;
    }
  }
  return "";
}

TEST(Compare, IdenticalFilesGiveZeroDeltas) {
  TempDir dir;
  const std::string base = write_synthetic(dir, "base.json", base_file());
  CommandRun run = compare_files({base, base}, OutputFormat::kJson);
  ASSERT_EQ(run.code, 0) << run.err;
  const Json doc = Json::parse(run.out);
  ASSERT_EQ(doc["cases"].size(), 4u);
  for (const Json& row : doc["cases"]) {
    EXPECT_EQ(row["status"], "matched");
    EXPECT_EQ(row["instructions"][0], row["instructions"][1]);
    EXPECT_EQ(row["instructions_change_pct"][1].get<double>(), 0.0) << row["id"];
    EXPECT_EQ(row["allocations"][0], row["allocations"][1]);
  }
  // A file with itself is the same commit and build: the noise column appears, all zero.
  EXPECT_EQ(doc["same_build_pairs"], Json::parse("[[0, 1]]"));
  for (const Json& row : doc["cases"])
    EXPECT_EQ(row["noise"]["rerun"]["instructions_pct"], 0.0);

  CommandRun gate = gate_files(gate_command(base, base, OutputFormat::kJson));
  EXPECT_EQ(gate.code, kExitOk) << gate.out << gate.err;
  const Json verdicts = Json::parse(gate.out);
  EXPECT_EQ(verdicts["result"], "passed");
  EXPECT_EQ(verdicts["counts"]["unchanged"], 4);
  for (const Json& c : verdicts["cases"])
    EXPECT_EQ(c["instructions"]["change_pct"], 0.0);
}

TEST(Gate, TwoPercentMoreInstructionsRegressesAndNamesTheCase) {
  TempDir dir;
  ResultsFile head = base_file(CounterBackend::kCallgrind, kCommitB);
  find(head, kFrames16)->metrics.instructions =
      results::compute_stats({40800, 40800, 40800, 40800});
  const std::string base_path = write_synthetic(dir, "base.json", base_file());
  const std::string head_path = write_synthetic(dir, "head.json", head);
  CommandRun run = gate_files(gate_command(base_path, head_path));
  EXPECT_EQ(run.code, kExitRegressed) << run.out << run.err;
  const std::string row = line_of(run.out, kFrames16);
  EXPECT_NE(row.find("REGRESSED"), std::string::npos) << run.out;
  EXPECT_NE(row.find("+2.00%"), std::string::npos) << row;
  EXPECT_NE(row.find("instructions +2.00% > +1.00%"), std::string::npos) << row;
  EXPECT_NE(run.out.find("result: REGRESSED (exit 3): 1 regressed, 0 improved, 3 unchanged"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(line_of(run.out, kFrames1).find("REGRESSED"), std::string::npos);
}

TEST(Gate, ChangeEqualToTheLimitPassesAndImprovementsAreNamed) {
  TempDir dir;
  ResultsFile head = base_file();
  find(head, kFrames1)->metrics = frames_case(1, 10100, 2).metrics;       // exactly +1.00%
  find(head, kFrames256)->metrics = frames_case(256, 300000, 1).metrics;  // -25%, 3 -> 1
  const std::string base_path = write_synthetic(dir, "base.json", base_file());
  const std::string head_path = write_synthetic(dir, "head.json", head);
  CommandRun run = gate_files(gate_command(base_path, head_path, OutputFormat::kJson));
  EXPECT_EQ(run.code, kExitOk) << run.out << run.err;
  const Json doc = Json::parse(run.out);
  EXPECT_EQ(doc["cases"][0]["verdict"], "unchanged");
  EXPECT_DOUBLE_EQ(doc["cases"][0]["instructions"]["change_pct"].get<double>(), 1.0);
  EXPECT_EQ(doc["cases"][2]["verdict"], "improved");
  EXPECT_EQ(doc["cases"][2]["reasons"][0], "instructions -25.00%");
  // Allocations by their maximum over rounds: samples {6, 3, 4, 3} -> {4, 1, 2, 1}.
  EXPECT_EQ(doc["cases"][2]["reasons"][1], "allocations max 6 -> 4");
}

TEST(Gate, OneMoreAllocationRegresses) {
  TempDir dir;
  ResultsFile base = base_file();
  find(base, kFanout)->metrics.allocations = results::compute_stats({5, 5, 5, 5});
  ResultsFile head = base;
  find(head, kFanout)->metrics.allocations = results::compute_stats({6, 6, 6, 6});
  const std::string base_path = write_synthetic(dir, "base.json", base);
  const std::string head_path = write_synthetic(dir, "head.json", head);
  CommandRun run = gate_files(gate_command(base_path, head_path));
  EXPECT_EQ(run.code, kExitRegressed) << run.out;
  const std::string row = line_of(run.out, kFanout);
  EXPECT_NE(row.find("REGRESSED"), std::string::npos) << run.out;
  EXPECT_NE(row.find("allocations max 5 -> 6 (+1 > +0)"), std::string::npos) << row;

  // Allowing one more allocation passes.
  GateCommand loose = gate_command(base_path, head_path);
  loose.max_allocations_increase = 1;
  EXPECT_EQ(gate_files(loose).code, kExitOk);
}

// A round that allocates more is a regression even when the median does not move, so
// allocations are gated (and compared) by their maximum over the measured rounds.
TEST(Gate, OneRoundAllocatingMoreRegressesThoughTheMedianIsUnchanged) {
  TempDir dir;
  ResultsFile base = base_file();
  find(base, kFanout)->metrics.allocations = results::compute_stats({5, 5, 5, 5});
  ResultsFile head = base;
  find(head, kFanout)->metrics.allocations = results::compute_stats({5, 5, 7, 5});
  ASSERT_EQ(find(head, kFanout)->metrics.allocations->median, 5u) << "the median is unchanged";
  const std::string base_path = write_synthetic(dir, "base.json", base);
  const std::string head_path = write_synthetic(dir, "head.json", head);

  CommandRun run = gate_files(gate_command(base_path, head_path));
  EXPECT_EQ(run.code, kExitRegressed) << run.out;
  const std::string row = line_of(run.out, kFanout);
  EXPECT_NE(row.find("REGRESSED"), std::string::npos) << run.out;
  EXPECT_NE(row.find("allocations max 5 -> 7 (+2 > +0)"), std::string::npos) << row;

  CommandRun json = gate_files(gate_command(base_path, head_path, OutputFormat::kJson));
  const Json doc = Json::parse(json.out);
  EXPECT_EQ(doc.at("cases").at(3).at("allocations").value("base_max", Json()), 5) << json.out;
  EXPECT_EQ(doc.at("cases").at(3).at("allocations").value("head_max", Json()), 7) << json.out;

  CommandRun compare = compare_files({base_path, head_path}, OutputFormat::kTable);
  ASSERT_EQ(compare.code, 0) << compare.err;
  EXPECT_NE(compare.out.find("allocations max base -> head"), std::string::npos) << compare.out;
  const std::string compare_row = line_of(compare.out, kFanout);
  EXPECT_NE(compare_row.find("5 -> 5"), std::string::npos) << "medians: " << compare_row;
  EXPECT_NE(compare_row.find("5 -> 7"), std::string::npos) << "maxima: " << compare_row;
}

TEST(Gate, FailedCaseInHeadIsARegression) {
  TempDir dir;
  ResultsFile head = base_file();
  find(head, kFrames256)->flags.failed = true;
  find(head, kFrames256)->flags.reason = "delivered 255 of 256 frames";
  const std::string base_path = write_synthetic(dir, "base.json", base_file());
  const std::string head_path = write_synthetic(dir, "head.json", head);
  CommandRun run = gate_files(gate_command(base_path, head_path));
  EXPECT_EQ(run.code, kExitRegressed);
  EXPECT_NE(line_of(run.out, kFrames256).find("failed in HEAD: delivered 255 of 256 frames"),
            std::string::npos)
      << run.out;
  // The partial median of a failed run is not shown as if it were a measurement.
  const std::string row = line_of(run.out, kFrames256);
  const size_t head_cell = row.find(" failed ");
  ASSERT_NE(head_cell, std::string::npos) << run.out;
  EXPECT_LT(row.find("400,000"), head_cell);
  EXPECT_NE(row.find("6 -> failed"), std::string::npos) << "the maximum of BASE's rounds: " << row;

  // The other way round (fixed in HEAD) is an improvement.
  CommandRun fixed = gate_files(gate_command(head_path, base_path, OutputFormat::kJson));
  EXPECT_EQ(fixed.code, kExitOk);
  EXPECT_EQ(Json::parse(fixed.out)["counts"]["improved"], 1);
}

TEST(CompareAndGate, NewAndRemovedCasesAreListed) {
  TempDir dir;
  ResultsFile head = base_file(CounterBackend::kCallgrind, kCommitB);
  head.cases.erase(head.cases.begin() + 3);  // kFanout removed
  head.cases.push_back(fanout_case(64, 700000, 9));
  const std::string base_path = write_synthetic(dir, "base.json", base_file());
  const std::string head_path = write_synthetic(dir, "head.json", head);

  CommandRun table = compare_files({base_path, head_path}, OutputFormat::kTable);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("NEW in head (1):\n  " + kNewCase + "\n"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("REMOVED from head (1):\n  " + kFanout + "\n"), std::string::npos);
  EXPECT_NE(line_of(table.out, kFanout).find("removed"), std::string::npos);

  CommandRun json = compare_files({base_path, head_path}, OutputFormat::kJson);
  const Json doc = Json::parse(json.out);
  EXPECT_EQ(doc["new"][0]["ids"], Json::array({kNewCase}));
  EXPECT_EQ(doc["removed"][0]["ids"], Json::array({kFanout}));

  CommandRun gate = gate_files(gate_command(base_path, head_path, OutputFormat::kJson));
  EXPECT_EQ(gate.code, kExitRemoved) << "a case HEAD did not measure fails the gate";
  const Json verdicts = Json::parse(gate.out);
  EXPECT_EQ(verdicts["exit_code"], kExitRemoved);
  EXPECT_EQ(verdicts["failure"], "1 case(s) of BASE missing from HEAD");
  EXPECT_EQ(verdicts["counts"]["new"], 1);
  EXPECT_EQ(verdicts["counts"]["removed"], 1);
  EXPECT_EQ(verdicts["cases"][3]["id"], kFanout);
  EXPECT_EQ(verdicts["cases"][3]["verdict"], "removed");
  EXPECT_EQ(verdicts["cases"][4]["id"], kNewCase);
  EXPECT_EQ(verdicts["cases"][4]["verdict"], "new");

  // --fail-on-removed is kept for old command lines and changes nothing.
  GateCommand strict = gate_command(base_path, head_path);
  strict.fail_on_removed = true;
  EXPECT_EQ(gate_files(strict).code, kExitRemoved);
  // --allow-removed does not excuse a HEAD that records no plan leaving the case out.
  GateCommand allow = gate_command(base_path, head_path);
  allow.allow_removed = true;
  CommandRun refused = gate_files(allow);
  EXPECT_EQ(refused.code, kExitRemoved) << refused.out;
  EXPECT_NE(line_of(refused.out, kFanout).find("records no plan"), std::string::npos)
      << refused.out;

  // A shard's plan leaves kFanout out on purpose: --allow-removed accepts it, and only then.
  ResultsFile shard = head;
  results::ShardInfo info;
  info.index = 1;
  info.count = 2;
  info.plan_cases = 2 * shard.cases.size() - 1;  // shard 1 of 2 holds the larger half
  info.plan_digest = "0123456789abcdef";
  for (const results::CaseResult& c : shard.cases)
    info.cases.push_back(c.id);
  shard.meta.shard = info;
  const std::string shard_path = write_synthetic(dir, "shard.json", shard);
  EXPECT_EQ(gate_files(gate_command(base_path, shard_path)).code, kExitRemoved);
  GateCommand allow_shard = gate_command(base_path, shard_path);
  allow_shard.allow_removed = true;
  CommandRun accepted = gate_files(allow_shard);
  EXPECT_EQ(accepted.code, kExitOk) << accepted.out;
  EXPECT_NE(accepted.out.find("left out by HEAD's plan, allowed"), std::string::npos)
      << accepted.out;

  // The plan has kFanout but the file lacks it: planned, never measured, never allowed.
  shard.meta.shard->cases.push_back(kFanout);
  shard.meta.shard->plan_cases = 2 * shard.meta.shard->cases.size() - 1;
  const std::string unmeasured = write_synthetic(dir, "unmeasured.json", shard);
  GateCommand allow_unmeasured = gate_command(base_path, unmeasured);
  allow_unmeasured.allow_removed = true;
  CommandRun missing = gate_files(allow_unmeasured);
  EXPECT_EQ(missing.code, kExitRemoved) << missing.out;
  EXPECT_NE(line_of(missing.out, kFanout).find("in HEAD's plan, never measured"), std::string::npos)
      << missing.out;
}

TEST(CompareAndGate, DisjointPairFailsWithNoCaseInCommon) {
  TempDir dir;
  ResultsFile head = base_file(CounterBackend::kCallgrind, kCommitB);
  head.cases.clear();
  head.cases.push_back(fanout_case(64, 700000, 9));
  const std::string base_path = write_synthetic(dir, "base.json", base_file());
  const std::string head_path = write_synthetic(dir, "head.json", head);
  CommandRun gate = gate_files(gate_command(base_path, head_path));
  EXPECT_EQ(gate.code, kExitNoCommonCase) << gate.out;
  EXPECT_NE(gate.out.find("no case in common"), std::string::npos) << gate.out;
  EXPECT_NE(gate.out.find("metrics compared: instructions, allocations"), std::string::npos)
      << gate.out;
}

TEST(CompareAndGate, MismatchedBackendsOrEventsAreRefusedWithExit2) {
  TempDir dir;
  const std::string callgrind = write_synthetic(dir, "callgrind.json", base_file());
  const std::string perf =
      write_synthetic(dir, "perf.json", base_file(CounterBackend::kPerf, kCommitA));
  ResultsFile other_event = base_file(CounterBackend::kPerf, kCommitA);
  other_event.meta.counter_event = "cpu_core/instructions/u";
  const std::string hybrid = write_synthetic(dir, "hybrid.json", other_event);

  CommandRun gate = gate_files(gate_command(callgrind, perf));
  EXPECT_EQ(gate.code, kExitBadInput);
  EXPECT_TRUE(gate.out.empty());
  EXPECT_NE(
      gate.err.find("moqbench gate: cannot compare " + callgrind + " (counter callgrind Ir) with " +
                    perf + " (counter perf instructions:u)"),
      std::string::npos)
      << gate.err;
  EXPECT_EQ(gate_files(gate_command(perf, hybrid)).code, kExitBadInput);
  CommandRun compare = compare_files({callgrind, callgrind, perf}, OutputFormat::kTable);
  EXPECT_EQ(compare.code, kExitBadInput);
  EXPECT_NE(compare.err.find("never compared"), std::string::npos);
}

TEST(CompareAndGate, BadInputFilesExit2NamingTheProblem) {
  TempDir dir;
  const std::string base = write_synthetic(dir, "base.json", base_file());
  CommandRun missing = gate_files(gate_command(base, dir.file("missing.json")));
  EXPECT_EQ(missing.code, kExitBadInput);
  EXPECT_NE(missing.err.find("cannot read " + dir.file("missing.json")), std::string::npos);

  Json doc = results::to_json(base_file());
  doc["cases"][1]["metrics"]["allocations"]["median"] = "2";
  results::testing::write_text(dir.file("bad.json"), doc.dump());
  CommandRun invalid = compare_files({base, dir.file("bad.json")}, OutputFormat::kTable);
  EXPECT_EQ(invalid.code, kExitBadInput);
  EXPECT_NE(invalid.err.find("bad.json: cases[1].metrics.allocations.median"), std::string::npos)
      << invalid.err;

  doc = results::to_json(base_file());
  doc["schema"] = "moqbench.results/9";
  results::testing::write_text(dir.file("future.json"), doc.dump());
  CommandRun future = gate_files(gate_command(base, dir.file("future.json")));
  EXPECT_EQ(future.code, kExitBadInput);
  EXPECT_NE(future.err.find("unsupported results schema"), std::string::npos);

  CommandRun one = compare_files({base}, OutputFormat::kTable);
  EXPECT_EQ(one.code, kExitBadInput);

  GateCommand negative = gate_command(base, base);
  negative.max_instructions_regression = -1;
  EXPECT_EQ(gate_files(negative).code, kExitBadInput);
}

class GateOverrides : public ::testing::Test {
 protected:
  void SetUp() override {
    ResultsFile head = base_file();
    find(head, kFrames16)->metrics = frames_case(16, 40800, 2).metrics;  // +2%
    base_ = write_synthetic(dir_, "base.json", base_file());
    head_ = write_synthetic(dir_, "head.json", head);
  }
  CommandRun gate_with(const std::string& name, const std::string& text) {
    results::testing::write_text(dir_.file(name), text);
    GateCommand command = gate_command(base_, head_, OutputFormat::kJson);
    command.overrides_file = dir_.file(name);
    return gate_files(command);
  }
  TempDir dir_;
  std::string base_, head_;
};

TEST_F(GateOverrides, WithoutOverridesTheCaseRegresses) {
  EXPECT_EQ(gate_files(gate_command(base_, head_)).code, kExitRegressed);
}

TEST_F(GateOverrides, TextRuleByExactIdLoosensOneCase) {
  CommandRun run = gate_with("o.txt", "# noisy while the fetch path is rewritten\n\n" + kFrames16 +
                                          "  max_instructions_regression=2.5  # until #42\n");
  EXPECT_EQ(run.code, kExitOk) << run.out << run.err;
  const Json doc = Json::parse(run.out);
  EXPECT_EQ(doc["cases"][1]["verdict"], "unchanged");
  EXPECT_EQ(doc["cases"][1]["limits"]["max_instructions_regression"], 2.5);
  EXPECT_EQ(doc["cases"][1]["override"], dir_.file("o.txt") + ":3");
  EXPECT_EQ(doc["cases"][0]["limits"]["max_instructions_regression"], 1.0) << "others keep 1%";
}

TEST_F(GateOverrides, JsonGlobRuleLoosensMatchingCasesAndExactIdWins) {
  CommandRun run = gate_with("o.json", R"({"overrides": [
      {"case": "model/fetch_frames/*/frames=1?", "max_instructions_regression": 3},
      {"case": ")" + kFrames16 + R"(", "max_allocations_increase": 4}]})");
  // The exact-id rule wins and sets only allocations, so instructions keep the 1% default.
  EXPECT_EQ(run.code, kExitRegressed) << run.out << run.err;
  const Json doc = Json::parse(run.out);
  EXPECT_EQ(doc["cases"][1]["limits"]["max_instructions_regression"], 1.0);
  EXPECT_EQ(doc["cases"][1]["limits"]["max_allocations_increase"], 4);

  CommandRun glob_only = gate_with("g.json", R"({"overrides": [
      {"case": "model/fetch_frames/*/frames=1?", "max_instructions_regression": 3}]})");
  EXPECT_EQ(glob_only.code, kExitOk) << glob_only.out;
  const Json loosened = Json::parse(glob_only.out);
  EXPECT_EQ(loosened["cases"][1]["limits"]["max_instructions_regression"], 3.0);
  EXPECT_EQ(loosened["cases"][0]["override"], nullptr) << "frames=1 has no second digit";
}

TEST_F(GateOverrides, UnusedRulesAreWarnedAbout) {
  results::testing::write_text(dir_.file("o.txt"), kFrames16 +
                                                       " max_instructions_regression=5\n"
                                                       "model/typo/* max_allocations_increase=1\n");
  GateCommand command = gate_command(base_, head_);
  command.overrides_file = dir_.file("o.txt");
  CommandRun run = gate_files(command);
  EXPECT_EQ(run.code, kExitOk);
  EXPECT_NE(run.out.find("warning: override " + dir_.file("o.txt") +
                         ":2 \"model/typo/*\" matches no case"),
            std::string::npos)
      << run.out;
}

TEST_F(GateOverrides, BadOverrideFilesExit2WithTheLine) {
  CommandRun unknown = gate_with("bad.txt", "\n" + kFrames16 + " max_instructions=5\n");
  EXPECT_EQ(unknown.code, kExitBadInput);
  EXPECT_NE(unknown.err.find("bad.txt:2: unknown setting \"max_instructions=5\""),
            std::string::npos)
      << unknown.err;
  CommandRun negative = gate_with("neg.txt", kFrames16 + " max_instructions_regression=-1\n");
  EXPECT_EQ(negative.code, kExitBadInput);
  CommandRun empty_rule = gate_with("empty.txt", kFrames16 + "\n");
  EXPECT_NE(empty_rule.err.find("sets no limit"), std::string::npos);
  CommandRun json = gate_with("bad.json", R"({"overrides": [{"case": "x", "max_allocs": 1}]})");
  EXPECT_EQ(json.code, kExitBadInput);
  EXPECT_NE(json.err.find("overrides[0].max_allocs: unknown field"), std::string::npos) << json.err;
  GateCommand missing = gate_command(base_, head_);
  missing.overrides_file = dir_.file("none.txt");
  EXPECT_EQ(gate_files(missing).code, kExitBadInput);
}

TEST_F(GateOverrides, DeeplyNestedOverridesFileIsBadInput) {
  CommandRun deep = gate_with(
      "deep.json", "{\"overrides\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  EXPECT_EQ(deep.code, kExitBadInput);
  EXPECT_NE(deep.err.find("deep.json: overrides[0]: nested deeper than 64 levels"),
            std::string::npos)
      << deep.err;
}

TEST_F(GateOverrides, DuplicateKeyInAJsonRuleIsBadInput) {
  CommandRun dup = gate_with("dup.json", R"({"overrides": [{"case": "a", "case": "b",
                                             "max_allocations_increase": 1}]})");
  EXPECT_EQ(dup.code, kExitBadInput);
  EXPECT_NE(dup.err.find("dup.json: overrides[0].case: duplicate key"), std::string::npos)
      << dup.err;
}

TEST(Overrides, GlobMatching) {
  EXPECT_TRUE(glob_match("model/*", "model/fetch/v/frames=1"));
  EXPECT_TRUE(glob_match("*/frames=256", "model/fetch/v/frames=256"));
  EXPECT_FALSE(glob_match("*/frames=25", "model/fetch/v/frames=256"));
  EXPECT_TRUE(glob_match("model/*/v/*=1", "model/a/b/v/x=1"));
  EXPECT_TRUE(glob_match("a?c", "abc"));
  EXPECT_FALSE(glob_match("a?c", "ac"));
  EXPECT_TRUE(glob_match("**", ""));
  EXPECT_FALSE(glob_match("abc", "abcd"));
  EXPECT_TRUE(glob_match("a*b*c", "axxbyybzc"));
  EXPECT_FALSE(is_glob("model/x"));
}

TEST(CompareNoise, SameCommitFilesShowTheirDifferenceAsNoise) {
  TempDir dir;
  ResultsFile rerun = base_file();  // same commit, clean, same build
  find(rerun, kFrames1)->metrics = frames_case(1, 10010, 3).metrics;  // +0.10%, +1 allocation
  ResultsFile head = base_file(CounterBackend::kCallgrind, kCommitB);
  find(head, kFrames1)->metrics = frames_case(1, 10500, 2).metrics;
  const std::string base_path = write_synthetic(dir, "base.json", base_file());
  const std::string rerun_path = write_synthetic(dir, "rerun.json", rerun);
  const std::string head_path = write_synthetic(dir, "head.json", head);

  CommandRun run = compare_files({base_path, rerun_path, head_path}, OutputFormat::kTable);
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("noise: base = rerun come from one build (rerun noise"), std::string::npos)
      << run.out;
  const std::string row = line_of(run.out, kFrames1);
  EXPECT_NE(row.find("±0.10% ±1 allocs"), std::string::npos) << run.out;
  EXPECT_NE(row.find("+5.00%"), std::string::npos) << row;
  EXPECT_NE(row.find("2 -> 3 -> 2"), std::string::npos) << row;
  EXPECT_NE(line_of(run.out, kFrames16).find("±0.00%"), std::string::npos);

  CommandRun json = compare_files({base_path, rerun_path, head_path}, OutputFormat::kJson);
  const Json doc = Json::parse(json.out);
  EXPECT_EQ(doc["same_build_pairs"], Json::parse("[[0, 1]]"));
  EXPECT_DOUBLE_EQ(doc["cases"][0]["noise"]["rerun"]["instructions_pct"].get<double>(), 0.1);
  EXPECT_EQ(doc["cases"][0]["noise"]["rerun"]["allocations"], 1);
  EXPECT_EQ(doc["cases"][0]["noise"]["cross_build"], nullptr);

  // Different commits, or a dirty tree, are not the same build: no noise column.
  CommandRun no_noise = compare_files({base_path, head_path}, OutputFormat::kTable);
  EXPECT_NE(no_noise.out.find("no two files come from the same source"), std::string::npos);
  EXPECT_EQ(no_noise.out.find("±"), std::string::npos) << no_noise.out;
  ResultsFile dirty = rerun;
  dirty.meta.git_dirty = true;
  const std::string dirty_path = write_synthetic(dir, "dirty.json", dirty);
  CommandRun dirty_run = compare_files({base_path, dirty_path}, OutputFormat::kJson);
  EXPECT_EQ(Json::parse(dirty_run.out)["same_build_pairs"], Json::array());
  ResultsFile other_flags = rerun;
  other_flags.meta.compiler_flags = "-O3";
  EXPECT_FALSE(same_build(base_file().meta, other_flags.meta));
  EXPECT_TRUE(same_build(base_file().meta, rerun.meta));
}

// Files of one source from two binaries measure build noise; the same binary twice, rerun noise.
// A change counts as significant only beyond the larger of the two.
TEST(CompareNoise, TwoBuildsGiveBuildNoiseAndChangesWithinTheLargerNoiseAreNotSignificant) {
  TempDir dir;
  auto built = [](ResultsFile file, const std::string& exe, const std::string& id) {
    file.meta.executable = exe;
    file.meta.build_id = id;
    return file;
  };
  const ResultsFile base = built(base_file(), "/a/moqbench", "aaaa");
  ResultsFile rerun = base;
  find(rerun, kFrames1)->metrics = frames_case(1, 10010, 2).metrics;  // +0.10%
  ResultsFile rebuild = built(base_file(), "/b/moqbench", "bbbb");
  find(rebuild, kFrames1)->metrics = frames_case(1, 10030, 2).metrics;  // +0.30%
  ResultsFile head = built(base_file(CounterBackend::kCallgrind, kCommitB), "/h/moqbench", "cccc");
  find(head, kFrames1)->metrics = frames_case(1, 10020, 2).metrics;    // +0.20%: within noise
  find(head, kFrames16)->metrics = frames_case(16, 40080, 2).metrics;  // +0.20%: beyond it (0)
  const std::vector<std::string> paths = {
      write_synthetic(dir, "base.json", base), write_synthetic(dir, "rerun.json", rerun),
      write_synthetic(dir, "rebuild.json", rebuild), write_synthetic(dir, "head.json", head)};

  CommandRun json = compare_files(paths, OutputFormat::kJson);
  ASSERT_EQ(json.code, 0) << json.err;
  const Json doc = Json::parse(json.out);
  EXPECT_EQ(doc["same_build_pairs"], Json::parse("[[0, 1]]"));
  EXPECT_EQ(doc["cross_build_pairs"], Json::parse("[[0, 2], [1, 2]]"));
  // Rows in compare's order (compare_summary.h): frames=16's change is beyond the noise, so it
  // regressed and comes first; frames=1's is within it.
  const Json& frames1 = doc["cases"][1];
  ASSERT_EQ(frames1["id"], kFrames1);
  EXPECT_EQ(frames1["verdict"], "within noise");
  EXPECT_DOUBLE_EQ(frames1["noise"]["rerun"]["instructions_pct"].get<double>(), 0.1);
  EXPECT_NEAR(frames1["noise"]["cross_build"]["instructions_pct"].get<double>(), 0.3, 1e-9);
  EXPECT_EQ(frames1["significant"][3], false);
  const Json& frames16 = doc["cases"][0];
  ASSERT_EQ(frames16["id"], kFrames16);
  EXPECT_EQ(frames16["verdict"], "regressed");
  EXPECT_EQ(frames16["noise"]["cross_build"]["instructions_pct"], 0.0);
  EXPECT_EQ(frames16["significant"][3], true);
  EXPECT_EQ(frames16["significant"][1], nullptr) << "no change: nothing to judge";

  CommandRun table = compare_files(paths, OutputFormat::kTable);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("base ~ rebuild"), std::string::npos) << table.out;
  const std::string row1 = line_of(table.out, kFrames1);
  EXPECT_NE(row1.find("+0.20% (noise)"), std::string::npos) << row1;
  EXPECT_NE(row1.find("±0.10%"), std::string::npos) << row1;
  EXPECT_NE(row1.find("±0.30%"), std::string::npos) << row1;
  const std::string row16 = line_of(table.out, kFrames16);
  EXPECT_NE(row16.find("+0.20%"), std::string::npos) << row16;
  EXPECT_EQ(row16.find("(noise)"), std::string::npos) << row16;

  CommandRun csv = compare_files(paths, OutputFormat::kCsv);
  EXPECT_NE(csv.out.find("significant:head"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find("build_noise_instructions_pct"), std::string::npos) << csv.out;

  // Two builds compared without a rerun: build noise alone judges, and the sentence says the
  // rerun noise was not measured.
  CommandRun two = compare_files({paths[0], paths[2], paths[3]}, OutputFormat::kTable);
  EXPECT_NE(two.out.find("rerun noise not measured"), std::string::npos) << two.out;
  EXPECT_NE(line_of(two.out, kFrames1).find("+0.20% (noise)"), std::string::npos) << two.out;

  // A file that records no binary counts as the same build as any of its source (older files).
  ResultsFile legacy = base_file();
  EXPECT_TRUE(same_build(legacy.meta, rebuild.meta));
  EXPECT_FALSE(same_build(base.meta, rebuild.meta));
  EXPECT_TRUE(same_source(base.meta, rebuild.meta));
}

// Cases split by role (run --roles) get a "by role" table: each role's median in each file and
// its change, so a reviewer sees which role got dearer.
TEST(CompareRoles, TheSplitShowsWhichRoleMoved) {
  TempDir dir;
  auto with_roles = [](ResultsFile file, uint64_t relay) {
    std::vector<results::RoleCost>& roles = find(file, kFrames16)->roles;
    auto four = [](uint64_t v) { return *results::compute_stats({v, v, v, v}); };  // 4 rounds
    roles.push_back({"harness", four(1000), four(0)});
    roles.push_back({"relay", four(relay), four(2)});
    roles.push_back({"viewer", four(5000), four(0)});
    return file;
  };
  const std::string base = write_synthetic(dir, "base.json", with_roles(base_file(), 20000));
  const std::string head = write_synthetic(
      dir, "head.json", with_roles(base_file(CounterBackend::kCallgrind, kCommitB), 20800));
  CommandRun table = compare_files({base, head}, OutputFormat::kTable);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("by role (medians per round)"), std::string::npos) << table.out;
  std::istringstream lines(table.out);
  std::string line, relay, viewer;
  while (std::getline(lines, line)) {
    if (line.find(kFrames16) == std::string::npos) continue;
    if (line.find(" relay ") != std::string::npos) relay = line;
    if (line.find(" viewer ") != std::string::npos) viewer = line;
  }
  EXPECT_NE(relay.find("+4.00%"), std::string::npos) << table.out;
  EXPECT_NE(relay.find("2 -> 2"), std::string::npos) << relay;
  EXPECT_NE(viewer.find("+0.00%"), std::string::npos) << viewer;
  const Json doc = Json::parse(compare_files({base, head}, OutputFormat::kJson).out);
  ASSERT_EQ(doc["roles"].size(), 3u);
  EXPECT_EQ(doc["roles"][1]["role"], "relay");
  EXPECT_EQ(doc["roles"][1]["instructions"], Json::parse("[20000, 20800]"));
  // Files without a split: no table.
  const std::string plain = write_synthetic(dir, "plain.json", base_file());
  EXPECT_EQ(compare_files({plain, plain}, OutputFormat::kTable).out.find("by role"),
            std::string::npos);
}

// All four formats of one comparison carry every row.
class CompareFormats : public ::testing::Test {
 protected:
  void SetUp() override {
    ResultsFile head = base_file(CounterBackend::kCallgrind, kCommitB);
    find(head, kFrames16)->metrics = frames_case(16, 40800, 2).metrics;
    find(head, kFrames256)->metrics = frames_case(256, 400000, 4).metrics;
    head.cases.push_back(fanout_case(64, 700000, 9));
    base_ = write_synthetic(dir_, "base.json", base_file());
    head_ = write_synthetic(dir_, "head.json", head);
  }
  CommandRun render(OutputFormat format) { return compare_files({base_, head_}, format); }
  TempDir dir_;
  std::string base_, head_;
};

TEST_F(CompareFormats, TerminalTableIsAligned) {
  CommandRun r = render(OutputFormat::kTable);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string header = line_of(r.out, "case");
  const std::string row16 = line_of(r.out, kFrames16);
  const std::string row256 = line_of(r.out, kFrames256);
  EXPECT_NE(row16.find("40,000"), std::string::npos) << r.out;
  EXPECT_NE(row16.find("40,800"), std::string::npos);
  EXPECT_NE(row16.find("+2.00%"), std::string::npos);
  EXPECT_NE(row256.find("3 -> 4"), std::string::npos) << "allocations as before -> after";
  // Right-aligned numbers end in the same column in every row.
  EXPECT_EQ(row16.find("+2.00%") + 6, row256.find("+0.00%") + 6) << r.out;
  EXPECT_NE(r.out.find("NEW in head (1)"), std::string::npos);
}

TEST_F(CompareFormats, MarkdownHasATableRowPerCase) {
  CommandRun r = render(OutputFormat::kMarkdown);
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("| case | instructions base | instructions head | change head |"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| --- | ---: | ---: | ---: |"), std::string::npos);
  EXPECT_NE(r.out.find("| " + kFrames16 + " | 40,000 | 40,800 | +2.00% | 2 -> 2 |"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("**NEW in head** (1)\n\n- `" + kNewCase + "`"), std::string::npos);
}

TEST_F(CompareFormats, CsvParsesWithOneRowPerCase) {
  CommandRun r = render(OutputFormat::kCsv);
  ASSERT_EQ(r.code, 0);
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    }
    cells.push_back(cell);
    rows.push_back(cells);
  }
  ASSERT_EQ(rows.size(), 6u) << r.out;  // header + 4 base cases + 1 new
  const std::vector<std::string> header = rows[0];
  for (const auto& row : rows)
    EXPECT_EQ(row.size(), header.size()) << r.out;
  EXPECT_EQ(header[0], "id");
  EXPECT_EQ(header[2], "instructions:base");
  EXPECT_EQ(header[4], "allocations_max:base");
  EXPECT_EQ(header[7], "change_pct:head");
  // Regressed first, by the size of the change: frames=16 (+2% instructions), then frames=256
  // (+0% instructions, one more allocation); the unchanged cases; the NEW case last.
  EXPECT_EQ(rows[1][0], kFrames16);
  EXPECT_EQ(rows[1][2], "40000");
  EXPECT_EQ(rows[1][4], "5") << "samples {5, 2, 3, 2}";
  EXPECT_EQ(rows[1][6], "40800");
  EXPECT_EQ(rows[1][7], "2");
  EXPECT_EQ(rows[2][0], kFrames256);
  EXPECT_EQ(rows[3][0], kFrames1);
  EXPECT_EQ(rows[4][0], kFanout);
  EXPECT_EQ(rows[5][0], kNewCase);
  EXPECT_EQ(rows[5][1], "new");
  EXPECT_EQ(rows[5][2], "") << "absent from BASE";
}

TEST_F(CompareFormats, JsonCarriesEveryCase) {
  CommandRun r = render(OutputFormat::kJson);
  ASSERT_EQ(r.code, 0);
  const Json doc = Json::parse(r.out);
  EXPECT_EQ(doc["schema"], "moqbench.compare/2");
  EXPECT_EQ(doc["counter"]["backend"], "callgrind");
  ASSERT_EQ(doc["cases"].size(), 5u);
  // In compare's order: the regressed cases first, largest change first.
  EXPECT_EQ(doc["cases"][0]["id"], kFrames16);
  EXPECT_EQ(doc["cases"][0]["verdict"], "regressed");
  EXPECT_EQ(doc["cases"][0]["instructions"], Json::array({40000, 40800}));
  EXPECT_DOUBLE_EQ(doc["cases"][0]["instructions_change_pct"][1].get<double>(), 2.0);
  EXPECT_EQ(doc["cases"][1]["id"], kFrames256);
  EXPECT_EQ(doc["cases"][1]["allocations"], Json::array({3, 4}));
  EXPECT_EQ(doc["cases"][4]["status"], "new");
  EXPECT_EQ(doc["cases"][4]["instructions"][0], nullptr);
}

TEST_F(CompareFormats, GateFormatsCarryTheVerdicts) {
  for (OutputFormat format :
       {OutputFormat::kTable, OutputFormat::kMarkdown, OutputFormat::kCsv, OutputFormat::kJson}) {
    CommandRun r = gate_files(gate_command(base_, head_, format));
    EXPECT_EQ(r.code, kExitRegressed);
    for (const std::string& id : {kFrames1, kFrames16, kFrames256, kFanout, kNewCase}) {
      EXPECT_NE(r.out.find(id), std::string::npos) << id << " missing from:\n" << r.out;
    }
  }
  CommandRun md = gate_files(gate_command(base_, head_, OutputFormat::kMarkdown));
  EXPECT_NE(md.out.find("| REGRESSED | " + kFrames16 + " |"), std::string::npos) << md.out;
  CommandRun csv = gate_files(gate_command(base_, head_, OutputFormat::kCsv));
  // Allocations as maxima over rounds: samples {6, 3, 4, 3} -> {7, 4, 5, 4}.
  EXPECT_NE(csv.out.find(kFrames256 + ",regressed,400000,400000,0,1,6,7,0,,"), std::string::npos)
      << csv.out;
}

TEST(CompareBackendNone, AllocationsOnlyWithoutInstructionColumns) {
  TempDir dir;
  ResultsFile base = base_file(CounterBackend::kNone);
  find(base, kFanout)->metrics.allocations = results::compute_stats({5, 5, 5, 5});
  ResultsFile head = base_file(CounterBackend::kNone, kCommitB);
  find(head, kFanout)->metrics.allocations = results::compute_stats({7, 7, 7, 7});
  const std::string base_path = write_synthetic(dir, "base.json", base);
  const std::string head_path = write_synthetic(dir, "head.json", head);
  CommandRun table = compare_files({base_path, head_path}, OutputFormat::kTable);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_EQ(table.out.find("instructions base"), std::string::npos) << table.out;
  EXPECT_NE(line_of(table.out, kFanout).find("5 -> 7"), std::string::npos);
  // Instructions asked for (the default) and not measured: the gate compared nothing of them.
  CommandRun unmeasured = gate_files(gate_command(base_path, head_path));
  EXPECT_EQ(unmeasured.code, kExitNotMeasured) << unmeasured.out;
  EXPECT_NE(unmeasured.out.find("instructions were not measured"), std::string::npos)
      << unmeasured.out;
  GateCommand allocations = gate_command(base_path, head_path);
  allocations.metrics = "allocations";
  CommandRun gate = gate_files(allocations);
  EXPECT_EQ(gate.code, kExitRegressed);
  EXPECT_NE(gate.out.find("metrics compared: allocations,"), std::string::npos) << gate.out;
  EXPECT_NE(line_of(gate.out, kFanout).find("allocations max 5 -> 7 (+2 > +0)"), std::string::npos);
  GateCommand bad = gate_command(base_path, head_path);
  bad.metrics = "instructions,wall";
  CommandRun refused = gate_files(bad);
  EXPECT_EQ(refused.code, kExitBadInput);
  EXPECT_NE(refused.err.find("'wall' is not a gated metric"), std::string::npos) << refused.err;
}

TEST(CompareNotes, DifferentDeliveryIsFlagged) {
  TempDir dir;
  ResultsFile head = base_file(CounterBackend::kCallgrind, kCommitB);
  find(head, kFrames16)->delivered.hash = "deadbeef";
  const std::string base_path = write_synthetic(dir, "base.json", base_file());
  const std::string head_path = write_synthetic(dir, "head.json", head);
  CommandRun r = compare_files({base_path, head_path}, OutputFormat::kTable);
  EXPECT_NE(line_of(r.out, kFrames16).find("delivered differs in head"), std::string::npos)
      << r.out;
  EXPECT_EQ(line_of(r.out, kFrames1).find("delivered differs"), std::string::npos);
}

TEST(TableFormats, CountsPercentagesAndCsvQuoting) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1234567), "1,234,567");
  EXPECT_EQ(format_pct(2), "+2.00%");
  EXPECT_EQ(format_pct(-0.004), "+0.00%");
  EXPECT_EQ(format_pct(-12.345), "-12.35%");
  EXPECT_EQ(percent_change(0, 0), 0.0);
  EXPECT_FALSE(percent_change(0, 5).has_value());
  Table t{{"a", "b"}, {}, {{"x,y", "say \"hi\""}}};
  EXPECT_EQ(render_csv(t), "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n");
}

}  // namespace
}  // namespace moq::reports
