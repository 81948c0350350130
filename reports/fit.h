// fit: how a cost grows along one axis of a sweep, in the spirit of Google Benchmark's complexity
// reports, so that a growth order can be gated (a teardown that went quadratic fails in one short
// run, long before anyone waits for a Nightly at large sizes).
//
// The cases of a results file that differ only in the axis form one series (their id with
// "axis=*"); each needs at least 3 distinct numeric values of the axis (4 or more to tell the
// orders apart well). Per series, with cost = the metric's median per measured round:
//   - slope: the least-squares slope of log(cost) against log(n) (1 for linear, 2 for quadratic,
//     lower when a constant part dominates);
//   - growth: each candidate g in O(1), O(log n), O(n), O(n log n), O(n^2), O(n^3) is fitted as
//     cost = a + b * g(n) (least squares, a and b >= 0), and its residual is the RMS of the
//     misfit over the mean cost; the growth is the simplest candidate whose residual is within
//     kGrowthTolerance of the best one (counts are exact, so the true order fits to ~0 and any
//     simpler one is far off, while a higher order always fits at least as well).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/errors.h"
#include "reports/output_format.h"
#include "reports/schema/results.h"

namespace moq::reports {

enum class Growth : uint8_t { kConstant, kLogN, kN, kNLogN, kN2, kN3 };
inline constexpr double kGrowthTolerance = 0.005;  // of the mean cost, RMS

// "O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)".
std::string_view to_string(Growth growth);
// Those spellings, also without spaces or with ² ³; an error names the text and the accepted ones.
Result<Growth> parse_growth(std::string_view text);

enum class FitMetric : uint8_t { kInstructions, kAllocations, kAllocationBytes };
std::string_view to_string(FitMetric metric);
Result<FitMetric> parse_fit_metric(std::string_view text);

struct FitPoint {
  double n = 0;
  double cost = 0;
  std::string id;
};

struct GrowthFit {
  std::string series;            // the cases' id with the axis written "axis=*"
  std::vector<FitPoint> points;  // ascending n
  double slope = 0;
  Growth growth = Growth::kConstant;
  double residual = 0;  // of the chosen candidate
  // A growth bound the series exceeds (render and gate say so).
  bool exceeds(std::optional<Growth> bound) const { return bound && growth > *bound; }
};

struct FitRequest {
  std::string scenario;  // empty: every scenario with the axis
  std::string axis;
  FitMetric metric = FitMetric::kInstructions;
};

// The series of file along the axis. An error when no series has 3 points (naming what was
// found), when the axis has a non-numeric value, or when a case lacks the metric (instructions
// under the "none" backend).
Result<std::vector<GrowthFit>> fit_growth(const results::ResultsFile& file,
                                          const FitRequest& request);
GrowthFit fit_series(std::string series, std::vector<FitPoint> points);

// One row per series (series, points, slope, growth, residual, and "exceeds O(..)" when bound is
// given and exceeded).
std::string render_fits(const std::vector<GrowthFit>& fits, const FitRequest& request,
                        std::optional<Growth> bound, OutputFormat format);

}  // namespace moq::reports
