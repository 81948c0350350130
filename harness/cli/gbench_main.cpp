// moqbench_gbench: every case of every scenario's default sweep grid as a Google Benchmark, for
// those who drive benchmarks through Google Benchmark. One benchmark iteration is one round
// (set up and warmed up once, outside timing; each round's delivery is checked outside timing).
// Counters per round, medians over the iterations as moqbench reports them (the names end in
// _median): instructions (when a counter is available), allocations (and allocations_max, the
// worst round) and allocation_bytes, plus the stack's streams_opened, wire_bytes and tasks_run.
//
// Instruction counter: --moq_counter=auto|none|<backend> as moqbench's --counter (default: the
// first backend that measures in this process, perf where the PMU works, else none). callgrind
// re-runs the binary under valgrind; pair it with a short --benchmark_min_time, since Google
// Benchmark picks iteration counts by wall time.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "harness/cli/fatal_errors.h"
#include "harness/counters/aligned_stack.h"
#include "harness/counters/alloc_counter.h"
#include "harness/counters/callgrind_launch.h"
#include "harness/runner/case_builder.h"
#include "harness/runner/counter_choice.h"
#include "harness/runner/registrar.h"

namespace {

using moq::harness::Case;
using moq::harness::CaseSpec;

constexpr uint32_t kWarmupRounds = 3;

void run_benchmark(benchmark::State& state, const CaseSpec* spec,
                   moq::counters::InstructionCounter* counter) {
  moq::Result<std::unique_ptr<Case>> made = spec->scenario().make(*spec);
  if (!made) {
    state.SkipWithError(("building the case: " + made.error().message).c_str());
    return;
  }
  Case& c = **made;
  if (moq::Status st = c.setup(); !st) {
    state.SkipWithError(("setup: " + st.error().message).c_str());
    return;
  }
  uint64_t round = 0;
  auto check = [&](uint64_t r) -> std::string {
    moq::harness::RoundCheck chk = c.check_round(r);
    if (!chk.broken.empty()) return "round " + std::to_string(r + 1) + ": " + chk.broken;
    if (chk.delivered == chk.expected) return {};
    return "round " + std::to_string(r + 1) + ": delivery check failed: delivered " +
           describe(chk.delivered) + "; expected " + describe(chk.expected);
  };
  const uint64_t warmup = std::max<uint64_t>(kWarmupRounds, c.min_warmup_rounds());
  for (; round < warmup; ++round) {
    c.prepare_round(round);
    moq::Status st = c.run_round(round);
    std::string bad = st ? check(round) : st.error().message;
    if (!bad.empty()) {
      state.SkipWithError(bad.c_str());
      return;
    }
  }
  // One sample per measured round, as moqbench takes them; pushed outside the measured region.
  std::vector<uint64_t> instructions, allocs, alloc_bytes, streams, wire, tasks;
  for (auto _ : state) {
    state.PauseTiming();
    c.prepare_round(round);
    const moq::harness::StackCounts a = c.stack_counts();
    state.ResumeTiming();
    if (counter) {
      if (moq::Status st = counter->start(); !st) {
        state.SkipWithError(st.error().message.c_str());
        break;
      }
    }
    const moq::counters::AllocSnapshot before = moq::counters::alloc_snapshot();
    moq::Status st = c.run_round(round);
    const moq::counters::AllocSnapshot used = moq::counters::alloc_snapshot() - before;
    moq::Result<moq::counters::InstrReading> reading = moq::counters::InstrReading{};
    if (counter) reading = counter->stop();
    state.PauseTiming();
    const moq::harness::StackCounts b = c.stack_counts();
    std::string bad = !st ? st.error().message : !reading ? reading.error().message : check(round);
    if (!bad.empty()) {
      state.SkipWithError(bad.c_str());
      break;
    }
    instructions.push_back(reading->instructions);
    allocs.push_back(used.allocs);
    alloc_bytes.push_back(used.bytes);
    streams.push_back(b.streams_opened - a.streams_opened);
    wire.push_back(b.wire_bytes - a.wire_bytes);
    tasks.push_back(b.tasks_run - a.tasks_run);
    ++round;
    state.ResumeTiming();
  }
  if (instructions.empty()) return;
  // Medians per round (the lower middle, as moqbench's results), and the allocation maximum
  // (allocation budgets are maxima: a median hides a round that allocates). The names say so.
  auto set = [&](const char* name, std::vector<uint64_t> samples, bool with_max = false) {
    const moq::results::MetricStats s = *moq::results::compute_stats(std::move(samples));
    state.counters[std::string(name) + "_median"] = static_cast<double>(s.median);
    if (with_max) state.counters[std::string(name) + "_max"] = static_cast<double>(s.max);
  };
  if (counter) set("instructions", std::move(instructions));
  set("allocations", std::move(allocs), true);
  set("allocation_bytes", std::move(alloc_bytes));
  set("streams_opened", std::move(streams));
  set("wire_bytes", std::move(wire));
  set("tasks_run", std::move(tasks));
  c.teardown();
}

int gbench_main(int argc, char** argv) {
  // Our own flag, taken out before Google Benchmark sees the arguments.
  std::string counter_flag;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--moq_counter=", 14) == 0) {
      counter_flag = argv[i] + 14;
    } else {
      args.push_back(argv[i]);
    }
  }
  moq::harness::CounterRequest request;
  if (!counter_flag.empty()) {
    moq::Result<std::optional<moq::results::CounterBackend>> backend =
        moq::harness::parse_counter_option(counter_flag);
    if (!backend) {
      std::cerr << "moqbench_gbench: --moq_counter: " << backend.error().message << '\n';
      return 2;
    }
    request.backend = *backend;
  }
  // Without the flag, our default (counter_choice.h): never a silent re-run under valgrind, and
  // its line says "the default" rather than "asked for".
  moq::Result<moq::harness::CounterChoice> choice =
      counter_flag.empty() ? moq::harness::choose_default_counter(request, "--moq_counter")
                           : moq::harness::choose_counter(request);
  if (!choice) {
    std::cerr << "moqbench_gbench: " << choice.error().message << '\n';
    return 2;
  }
  std::cerr << "moqbench_gbench: " << choice->why << '\n';
  if (choice->reexec) {
    moq::Result<int> status = moq::counters::run_under_callgrind(argc, argv);
    if (status) return *status;
    std::cerr << "moqbench_gbench: " << status.error().message << '\n';
    return 2;
  }

  moq::harness::ScenarioRegistry registry;
  if (moq::Status st = moq::harness::register_linked_scenarios(registry); !st) {
    std::cerr << "moqbench_gbench: scenario registry: " << st.error().message << '\n';
    return 1;
  }
  // Specs live until exit: the registered benchmarks point at them.
  static std::vector<std::unique_ptr<CaseSpec>> specs;
  for (const auto& scenario : registry.scenarios()) {
    for (const std::string& bench : scenario->benches) {
      moq::Result<std::vector<CaseSpec>> grid =
          moq::harness::expand_grid(registry, *scenario, bench, {});
      if (!grid) {
        std::cerr << "moqbench_gbench: " << scenario->name << ": " << grid.error().message << '\n';
        return 1;
      }
      for (CaseSpec& spec : *grid) {
        specs.push_back(std::make_unique<CaseSpec>(std::move(spec)));
        benchmark::RegisterBenchmark(specs.back()->id().c_str(), run_benchmark, specs.back().get(),
                                     choice->counter.get());
      }
    }
  }
  int gb_argc = static_cast<int>(args.size());
  benchmark::Initialize(&gb_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(gb_argc, args.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  moq::cli::install_fatal_error_handlers("moqbench_gbench");
  return moq::counters::run_on_page_aligned_stack(gbench_main, argc, argv);
}
