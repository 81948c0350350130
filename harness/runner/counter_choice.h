// `--counter auto|perf|callgrind|none`: which instruction counter a run uses, and why.
//
// auto takes perf where the PMU opens the event, else callgrind where valgrind is installed (the
// program then re-runs itself under valgrind), else none. Inside that re-run (valgrind started by
// run_under_callgrind), auto and callgrind open the callgrind counter.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "harness/counters/instruction_counter.h"
#include "model/base/result.h"

namespace moq::harness {

using results::CounterBackend;

// --counter's value: a backend's name (results::to_string), or "auto" for nullopt (choose one
// here); anything else is an Error naming the value.
Result<std::optional<CounterBackend>> parse_counter_option(std::string_view text);

struct CounterRequest {
  std::optional<CounterBackend> backend;  // nullopt: auto
  std::string event;                      // perf event (libpfm4 name); empty: instructions:u
  std::optional<int> cpu;                 // pin the measuring thread to this CPU
};

struct CounterChoice {
  CounterBackend backend = CounterBackend::kNone;
  // Callgrind chosen outside valgrind: the caller must run the program again under valgrind to
  // measure (moqbench: each case in a process of its own, cli/case_process.h; the Google
  // Benchmark adapter: the whole command, counters::run_under_callgrind).
  bool reexec = false;
  std::string why;  // one line for stderr: what was chosen and why
  std::unique_ptr<counters::InstructionCounter> counter;  // open, unless none or reexec
};

// Decides and, unless the choice is none or a re-run, opens the counter. An explicitly requested
// backend that cannot work here (perf without a PMU, callgrind without valgrind) is an Error
// naming the reason. Pins the calling thread when request.cpu is set.
Result<CounterChoice> choose_counter(const CounterRequest& request);

}  // namespace moq::harness
