// What `run` and `sweep` share: the measuring options and the measuring flow.
#include <algorithm>
#include <array>
#include <csignal>
#include <memory>

#include "harness/cli/case_process.h"
#include "harness/cli/commands.h"
#include "harness/cli/role_split.h"
#include "harness/cli/stop_signals.h"
#include "harness/runner/counter_choice.h"
#include "harness/runner/memory_check.h"
#include "harness/runner/meta.h"
#include "harness/runner/shard.h"
#include "harness/runner/sweep.h"
#include "reports/schema/results_file.h"

namespace moq::cli {

namespace {

// How the cases were chosen, for the results' plan: the command's own arguments (the sweep's
// options, or the case id), which is what a later run needs to make the same plan.
std::string plan_selection(const CliContext& ctx, const std::optional<results::ShardInfo>& shard) {
  std::vector<std::string> args(ctx.argv + std::min(ctx.argc, 1), ctx.argv + ctx.argc);
  std::string text = join(args, " ");
  if (shard)
    text += " (shard " + std::to_string(shard->index) + "/" + std::to_string(shard->count) +
            " of a sweep of " + std::to_string(shard->plan_cases) + " cases)";
  return text;
}

}  // namespace

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
  sub.add_option("--counter", options.counter, harness::counter_option_help())
      ->capture_default_str();
  sub.add_option("--event", options.event,
                 "perf event, a libpfm4 name (default instructions:u; e.g. "
                 "cpu_core/instructions/u on hybrid CPUs)");
  sub.add_option("--cpu", options.cpu, "pin the measuring thread to this CPU")
      ->check(CLI::Range(0, 65535));
  sub.add_option("--out", options.out,
                 "write the results as JSON (schema moqbench.results/3) to this file, rewritten "
                 "after each case");
  sub.add_flag("--roles", options.roles,
               "split each round's instructions and allocations by role (harness, publisher, "
               "relay, viewer, transport); callgrind only, in-memory transport only, about 9 "
               "more callgrind runs per case");
  sub.add_flag("--cache-sim", options.cache_sim,
               "callgrind only: simulate the caches too (valgrind --cache-sim=yes) and add "
               "l1_misses (I1mr+D1mr+D1mw) and ll_misses (ILmr+DLmr+DLmw) per round");
  sub.add_flag("--branch-sim", options.branch_sim,
               "callgrind only: simulate branch prediction too (valgrind --branch-sim=yes) and "
               "add branch_misses (Bcm+Bim) per round");
}

namespace {

// The valgrind options of the simulators asked for, and what is wrong with asking for them.
std::vector<std::string> simulator_args(const MeasureOptions& options) {
  std::vector<std::string> args;
  if (options.cache_sim) args.push_back("--cache-sim=yes");
  if (options.branch_sim) args.push_back("--branch-sim=yes");
  return args;
}

std::optional<std::string> simulator_problem(const MeasureOptions& options, bool callgrind) {
  if (!options.cache_sim && !options.branch_sim) return std::nullopt;
  const std::string flags = options.cache_sim && options.branch_sim ? "--cache-sim and --branch-sim"
                            : options.cache_sim                     ? "--cache-sim"
                                                                    : "--branch-sim";
  if (!callgrind)
    return flags + " need" + (options.cache_sim && options.branch_sim ? "" : "s") +
           " the callgrind counter (--counter callgrind): they are callgrind's simulators";
  if (options.roles) return flags + " and --roles measure differently: give one of them";
  return std::nullopt;
}

}  // namespace

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
  if (!options.event.empty() && backend->has_value() && !harness::counter_takes_event(**backend))
    return bad_input(ctx, sub,
                     "--event '" + options.event + "' applies to the " +
                         harness::event_counter_names() + " counter only, not to --counter " +
                         options.counter);
  harness::CounterRequest request{*backend, options.event, options.cpu};
  Result<harness::CounterChoice> choice = harness::choose_counter(request);
  if (!choice) return bad_input(ctx, sub, choice.error().message);
  if (std::optional<std::string> problem = simulator_problem(options, choice->reexec))
    return bad_input(ctx, sub, *problem);
  err << "moqbench: " << choice->why << '\n';
  if (!options.event.empty() && !harness::counter_takes_event(choice->backend))
    err << "moqbench: --event '" << options.event << "' is ignored: the counter is not "
        << harness::event_counter_names() << '\n';

  std::vector<std::string> command_line(ctx.argv, ctx.argv + ctx.argc);
  results::Meta meta =
      harness::make_meta(choice->backend, choice->event, options.cpu, command_line);
  meta.shard = shard;
  const harness::RunOptions run{options.warmup, options.rounds};
  meta.plan = results::PlanInfo{{}, harness::plan_digest(cases, run), plan_selection(ctx, shard)};
  for (const harness::CaseSpec& c : cases)
    meta.plan->cases.push_back(c.id());
  meta.run = results::RunEnd{};

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
  // A signal stops the sweep after the case that is running, so the results file can say how the
  // run ended (the case in hand is cut short by its callgrind process, which gets it too).
  StopSignals stop_signals;
  harness::SweepProgress progress{&err, ctx.io->err_is_terminal, StopSignals::flag()};
  // Under callgrind each case runs in a canonical process of its own (case_process.h); other
  // counters measure in this process.
  if (choice->reexec)
    err << "moqbench: each case is measured in a process of its own under callgrind, started the "
           "same way whatever the command line and environment\n";
  harness::CaseMeasurer measure = [&](const harness::CaseSpec& spec) {
    if (!choice->reexec) return harness::run_case(spec, run, choice->counter.get());
    return options.roles
               ? measure_case_by_role(spec, run, options.cpu)
               : measure_case_in_callgrind_process(spec, run, options.cpu, options.profile,
                                                   CollectPass{simulator_args(options), false});
  };
  Result<harness::SweepResult> result =
      harness::run_sweep(cases, measure, writer ? &*writer : nullptr, progress);
  // How the run ended goes into the file; stdout, a FIFO or a device gets the document once, now:
  // after the last case or the interrupt.
  const int stopped_by = result ? result->stopped_by : 0;
  if (writer) {
    // A sweep that a write error ended keeps "running": incomplete.
    const results::RunState state = !result           ? results::RunState::kRunning
                                    : stopped_by != 0 ? results::RunState::kInterrupted
                                                      : results::RunState::kComplete;
    if (results::Status st = writer->finish(state, stopped_by); !st) {
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
        << (writer->path() == "-" ? std::string("standard output") : writer->path())
        << (stopped_by != 0 ? " (marked interrupted)" : "") << '\n';
  // Interrupted: the shell's convention for a process a signal ended, so nothing reads it as done.
  if (stopped_by != 0) {
    err << "moqbench: interrupted by signal " << stopped_by << " after " << result->cases.size()
        << " of " << cases.size() << " cases\n";
    return 128 + stopped_by;
  }
  return result->failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace moq::cli
