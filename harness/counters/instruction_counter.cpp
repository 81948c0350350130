#include "harness/counters/instruction_counter.h"

namespace moq::counters {

const char* counter_backend_name(CounterBackend backend) {
  switch (backend) {
    case CounterBackend::None:
      return "none";
    case CounterBackend::Perf:
      return "perf";
    case CounterBackend::Callgrind:
      return "callgrind";
  }
  return "invalid";
}

Result<CounterBackend> parse_counter_backend(std::string_view name) {
  for (CounterBackend b : {CounterBackend::None, CounterBackend::Perf, CounterBackend::Callgrind}) {
    if (name == counter_backend_name(b)) return b;
  }
  return Error{0, "unknown counter backend '" + std::string(name) +
                      "': expected one of none, perf, callgrind"};
}

}  // namespace moq::counters
