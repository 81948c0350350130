// `--counter auto|none|<backend>`: which instruction counter a run uses, and why. The backends
// are those registered in harness/counters (counter_registry.h); nothing here names one.
//
// auto first takes a backend whose own re-run this process is (callgrind: moqbench re-ran itself
// under valgrind); else it tries the backends in their auto rank (perf where the PMU opens the
// event, then callgrind where valgrind is installed, the program then re-running itself under
// valgrind); else none.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "harness/counters/instruction_counter.h"
#include "model/base/result.h"

namespace moq::harness {

using results::CounterBackend;

// --counter's value: a registered backend's name, "none", or "auto" for nullopt (choose one
// here); anything else is an Error naming the value and the choices.
Result<std::optional<CounterBackend>> parse_counter_option(std::string_view text);

// --counter's help: "instruction counter: auto (perf where the PMU works, else ...), perf,
// callgrind or none".
std::string counter_option_help();

// Whether --event chooses what `backend` counts (false for none and for a name not registered),
// and the names of the backends it does that for ("perf"), for messages.
bool counter_takes_event(CounterBackend backend);
std::string event_counter_names();

struct CounterRequest {
  std::optional<CounterBackend> backend;  // nullopt: auto
  std::string event;                      // for a backend that takes one; empty: its default
  std::optional<int> cpu;                 // pin the measuring thread to this CPU
};

struct CounterChoice {
  CounterBackend backend = CounterBackend::kNone;
  // A backend that measures from outside, chosen outside its tool: the caller must run the
  // program again to measure (moqbench: each case in a process of its own under callgrind,
  // cli/case_process.h; the Google Benchmark adapter: the whole command,
  // counters::run_under_callgrind).
  bool reexec = false;
  std::string event;  // what the counts count, as results record it; empty for none
  std::string why;    // one line for stderr: what was chosen and why
  std::unique_ptr<counters::InstructionCounter> counter;  // open, unless none or reexec
};

// Decides and, unless the choice is none or a re-run, opens the counter. An explicitly requested
// backend that cannot work here (perf without a PMU, callgrind without valgrind) is an Error
// naming the reason. Pins the calling thread when request.cpu is set.
Result<CounterChoice> choose_counter(const CounterRequest& request);

// The Google Benchmark adapter's default, which never re-runs the program on its own: the backend
// whose re-run this process is, else the first of auto's backends that measures in this process,
// else none (the line names `flag`, the option that asks for a backend that re-runs).
Result<CounterChoice> choose_default_counter(const CounterRequest& request, std::string_view flag);

}  // namespace moq::harness
