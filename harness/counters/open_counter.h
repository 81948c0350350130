// Opens the instruction counter of a chosen backend behind the common InstructionCounter API.
#pragma once

#include <memory>

#include "harness/counters/counter_registry.h"
#include "harness/counters/instruction_counter.h"
#include "model/base/result.h"

namespace moq::counters {

// The counter of the registered backend options.backend (counter_registry.h), opened in this
// process. Backend none has no instruction counter: that is an Error, so a caller cannot mistake
// "not measured" for a count; so is a name no backend registered. A backend that measures from
// outside (callgrind) opens only in the re-run it asks for (see run_under_callgrind).
Result<std::unique_ptr<InstructionCounter>> open_instruction_counter(const CounterOptions& options);

}  // namespace moq::counters
