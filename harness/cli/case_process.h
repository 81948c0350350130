// Callgrind counts that depend on the code and the case alone. Measured in one process, a case's
// counts moved with what ran before it in that process (heap layout: the cases before it in a
// sweep, the command line's own allocations) by up to 0.1%, so `run` and `sweep`, or two sweeps
// of different neighbours, disagreed. Under callgrind each case is therefore measured in a
// process of its own, started the same way whatever the user's command line, environment,
// working directory, output path, build directory, round count or sweep:
//
//   argv         ./moqbench measure-case   (from the private directory; ./moqbench links to
//                                           this binary)
//   environment  MOQ_CALLGRIND_OUT_FILE=callgrind.out, nothing else
//   request      the file case-request: the case id, then warm-up rounds, measured rounds, the
//                CPU to pin to, whether to keep a profile and whether to read the allocation
//                marker, each zero-padded to a fixed width
//   result       the file case-result.json: a results document holding the one case,
//                profile.callgrind: the last measured round's callgrind dump, when asked for,
//                and allocation-marker: per measured round, the collected cost of the
//                allocation marker and its calls, when asked for
//
// The parent (outside valgrind) runs the sweep: progress, the results file, the summary.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/cli/commands.h"
#include "harness/runner/runner.h"
#include "harness/runner/scenario.h"
#include "reports/schema/results.h"

namespace moq::cli {

// What one callgrind process collects (role_split.h runs several). The default collects
// everything: the plain measurement.
struct CollectPass {
  // More callgrind options, e.g. --collect-atstart=no --toggle-collect=<function pattern>.
  std::vector<std::string> callgrind_args;
  // Read the allocation marker (alloc_counter.h: kAllocationMarker) of each measured round.
  bool read_allocation_marker = false;
};

// The allocation marker in one measured round: its collected cost (so it follows the pass's
// collection) and its calls (all of them whatever was collected, as callgrind writes them).
struct AllocationMarker {
  uint64_t ir = 0;
  uint64_t calls = 0;
};

// Measures spec in a canonical process of its own under callgrind. A process that fails
// (valgrind missing, a crash, no result) gives a failed case saying why. profile: where to keep
// the last measured round's callgrind dump (per function; `moqbench explain` reads it); empty:
// not kept.
results::CaseResult measure_case_in_callgrind_process(const harness::CaseSpec& spec,
                                                      const harness::RunOptions& options,
                                                      std::optional<int> cpu,
                                                      const std::string& profile = {},
                                                      const CollectPass& pass = {},
                                                      std::vector<AllocationMarker>* marker = {});

}  // namespace moq::cli
