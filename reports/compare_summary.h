// Reading a comparison quickly: each case's verdict, the rows in order of how much they moved,
// and one summary line.
//
// A case is judged on the last file against BASE (with two files, HEAD against BASE), on the
// medians of instructions and of allocations:
//   - failed in the last file and not in BASE -> regressed; failed in BASE only -> improved;
//     failed in both, or missing from either -> not compared;
//   - a metric moved significantly when its change exceeds the case's measured noise (for
//     instructions, CompareCell::significant: the "(noise)" marker; for allocations, the largest
//     difference between files of one source); with no noise measured, any change is significant;
//   - regressed when a metric grew significantly (a regression in one metric wins over an
//     improvement in the other), improved when one shrank significantly, within noise when
//     something changed within the noise, unchanged when both are equal.
// Rows are ordered regressed, improved, within noise, unchanged, not compared; within each, by
// the size of the instructions change (percent, largest first; a change from 0 or a failure
// counts as the largest), then of the allocations change, then in BASE order. NEW cases follow.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "reports/compare.h"

namespace moq::reports {

// Sets each row's verdict and sorts the rows as above (compare() calls it).
void order_rows(Comparison& comparison);

struct CompareSummary {
  std::string judged_label;  // the last file
  std::string base_label;
  size_t regressed = 0;
  size_t improved = 0;
  size_t within_noise = 0;
  size_t unchanged = 0;
  size_t not_compared = 0;  // removed, or failed in both
  // The metric of the ratios: "instructions", or "allocations" when instructions were not
  // measured (counter none).
  std::string ratio_metric;
  // exp(mean(ln(last / BASE))) over the compared cases where both medians are above zero;
  // nullopt when there is no such case.
  std::optional<double> geomean_ratio;
  size_t ratio_cases = 0;
};
CompareSummary summarize(const Comparison& comparison);

// "summary (head against base, 12 cases): 2 regressed, 1 improved, 3 within noise, 6 unchanged;
// geometric mean of the instructions ratios head/base 1.0123 (+1.23%) over 12 cases".
std::string summary_line(const CompareSummary& summary);

}  // namespace moq::reports
