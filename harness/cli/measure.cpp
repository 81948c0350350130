// What `run` and `sweep` share: the measuring options and the measuring flow.
#include <memory>

#include "harness/cli/case_process.h"
#include "harness/cli/commands.h"
#include "harness/cli/role_split.h"
#include "harness/runner/memory_check.h"
#include "harness/runner/meta.h"
#include "harness/runner/sweep.h"
#include "reports/schema/results_file.h"

namespace moq::cli {

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const std::string& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

int bad_input(const CliContext& ctx, const std::string& sub, const std::string& message) {
  ctx.io->err << "moqbench " << sub << ": " << message << '\n';
  return kExitBadInput;
}

void add_measure_options(CLI::App& sub, MeasureOptions& options) {
  sub.add_option("--rounds", options.rounds, "measured rounds per case, one reading each")
      ->check(CLI::Range(1u, 1'000'000u))
      ->capture_default_str();
  sub.add_option("--warmup", options.warmup, "rounds run before measuring")
      ->check(CLI::Range(0u, 1'000'000u))
      ->capture_default_str();
  sub.add_option("--counter", options.counter,
                 "instruction counter: auto (perf where the PMU works, else callgrind where "
                 "valgrind is installed, else none), perf, callgrind or none")
      ->capture_default_str();
  sub.add_option("--event", options.event,
                 "perf event, a libpfm4 name (default instructions:u; e.g. "
                 "cpu_core/instructions/u on hybrid CPUs)");
  sub.add_option("--cpu", options.cpu, "pin the measuring thread to this CPU")
      ->check(CLI::Range(0, 65535));
  sub.add_option("--out", options.out,
                 "write the results as JSON (schema moqbench.results/1) to this file, rewritten "
                 "after each case");
  sub.add_flag("--roles", options.roles,
               "split each round's instructions and allocations by role (harness, publisher, "
               "relay, viewer, transport); callgrind only, in-memory transport only, about 9 "
               "more callgrind runs per case");
}

int measure_cases(const CliContext& ctx, const std::string& sub, const MeasureOptions& options,
                  const std::vector<harness::CaseSpec>& cases,
                  const std::function<void(const results::Meta&,
                                           const std::vector<results::CaseResult>&)>& summarize,
                  const std::optional<results::ShardInfo>& shard) {
  std::ostream& err = ctx.io->err;
  // Every case is checked against memory first, so that one too big for this machine is bad
  // input, named with its size and the axes to lower, before anything runs.
  const harness::MemoryLimit limit = harness::memory_limit();
  for (const harness::CaseSpec& c : cases) {
    if (Status st = harness::check_case_memory(c, limit); !st)
      return bad_input(ctx, sub, st.error().message);
  }
  Result<std::optional<results::CounterBackend>> backend =
      harness::parse_counter_option(options.counter);
  if (!backend) return bad_input(ctx, sub, backend.error().message);
  if (!options.event.empty() && backend->has_value() && **backend != results::CounterBackend::kPerf)
    return bad_input(ctx, sub,
                     "--event '" + options.event +
                         "' applies to the perf counter only, not to --counter " + options.counter);
  harness::CounterRequest request{*backend, options.event, options.cpu};
  Result<harness::CounterChoice> choice = harness::choose_counter(request);
  if (!choice) return bad_input(ctx, sub, choice.error().message);
  err << "moqbench: " << choice->why << '\n';
  if (!options.event.empty() && choice->backend != results::CounterBackend::kPerf)
    err << "moqbench: --event '" << options.event << "' is ignored: the counter is not perf\n";

  std::vector<std::string> command_line(ctx.argv, ctx.argv + ctx.argc);
  std::string event = choice->counter ? choice->counter->event() : std::string();
  if (choice->backend == results::CounterBackend::kCallgrind && event.empty()) event = "Ir";
  results::Meta meta = harness::make_meta(choice->backend, event, options.cpu, command_line);
  meta.shard = shard;

  // The results file is created (empty and valid) before anything runs, so an unwritable path
  // is bad input reported at once, before a re-run under valgrind.
  std::optional<results::ResultsWriter> writer;
  if (!options.out.empty()) {
    results::Result<results::ResultsWriter> w = results::ResultsWriter::create(options.out, meta);
    if (!w) return bad_input(ctx, sub, "--out " + options.out + ": " + w.error().message);
    writer.emplace(std::move(*w));
  }
  if (!options.profile.empty() && !choice->reexec)
    return bad_input(ctx, sub, "--profile needs the callgrind counter (--counter callgrind)");
  if (options.roles && !choice->reexec)
    return bad_input(ctx, sub, "--roles needs the callgrind counter (--counter callgrind)");
  if (options.roles && !options.profile.empty())
    return bad_input(ctx, sub, "--roles and --profile measure differently: give one of them");
  harness::RunOptions run{options.warmup, options.rounds};
  harness::SweepProgress progress{&err, ctx.io->err_is_terminal};
  // Under callgrind each case runs in a canonical process of its own (case_process.h); other
  // counters measure in this process.
  if (choice->reexec)
    err << "moqbench: each case is measured in a process of its own under callgrind, started the "
           "same way whatever the command line and environment\n";
  harness::CaseMeasurer measure = [&](const harness::CaseSpec& spec) {
    if (!choice->reexec) return harness::run_case(spec, run, choice->counter.get());
    return options.roles
               ? measure_case_by_role(spec, run, options.cpu)
               : measure_case_in_callgrind_process(spec, run, options.cpu, options.profile);
  };
  Result<harness::SweepResult> result =
      harness::run_sweep(cases, measure, writer ? &*writer : nullptr, progress);
  // Stdout, a FIFO or a device gets the document once, now: after the last case or the interrupt.
  if (writer) {
    if (results::Status st = writer->finish(); !st) {
      err << "moqbench: " << st.error().message << '\n';
      return kExitFailed;
    }
  }
  if (!result) {
    err << "moqbench: " << result.error().message << '\n';
    return kExitFailed;
  }
  summarize(meta, result->cases);
  if (writer)
    err << "moqbench: results written to "
        << (writer->path() == "-" ? std::string("standard output") : writer->path()) << '\n';
  return result->failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace moq::cli
