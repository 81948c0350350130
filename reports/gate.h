// gate: BASE against HEAD with limits, a verdict per case and an exit code for CI.
//
// Per case present in both files (instructions: medians of the measured rounds; allocations: the
// maximum over the measured rounds, so one round that allocates more is caught):
//   - HEAD failed                      -> regressed (a failure is never an improvement)
//   - BASE failed, HEAD did not        -> improved (nothing to compare counts with)
//   - instructions change > +limit %   -> regressed; < -limit % -> improved
//     (BASE 0 and HEAD > 0 counts as regressed; skipped under the "none" backend)
//   - allocations max HEAD - max BASE > limit -> regressed; max BASE - max HEAD > limit -> improved
//   - a regression in either metric wins over an improvement in the other
// Cases only in HEAD are new (but a new case that failed is regressed), cases only in BASE
// removed. Work not done fails the gate, each kind with its own exit code: a removed case (unless
// allow_removed and HEAD's recorded plan left it out on purpose), no case in common, instructions
// compared where a file measured none (--counter none; ask for allocations alone instead).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reports/errors.h"
#include "reports/inputs.h"
#include "reports/output_format.h"
#include "reports/overrides.h"

namespace moq::reports {

struct GateLimits {
  double max_instructions_regression = 1.0;  // percent
  uint64_t max_allocations_increase = 0;     // absolute, per round (the maximum over rounds)
};

struct GateOptions {
  GateLimits limits;                    // defaults for every case
  std::vector<GateOverride> overrides;  // per-case limits (overrides.h)
  bool fail_on_removed = false;         // accepted for old command lines: removed cases fail anyway
  // A removed case passes only when HEAD records a plan (a shard's) that left it out on purpose;
  // a HEAD with no plan, or whose plan has the case, did not do that work.
  bool allow_removed = false;
  bool compare_instructions = true;  // --metric: the metrics compared
  bool compare_allocations = true;
  // callgrind's simulated misses (l1_misses, ll_misses, branch_misses; results.h kSimMetrics),
  // judged on their medians with the instructions' percentage limit: both files must have them
  // (measured with --cache-sim / --branch-sim).
  std::vector<results::Metric> simulated;
};

// "instructions,allocations" (any non-empty subset, with any of l1_misses, ll_misses and
// branch_misses): sets options' compare_* flags and simulated metrics.
Status parse_gate_metrics(std::string_view text, GateOptions& options);

enum class Verdict { kRegressed, kImproved, kUnchanged, kNew, kRemoved };
std::string_view to_string(Verdict verdict);

struct GateCase {
  std::string id;
  Verdict verdict = Verdict::kUnchanged;
  GateLimits limits;                       // the limits applied to this case
  const GateOverride* override = nullptr;  // the rule that set them, if any (points into options)
  bool base_failed = false;                // then base_* are the completed rounds' partial medians
  bool head_failed = false;
  std::optional<uint64_t> base_instructions;
  std::optional<uint64_t> head_instructions;
  std::optional<double> instructions_change_pct;
  std::optional<uint64_t> base_allocations;  // maximum over the measured rounds
  std::optional<uint64_t> head_allocations;
  std::vector<std::string>
      reasons;  // why regressed or improved, e.g. "instructions +2.00% > +1.00%"
};

struct GateResult {
  std::string base_label, head_label;
  std::string counter;  // counter_text of the files
  GateLimits default_limits;
  bool fail_on_removed = false;
  std::vector<std::string> metrics;  // the metrics compared, named in every output
  size_t removed_refused = 0;        // removed cases that fail the gate
  size_t removed_allowed = 0;        // removed cases HEAD's plan left out, with allow_removed
  bool no_common_case = false;       // BASE and HEAD share no case
  std::optional<std::string> head_incomplete;  // incomplete_run() of HEAD: interrupted, unfinished
  bool instructions_not_measured = false;      // instructions asked for, a file measured none
  std::vector<GateCase> cases;                 // BASE order, then new cases in HEAD order
  std::vector<const GateOverride*> unused_overrides;  // rules that matched no case (typos?)

  size_t count(Verdict verdict) const;
  bool failed() const;  // exit_code() != 0
  // 0, or the first that applies of 7 (kExitNotMeasured), 6 (kExitNoCommonCase),
  // 4 (kExitIncomplete), 5 (kExitRemoved), 3 (kExitRegressed): work not done before a regression
  // in work done.
  int exit_code() const;
  std::string failure() const;  // what exit_code() stands for, "" when 0
};

inline constexpr int kExitOk = 0;
inline constexpr int kExitOutputError = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitRegressed = 3;
inline constexpr int kExitIncomplete = 4;    // gate: HEAD's run was interrupted or never finished
inline constexpr int kExitRemoved = 5;       // gate: cases of BASE missing from HEAD
inline constexpr int kExitNoCommonCase = 6;  // gate: BASE and HEAD share no case
inline constexpr int kExitNotMeasured = 7;   // gate: instructions compared, not measured

// Errors (exit 2): mismatched counter backends or events, a negative or non-finite limit.
// options must outlive the result (GateCase::override points into it).
Result<GateResult> gate(const InputFile& base, const InputFile& head, const GateOptions& options);

std::string render_gate(const GateResult& result, OutputFormat format);

}  // namespace moq::reports
