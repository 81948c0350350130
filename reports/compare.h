// compare: results files matched case by case (by id) against the first file (BASE): median
// instructions of each file with its % change against BASE, median and maximum allocations as
// absolute numbers (before -> after; the gate judges the maximum), the measured noise (rerun noise
// between files of one build, cross-build noise between builds of one source: inputs.h), whether
// each change exceeds that noise, and the NEW and REMOVED cases.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reports/errors.h"
#include "reports/inputs.h"
#include "reports/output_format.h"
#include "reports/roles.h"
#include "reports/schema/results.h"
#include "reports/table.h"

namespace moq::reports {

// One file's view of one case.
struct CompareCell {
  bool present = false;
  bool failed = false;
  std::optional<uint64_t> instructions;     // median; nullopt under the "none" backend or no sample
  std::optional<uint64_t> allocations;      // median
  std::optional<uint64_t> allocations_max;  // the worst measured round
  // Medians of callgrind's simulated misses, in results::kSimMetrics order; nullopt: not
  // simulated (no --cache-sim / --branch-sim).
  std::array<std::optional<uint64_t>, results::kSimMetrics.size()> simulated;
  // Against file 0's instructions; nullopt for file 0, when either side has no count, or when
  // BASE counted 0 and this file did not (no finite change).
  std::optional<double> instructions_change_pct;
  // The coefficient of variation of the instruction samples; nullopt with fewer than two.
  std::optional<double> instructions_cv;
  // The rounds' own spread, as a change in percent against BASE: kSpreadFactor x 100 x
  // sqrt(cv_BASE^2 + cv^2), two standard deviations of the difference of two noisy medians.
  // nullopt for file 0 and unless both files measured at least two rounds; 0 for an exact
  // counter, whose rounds repeat their count.
  std::optional<double> spread_pct;
  // Whether |instructions_change_pct| exceeds the largest of the row's rerun noise, cross-build
  // noise and this cell's spread_pct; nullopt when there is no change or none of them was
  // measured for the case.
  std::optional<bool> significant;
};
inline constexpr double kSpreadFactor = 2.0;

// The largest difference between any two files of one kind of pair (same build, or two builds
// of the same source) that both measured the case.
struct NoiseEstimate {
  std::optional<double> instructions_pct;  // largest |% change| (nullopt: no instruction counts)
  uint64_t allocations = 0;                // largest |difference| of median allocations
};

enum class CaseStatus {
  kMatched,  // in BASE and in every other file
  kNew,      // not in BASE
  kRemoved,  // in BASE, missing from at least one other file
};
std::string_view to_string(CaseStatus status);

// How a case moved, judged on the last file against BASE (compare_summary.h says how).
enum class RowVerdict { kRegressed, kImproved, kWithinNoise, kUnchanged, kNotCompared };
std::string_view to_string(RowVerdict verdict);

struct CompareRow {
  std::string id;
  CaseStatus status = CaseStatus::kMatched;
  RowVerdict verdict = RowVerdict::kNotCompared;
  std::vector<CompareCell> cells;            // one per file, in input order
  std::optional<NoiseEstimate> rerun_noise;  // nullopt: no same-build pair measured this case
  std::optional<NoiseEstimate> build_noise;  // nullopt: no pair of two builds measured it
  // "failed in head: <reason>", "delivered differs in head (frames, bytes or hash)",
  // "rounds differ in head".
  std::vector<std::string> notes;
};

struct CompareFile {
  std::string path;
  std::string label;
  results::Meta meta;
};

struct Comparison {
  std::vector<CompareFile> files;
  std::vector<std::pair<size_t, size_t>> same_build_pairs;  // (i, j), i < j, by same_build()
  // (i, j), i < j: same_source() but not same_build().
  std::vector<std::pair<size_t, size_t>> cross_build_pairs;
  // BASE's cases, regressed first and then by the size of the change (order_rows in
  // compare_summary.h), then NEW cases in order of first appearance.
  std::vector<CompareRow> rows;
  // Per file index (index 0 is always empty): ids of that file not in BASE / of BASE not in it.
  std::vector<std::vector<std::string>> new_ids;
  std::vector<std::vector<std::string>> removed_ids;
  std::vector<RoleSplitRow> role_rows;  // roles.h: the cases some file split by role
  // The kSimMetrics some file has for some case, in that order: a column each, "a -> b".
  std::vector<results::Metric> simulated;
  // Some file after BASE has a spread_pct for some case (both measured two rounds or more).
  bool spread_measured = false;
};

// Needs at least two files with the same counter backend and event (check_same_counter).
Result<Comparison> compare(const std::vector<InputFile>& inputs);

std::string render_comparison(const Comparison& comparison, OutputFormat format);

// The main table of the text formats: BASE's cases (matched and removed) with each file's
// instructions and change (a change within the noise marked "(noise)"), a rerun and a
// cross-build noise column when such pairs exist, and allocations as "a -> b -> c", medians then
// maxima; NEW cases are listed apart.
Table comparison_table(const Comparison& comparison);
// The HTML class of a row by its verdict: "regressed", "improved", "noise", "unchanged",
// "not-compared"; and those of comparison_table's rows, in its order.
std::string verdict_class(RowVerdict verdict);
std::vector<std::string> comparison_row_classes(const Comparison& comparison);
// What the noise columns are, which pairs measured them and how changes are judged against them
// (or that no noise was measured, so no change is judged).
std::string noise_sentence(const Comparison& comparison);

enum class IdListStyle {
  kText,      // "NEW in head (2):", then the ids indented by two spaces
  kMarkdown,  // "**NEW in head** (2)", then the ids as a bulleted list of code spans
};
// The NEW and REMOVED cases of each file after BASE, each list under its title ("NEW in <label>",
// "REMOVED from <label>") with its count, each list starting with a blank line; empty when every
// file has the cases of BASE and no others.
std::string new_and_removed_lists(const Comparison& comparison, IdListStyle style);

}  // namespace moq::reports
