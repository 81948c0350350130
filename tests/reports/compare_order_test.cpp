// compare reads quickly: rows ordered regressed, improved, within noise, unchanged, not compared,
// each group by the size of the change (the last file against the first), and a closing summary
// line with the counts and the geometric mean of the ratios. Synthetic files with known changes,
// through run_compare as `moqbench compare` runs it.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/commands.h"
#include "reports/schema/json_io.h"
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

CaseResult numbered(int64_t n, uint64_t instructions, uint64_t allocations) {
  return synthetic_case("fetch_frames", "moq-lite-06", {{"frames", n}}, instructions, allocations);
}

// Case n of BASE: n * 10,000 instructions, 2 allocations.
struct Change {
  int64_t n;
  uint64_t head_instructions;
  uint64_t head_allocations;
};

class CompareOrder : public ::testing::Test {
 protected:
  void SetUp() override {
    ResultsFile base, rerun, head;
    base.meta = rerun.meta = synthetic_meta(CounterBackend::kCallgrind, kCommitA);
    head.meta = synthetic_meta(CounterBackend::kCallgrind, kCommitB);
    const std::vector<Change> changes = {
        {1, 11000, 2},  // +10%: regressed
        {2, 20400, 2},  // +2%: regressed
        {3, 28500, 2},  // -5%: improved
        {4, 40000, 2},  // unchanged
        {5, 50250, 2},  // +0.5%, within the rerun's 1%
        {6, 60000, 3},  // one more allocation: regressed
        {7, 0, 0},      // missing from HEAD: not compared
        {8, 80000, 2},  // failed in HEAD: regressed, before any change
    };
    for (const Change& c : changes) {
      const uint64_t before = static_cast<uint64_t>(c.n) * 10000;
      base.cases.push_back(numbered(c.n, before, 2));
      rerun.cases.push_back(numbered(c.n, c.n == 5 ? 50500 : before, 2));
      if (c.n == 7) continue;
      head.cases.push_back(numbered(c.n, c.head_instructions, c.head_allocations));
      if (c.n == 8) {
        head.cases.back().flags.failed = true;
        head.cases.back().flags.reason = "deadlock";
      }
      ids_.push_back(base.cases.back().id);
      ratios_.push_back(
          c.n == 8 ? 0.0 : static_cast<double>(c.head_instructions) / static_cast<double>(before));
    }
    id7_ = base.cases[6].id;
    base_ = write_synthetic(dir_, "base.json", base);
    rerun_ = write_synthetic(dir_, "rerun.json", rerun);
    head_ = write_synthetic(dir_, "head.json", head);
  }

  std::string run(const std::vector<std::string>& files, OutputFormat format) {
    std::ostringstream out, err;
    EXPECT_EQ(run_compare({files, format}, out, err), 0) << err.str();
    return out.str();
  }
  // The ids of case numbers in `order`, as the test expects them listed.
  std::vector<std::string> ids_of(const std::vector<int>& order) const {
    std::vector<std::string> out;
    out.reserve(order.size());
    for (int n : order)
      out.push_back(n == 7 ? id7_ : ids_[static_cast<size_t>(n > 7 ? n - 2 : n - 1)]);
    return out;
  }
  // The ids in the order their table rows appear in `text`.
  std::vector<std::string> row_order(const std::string& text) const {
    std::vector<std::pair<size_t, std::string>> at;
    for (const std::string& id : ids_of({1, 2, 3, 4, 5, 6, 7, 8})) {
      const size_t pos = text.find(id + " ");
      EXPECT_NE(pos, std::string::npos) << id << " missing from:\n" << text;
      at.emplace_back(pos, id);
    }
    std::sort(at.begin(), at.end());
    std::vector<std::string> out;
    out.reserve(at.size());
    for (const auto& [pos, id] : at)
      out.push_back(id);
    return out;
  }
  // The geometric mean of HEAD's ratios over the cases measured in both (not 7 or 8).
  std::string geomean_text() const {
    double logs = 0;
    int count = 0;
    for (double r : ratios_) {
      if (r == 0.0) continue;
      logs += std::log(r);
      ++count;
    }
    const double g = std::exp(logs / count);
    char text[64];
    std::snprintf(text, sizeof text, "%.4f (%+.2f%%) over %d cases", g, (g - 1) * 100, count);
    return text;
  }

  TempDir dir_;
  std::vector<std::string> ids_;  // cases 1-6 and 8 (HEAD's)
  std::vector<double> ratios_;
  std::string id7_;
  std::string base_, rerun_, head_;
};

TEST_F(CompareOrder, RegressionsFirstByTheSizeOfTheChangeThenASummary) {
  // Three files: the rerun measures 1% noise on case 5; rows are judged on HEAD (the last file).
  const std::string table = run({base_, rerun_, head_}, OutputFormat::kTable);
  EXPECT_EQ(row_order(table), ids_of({8, 1, 2, 6, 3, 5, 4, 7})) << table;
  const std::string summary =
      "summary (head against base, 8 cases): 4 regressed, 1 improved, 1 "
      "within noise, 1 unchanged, 1 not compared (removed, or failed in "
      "both); geometric mean of the instructions ratios head/base " +
      geomean_text() + "\n";
  ASSERT_GE(table.size(), summary.size());
  EXPECT_EQ(table.substr(table.size() - summary.size()), summary) << table;

  // Without the rerun no noise is measured: case 5's +0.5% is a regression, ordered by its size.
  const std::string two = run({base_, head_}, OutputFormat::kTable);
  EXPECT_EQ(row_order(two), ids_of({8, 1, 2, 5, 6, 3, 4, 7})) << two;
  EXPECT_NE(two.find("5 regressed, 1 improved, 0 within noise, 1 unchanged"), std::string::npos)
      << two;

  // HEAD first and BASE last: judged the other way round, the order turns over (case 7 is NEW
  // then, listed apart).
  const std::string reversed = run({head_, base_}, OutputFormat::kTable);
  EXPECT_NE(reversed.find("summary (base against head, 7 cases): 1 regressed, 5 improved, 0 "
                          "within noise, 1 unchanged; "),
            std::string::npos)
      << reversed;
  EXPECT_LT(reversed.find(ids_of({3})[0] + " "), reversed.find(ids_of({8})[0] + " "))
      << "case 3 (+5.26%) regressed, first";
}

TEST_F(CompareOrder, TheLastFileIsJudgedAgainstTheFirst) {
  // The rerun last: only case 5 moved (+1%, the measured noise itself); HEAD's changes in the
  // middle column do not order the rows.
  const std::string table = run({base_, head_, rerun_}, OutputFormat::kTable);
  // Case 7, missing from HEAD only, is judged too: the rerun has it as BASE does.
  EXPECT_EQ(row_order(table), ids_of({5, 1, 2, 3, 4, 6, 7, 8})) << table;
  EXPECT_NE(table.find("summary (rerun against base, 8 cases): 0 regressed, 0 improved, 1 within "
                       "noise, 7 unchanged; "),
            std::string::npos)
      << table;
}

TEST_F(CompareOrder, MachineFormatsCarryTheVerdictsAndTheSummary) {
  const Json doc = Json::parse(run({base_, rerun_, head_}, OutputFormat::kJson));
  std::vector<std::string> order, verdicts;
  for (const Json& c : doc["cases"]) {
    order.push_back(c["id"]);
    verdicts.push_back(c["verdict"]);
  }
  EXPECT_EQ(order, ids_of({8, 1, 2, 6, 3, 5, 4, 7}));
  EXPECT_EQ(verdicts,
            (std::vector<std::string>{"regressed", "regressed", "regressed", "regressed",
                                      "improved", "within noise", "unchanged", "not compared"}));
  const Json& s = doc["summary"];
  EXPECT_EQ(s["judged"], "head");
  EXPECT_EQ(s["base"], "base");
  EXPECT_EQ(s["regressed"], 4);
  EXPECT_EQ(s["improved"], 1);
  EXPECT_EQ(s["within_noise"], 1);
  EXPECT_EQ(s["unchanged"], 1);
  EXPECT_EQ(s["not_compared"], 1);
  EXPECT_EQ(s["ratio_cases"], 6);
  EXPECT_EQ(s["ratio_metric"], "instructions");
  EXPECT_NE(s["line"].get<std::string>().find(geomean_text()), std::string::npos) << s["line"];

  const std::string md = run({base_, rerun_, head_}, OutputFormat::kMarkdown);
  EXPECT_NE(md.find("**summary (head against base, 8 cases): 4 regressed"), std::string::npos)
      << md;
  // CSV stays one row per case, in the same order, with no summary line to trip a parser.
  const std::string csv = run({base_, rerun_, head_}, OutputFormat::kCsv);
  EXPECT_EQ(csv.find("summary"), std::string::npos);
  EXPECT_LT(csv.find(ids_of({8})[0]), csv.find(ids_of({1})[0]));
}

}  // namespace
}  // namespace moq::reports
