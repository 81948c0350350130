// Readable output of measured cases: the sweep table (one row per case, per-round medians) and
// the summary of one case (`moqbench run`).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "reports/schema/results.h"

namespace moq::harness {

// One row per case: id, then the median per round of instructions, allocations, allocation bytes,
// wall microseconds, streams opened, wire bytes and tasks run, the frames delivered per round,
// and ok / FAILED. Failure reasons follow the table.
void print_sweep_table(std::ostream& out, const std::vector<results::CaseResult>& cases);

// Every metric with median, min, max and mean, what was delivered, and the failure reason.
void print_case_summary(std::ostream& out, const results::Meta& meta, const results::CaseResult& c);

}  // namespace moq::harness
