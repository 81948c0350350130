// `moqbench explain BASE HEAD [CASE]`: where one measured round's instructions went, function by
// function, between two builds. Each side is a callgrind profile of one measured round (`moqbench
// run --profile`), or the case measured again for it in one round under callgrind: by a moqbench
// binary given on the command line, or by the binary a results file names (its meta's command
// line), with the results' warm-up rounds. Callgrind counts depend on the code and the case alone
// (case_process.h), so the round explained is the round the results measured.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/counters/callgrind_profile.h"
#include "model/base/result.h"
#include "reports/output_format.h"

namespace moq::cli {

struct FunctionDelta {
  std::string name;
  std::string where;  // "file:line", or "" without debug information
  int64_t self_base = 0, self_head = 0;
  int64_t inclusive_base = 0, inclusive_head = 0;
  int64_t self_delta() const { return self_head - self_base; }
  int64_t inclusive_delta() const { return inclusive_head - inclusive_base; }
};

struct Explanation {
  std::string case_id;
  std::string base_label, head_label;
  uint64_t base_total = 0, head_total = 0;
  std::string unit = "instructions";     // what the costs count (explain --event)
  std::vector<FunctionDelta> functions;  // changed ones, by |self delta| then |inclusive delta|
  size_t unchanged = 0;                  // functions whose self and inclusive costs are equal
};

// The per-function differences of two profiles of one round.
Explanation explain_profiles(const counters::CallgrindProfile& base,
                             const counters::CallgrindProfile& head);

// The top `top` functions as a table (text or Markdown), with the totals line above it.
std::string render_explanation(const Explanation& e, size_t top, reports::OutputFormat format);

}  // namespace moq::cli
