// Runs a list of cases one after the other: a progress line on stderr before each (case i of n,
// its id, the elapsed time and, after a few cases, an ETA), each finished case appended to the
// results file at once (ResultsWriter), all of them returned for the table.
#pragma once

#include <csignal>
#include <functional>
#include <ostream>
#include <vector>

#include "harness/counters/instruction_counter.h"
#include "harness/runner/runner.h"
#include "harness/runner/scenario.h"
#include "model/base/result.h"
#include "reports/schema/results.h"
#include "reports/schema/results_file.h"

namespace moq::harness {

// Cases measured before the progress line shows an ETA (mean time per case so far x cases left).
inline constexpr size_t kEtaAfterCases = 3;

struct SweepProgress {
  std::ostream* out = nullptr;  // where progress lines go (stderr); null: silent
  bool overwrite = false;       // a terminal: redraw one line ("\r") instead of one line per case
  // Set by a signal handler to the signal's number (null: never stopped). The sweep stops before
  // its next case; a case that failed because the signal cut it short (its callgrind process got
  // the signal too) is dropped, not recorded as a failure of the code.
  const volatile std::sig_atomic_t* stop = nullptr;
};

struct SweepResult {
  std::vector<results::CaseResult> cases;  // in run order
  size_t failed = 0;
  int stopped_by = 0;  // the signal that stopped the sweep early; 0: every case ran
};

// Measures one case (run_case in this process, or a process of its own).
using CaseMeasurer = std::function<results::CaseResult(const CaseSpec&)>;

// Runs every case. `writer` (may be null) receives each case as it finishes; a case it refuses,
// or a write that fails, stops the sweep with that Error (the file keeps every case before it).
Result<SweepResult> run_sweep(const std::vector<CaseSpec>& cases, const CaseMeasurer& measure,
                              results::ResultsWriter* writer, const SweepProgress& progress);
// The same with run_case in this process.
Result<SweepResult> run_sweep(const std::vector<CaseSpec>& cases, const RunOptions& options,
                              counters::InstructionCounter* counter, results::ResultsWriter* writer,
                              const SweepProgress& progress);

}  // namespace moq::harness
