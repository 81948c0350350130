#include "harness/counters/open_counter.h"

namespace moq::counters {

Result<std::unique_ptr<InstructionCounter>> open_instruction_counter(
    const CounterOptions& options) {
  switch (options.backend) {
    case CounterBackend::kPerf: {
      Result<std::unique_ptr<PerfCounter>> c = PerfCounter::open(options.perf);
      if (!c) return c.error();
      return std::unique_ptr<InstructionCounter>(std::move(*c));
    }
    case CounterBackend::kCallgrind: {
      Result<std::unique_ptr<CallgrindCounter>> c = CallgrindCounter::open(options.callgrind);
      if (!c) return c.error();
      return std::unique_ptr<InstructionCounter>(std::move(*c));
    }
    case CounterBackend::kNone:
      break;
  }
  return Error{0, "counter backend 'none' counts no instructions: choose perf or callgrind"};
}

}  // namespace moq::counters
