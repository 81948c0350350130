// The figures in the project's READMEs, generated from committed results files so that they
// cannot go stale: each README marks a block with
//   <!-- figures:NAME begin -->
//   ...
//   <!-- figures:NAME end -->
// and `moqbench figures` rewrites what lies between from the block's spec (figure_tables.cpp, the
// one list of every block: its README, its results files, its rows and columns), or with
// `--check` says which block of which file differs. tools/update-baseline runs it after it has
// measured the baseline and the extra figure sweeps; the ctest `docs.figures` runs the check.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "reports/errors.h"
#include "reports/schema/results.h"
#include "reports/table.h"

namespace moq::reports {

// The results files a block may read, by name: "baseline" is tests/gate/baseline.json, any other
// name N is tests/gate/figures-N.json, written by tools/update-baseline from the moqbench
// arguments in tests/gate/figures-N-args.
std::string figure_source_path(std::string_view source);

// The loaded sources of one block. Each lookup of a case the file lacks (or a metric it did not
// measure) records what was missing and gives 0, so a spec reads as plain arithmetic and the
// command reports every missing case at once instead of printing a wrong figure.
class FigureData {
 public:
  explicit FigureData(std::map<std::string, const results::ResultsFile*> sources);

  const results::ResultsFile& file(std::string_view source);
  const results::CaseResult* find(std::string_view source, std::string_view id);
  uint64_t instructions(std::string_view source, std::string_view id);  // median per round
  uint64_t allocations_max(std::string_view source, std::string_view id);
  uint64_t metric_median(std::string_view source, std::string_view id, results::Metric metric);
  // Frames delivered per measured round (all viewers).
  uint64_t frames_per_round(std::string_view source, std::string_view id);
  // A case's role's median instructions per round (`--roles` results).
  uint64_t role_instructions(std::string_view source, std::string_view id, std::string_view role);
  // An integer axis of a case (e.g. writes=100).
  int64_t param(std::string_view source, std::string_view id, std::string_view axis);

  void missing(std::string what) { missing_.push_back(std::move(what)); }
  const std::vector<std::string>& missing() const { return missing_; }

 private:
  std::map<std::string, const results::ResultsFile*> sources_;
  std::vector<std::string> missing_;
  results::ResultsFile empty_;
};

struct FigureBlock {
  std::string file;                  // the README, relative to the repository root
  std::string name;                  // NAME in its markers
  std::vector<std::string> sources;  // the results files it reads (figure_source_path)
  std::function<Table(FigureData&)> table;
};

// Every generated block (figure_tables.cpp).
const std::vector<FigureBlock>& figure_blocks();

// Formats shared by the specs: "1.75" (two decimals), "1.04–1.06" (a range of two-decimal
// ratios, one number when both ends agree), a count per unit rounded to the nearest whole one.
std::string format_ratio(double value);
std::string format_ratio_range(double low, double high);
std::string format_per(uint64_t total, uint64_t units);

// `text` with the content between block NAME's markers replaced by `content`; an error when the
// markers are missing, repeated or out of order.
Result<std::string> replace_figure_block(const std::string& text, std::string_view name,
                                         const std::string& content);
// The content between block NAME's markers (same errors).
Result<std::string> figure_block_content(const std::string& text, std::string_view name);
// The name in every marker line of `text`, in order (a block's name twice; a malformed marker
// line whole, so that it is reported as naming no spec).
std::vector<std::string> marked_figure_blocks(const std::string& text);

struct FiguresCommand {
  std::string root = ".";  // the repository
  bool check = false;      // compare only; write nothing
};
// Exit codes: 0 every block written (or, with check, current); 1 a README could not be written;
// 2 bad input: the root, a results file or a README missing or invalid, a case or metric a
// block needs absent from its results file, markers missing, repeated or naming no spec;
// 3 check: a block differs from what its results files give (each such block is named).
int run_figures(const FiguresCommand& command, std::ostream& out, std::ostream& err);

}  // namespace moq::reports
