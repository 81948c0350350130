// Opens the instruction counter of a chosen backend behind the common InstructionCounter API.
#pragma once

#include <memory>

#include "harness/counters/callgrind_counter.h"
#include "harness/counters/instruction_counter.h"
#include "harness/counters/perf_counter.h"
#include "model/base/result.h"

namespace moq::counters {

struct CounterOptions {
  CounterBackend backend = CounterBackend::kNone;
  PerfOptions perf;            // used when backend == Perf
  CallgrindOptions callgrind;  // used when backend == Callgrind
};

// The counter for options.backend. Backend None has no instruction counter: that is an Error,
// so a caller cannot mistake "not measured" for a count. For Callgrind the process must already
// run under callgrind (see run_under_callgrind).
Result<std::unique_ptr<InstructionCounter>> open_instruction_counter(const CounterOptions& options);

}  // namespace moq::counters
