// Counter backends register themselves, as scenarios do (harness/runner/registrar.h): a backend is
// one .cpp file in harness/counters, named <name>_counter.cpp so that the CMake glob builds it,
// which defines its InstructionCounter and a function returning its CounterBackendDef, named in
// MOQ_REGISTER_COUNTER_BACKEND. The factory (open_counter.h), `--counter` and `auto`
// (harness/runner/counter_choice.h), the Google Benchmark adapter and the help text all read the
// registry; the one other place the name is written is the results schema's list
// (reports/schema/counter_backend.h), without which results cannot record it.
//
//   CounterBackendDef papi_backend() { CounterBackendDef def; ...; return def; }
//   MOQ_REGISTER_COUNTER_BACKEND(papi_backend);
//
// A linker drops an object file of a static archive that nothing refers to, registrar and all, so
// the backends' archive is linked whole (CMakeLists.txt).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/counters/instruction_counter.h"
#include "model/base/result.h"

namespace moq::counters {

struct CounterOptions {
  CounterBackend backend = CounterBackend::kNone;
  std::string event;  // what to count, for a backend that takes an event; empty: its default
};

// A counter opened in this process, and the words for the line that says what was chosen.
struct CounterOpening {
  std::unique_ptr<InstructionCounter> counter;
  // After "counter <name> (asked for)": ": event instructions:u".
  std::string detail;
  // Why auto could take it, said instead of `detail` when auto does: "the PMU counts
  // instructions:u". Empty: auto says `detail` too.
  std::string because;
};

// A backend that measures from outside: the program runs again under a tool (callgrind: under
// valgrind), and the counter opens in that re-run.
struct CounterRerun {
  std::string_view host;  // "under valgrind"
  // true: this process is that re-run (auto takes the backend first); false: it is not; an Error:
  // it runs under the tool but was not started to measure.
  Result<bool> (*hosted)() = nullptr;
  // How the program will run again, after "counter <name> (...)": "; re-running under ...",
  // or why it cannot here.
  Result<std::string> (*prepare)() = nullptr;
  // The event results record for counts the re-run takes.
  std::string_view event;
};

struct CounterBackendDef {
  // Its name: `--counter` takes it and results record it (when the results schema lists it).
  CounterBackend backend = CounterBackend::kNone;
  // auto tries the backends of rank 1, 2, ... in turn; 0: only when asked for by name.
  int auto_rank = 0;
  // Where auto takes it, for --counter's help: "where the PMU works".
  std::string_view auto_condition;
  // Where it cannot measure in this process, "without a working PMU": the Google Benchmark
  // adapter's default says so when it counts nothing.
  std::string_view auto_missing;
  bool takes_event = false;  // --event chooses what it counts
  // Opens the counter in this process (under its tool, for a backend with a re-run).
  Result<CounterOpening> (*open)(const CounterOptions& options) = nullptr;
  std::optional<CounterRerun> rerun;
};

using CounterBackendFactory = CounterBackendDef (*)();

// Constructed by MOQ_REGISTER_COUNTER_BACKEND; adds its factory to the process-wide list.
class CounterBackendRegistrar {
 public:
  explicit CounterBackendRegistrar(CounterBackendFactory factory);
};

// Every backend linked into this binary, auto's in rank order, then the others by name. An Error
// names a malformed definition or a name registered twice (or "none" or "auto", which are not
// backends but --counter's other values).
Result<std::vector<CounterBackendDef>> registered_counter_backends();

// The registered backend called `name`; nullopt when there is none.
Result<std::optional<CounterBackendDef>> find_counter_backend(std::string_view name);

// "perf, callgrind": the registered names, in registry order, for messages.
std::string counter_backend_names(const std::vector<CounterBackendDef>& defs,
                                  const char* last_separator = ", ");

}  // namespace moq::counters

#define MOQ_COUNTER_REGISTRAR_CONCAT_(a, b) a##b
#define MOQ_COUNTER_REGISTRAR_CONCAT(a, b) MOQ_COUNTER_REGISTRAR_CONCAT_(a, b)

// At namespace scope in a backend's .cpp file: `factory` is a function `CounterBackendDef
// factory()`.
#define MOQ_REGISTER_COUNTER_BACKEND(factory)                                  \
  namespace {                                                                  \
  const ::moq::counters::CounterBackendRegistrar MOQ_COUNTER_REGISTRAR_CONCAT( \
      moq_counter_backend_registrar_, __LINE__){&(factory)};                   \
  }                                                                            \
  static_assert(true, "")
