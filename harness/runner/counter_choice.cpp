#include "harness/runner/counter_choice.h"

#include <cstdlib>

#include "harness/counters/callgrind_launch.h"
#include "harness/counters/cpu_pin.h"
#include "harness/counters/open_counter.h"

namespace moq::harness {

namespace {

// valgrind was started by run_under_callgrind (or by hand the same way).
bool in_callgrind_rerun() {
  return counters::running_under_valgrind() && std::getenv(counters::kCallgrindOutFileEnv);
}

Result<std::unique_ptr<counters::InstructionCounter>> open_perf(const CounterRequest& request) {
  counters::CounterOptions options;
  options.backend = CounterBackend::kPerf;
  if (!request.event.empty()) options.perf.event = request.event;
  return counters::open_instruction_counter(options);
}

Result<std::unique_ptr<counters::InstructionCounter>> open_callgrind() {
  counters::CounterOptions options;
  options.backend = CounterBackend::kCallgrind;
  return counters::open_instruction_counter(options);
}

Result<CounterChoice> choose_callgrind(std::string why) {
  CounterChoice choice;
  choice.backend = CounterBackend::kCallgrind;
  if (in_callgrind_rerun()) {
    Result<std::unique_ptr<counters::InstructionCounter>> c = open_callgrind();
    if (!c) return Error{0, "--counter callgrind: " + c.error().message};
    choice.counter = std::move(*c);
    choice.why = std::move(why) + "; running under callgrind, re-run by moqbench";
    return choice;
  }
  if (counters::running_under_valgrind())
    return Error{0,
                 "--counter callgrind: this process runs under valgrind but was not started by "
                 "moqbench (MOQ_CALLGRIND_OUT_FILE is not set); run moqbench directly and it "
                 "re-runs itself under valgrind"};
  Result<std::string> valgrind = counters::find_valgrind();
  if (!valgrind) return Error{0, "--counter callgrind: " + valgrind.error().message};
  choice.reexec = true;
  choice.why = std::move(why) + "; re-running under " + *valgrind + " --tool=callgrind";
  return choice;
}

Status pin_if_asked(const CounterRequest& request) {
  if (!request.cpu) return {};
  if (Status st = counters::pin_current_thread_to_cpu(*request.cpu); !st)
    return Error{0, "--cpu " + std::to_string(*request.cpu) + ": " + st.error().message};
  return {};
}

}  // namespace

Result<std::optional<CounterBackend>> parse_counter_option(std::string_view text) {
  if (text == "auto") return std::optional<CounterBackend>();
  if (std::optional<CounterBackend> backend = results::parse_counter_backend(text)) return backend;
  return Error{0, "--counter: unknown counter '" + std::string(text) + "' (choose auto, " +
                      results::counter_backend_list() + ")"};
}

Result<CounterChoice> choose_counter(const CounterRequest& request) {
  // First, and whatever the counter: --cpu names a CPU, not a backend, so an error must say what
  // is wrong with the CPU rather than blame the counter that happened to pin.
  if (Status st = pin_if_asked(request); !st) return st.error();
  if (request.backend) {
    switch (*request.backend) {
      case CounterBackend::kNone: {
        CounterChoice choice;
        choice.why = "counter none (asked for): instructions are not counted";
        return choice;
      }
      case CounterBackend::kPerf: {
        Result<std::unique_ptr<counters::InstructionCounter>> c = open_perf(request);
        if (!c) return Error{0, "--counter perf: " + c.error().message};
        CounterChoice choice;
        choice.backend = CounterBackend::kPerf;
        choice.why = "counter perf (asked for): event " + (*c)->event();
        choice.counter = std::move(*c);
        return choice;
      }
      case CounterBackend::kCallgrind:
        return choose_callgrind("counter callgrind (asked for)");
    }
  }
  // auto. Inside moqbench's own callgrind re-run the choice was made already.
  if (in_callgrind_rerun()) return choose_callgrind("counter callgrind (auto)");
  Result<std::unique_ptr<counters::InstructionCounter>> perf = open_perf(request);
  if (perf) {
    CounterChoice choice;
    choice.backend = CounterBackend::kPerf;
    choice.why = "counter perf (auto: the PMU counts " + (*perf)->event() + ")";
    choice.counter = std::move(*perf);
    return choice;
  }
  std::string perf_failed = "perf unavailable: " + perf.error().message;
  Result<std::string> valgrind = counters::find_valgrind();
  if (valgrind) return choose_callgrind("counter callgrind (auto: " + perf_failed + ")");
  CounterChoice choice;
  choice.why = "counter none (auto: " + perf_failed + "; and " + valgrind.error().message +
               "): instructions are not counted";
  return choice;
}

}  // namespace moq::harness
