#include "harness/counters/open_counter.h"

namespace moq::counters {

Result<std::unique_ptr<InstructionCounter>> open_instruction_counter(
    const CounterOptions& options) {
  Result<std::vector<CounterBackendDef>> defs = registered_counter_backends();
  if (!defs) return defs.error();
  if (options.backend == CounterBackend::kNone)
    return Error{0, "counter backend 'none' counts no instructions: choose " +
                        counter_backend_names(*defs, " or ")};
  for (const CounterBackendDef& def : *defs) {
    if (def.backend != options.backend) continue;
    Result<CounterOpening> opened = def.open(options);
    if (!opened) return opened.error();
    return std::move(opened->counter);
  }
  return Error{0, "no counter backend '" + std::string(options.backend.name()) +
                      "' in this program (choose " + counter_backend_names(*defs, " or ") + ")"};
}

}  // namespace moq::counters
