// One function per subcommand: it adds the subcommand and its options to the CLI11 app and
// returns the action that runs it once parsed (returning the exit status). The report commands
// (compare, gate, report, merge) live with the reports library and are added the same way.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/cli/cli.h"
#include "harness/runner/counter_choice.h"
#include "harness/runner/runner.h"
#include "harness/runner/scenario.h"

namespace moq::cli {

struct CliContext {
  int argc;
  char** argv;
  const harness::ScenarioRegistry* registry;
  const CliIo* io;
};

using Action = std::function<int()>;

Action add_list_command(CLI::App& app, const CliContext& ctx);
Action add_run_command(CLI::App& app, const CliContext& ctx);
Action add_sweep_command(CLI::App& app, const CliContext& ctx);
// The reports library's commands (commands_reports.cpp).
Action add_compare_command(CLI::App& app, const CliContext& ctx);
Action add_gate_command(CLI::App& app, const CliContext& ctx);
Action add_report_command(CLI::App& app, const CliContext& ctx);
Action add_merge_command(CLI::App& app, const CliContext& ctx);
Action add_figures_command(CLI::App& app, const CliContext& ctx);
Action add_fit_command(CLI::App& app, const CliContext& ctx);
Action add_explain_command(CLI::App& app, const CliContext& ctx);
// The named baselines (commands_baselines.cpp, baselines.h).
Action add_baselines_command(CLI::App& app, const CliContext& ctx);
// The fault scenarios (commands_faults.cpp).
Action add_faults_command(CLI::App& app, const CliContext& ctx);
// `measure-case`, hidden: one case in the canonical process a callgrind run starts for it
// (case_process.h).
Action add_measure_case_command(CLI::App& app, const CliContext& ctx);
#if MOQ_QUIC
// The QUIC servers (commands_relay.cpp).
Action add_relay_command(CLI::App& app, const CliContext& ctx);
Action add_load_command(CLI::App& app, const CliContext& ctx);
// A publisher and a subscriber of one track through any relay (commands_publish.cpp,
// commands_subscribe.cpp).
Action add_publish_command(CLI::App& app, const CliContext& ctx);
Action add_subscribe_command(CLI::App& app, const CliContext& ctx);
#endif

// Options that `run` and `sweep` share: rounds, the counter, the results file.
struct MeasureOptions {
  uint32_t rounds = 10;
  uint32_t warmup = 3;
  std::string counter = "auto";
  std::string event;
  std::optional<int> cpu;
  std::string out;      // empty: no results file
  std::string profile;  // run: keep the last measured round's callgrind profile here
  bool roles = false;   // split each round by role (role_split.h; callgrind)
  // callgrind's cache and branch simulators: l1_misses and ll_misses, branch_misses per round.
  bool cache_sim = false;
  bool branch_sim = false;
};
void add_measure_options(CLI::App& sub, MeasureOptions& options);

// Measures `cases` (already validated) as `run` and `sweep` do: chooses the counter (saying which
// on stderr, re-executing under callgrind when needed), opens the results file, runs the cases.
// `summarize` prints the finished cases to stdout. `shard`: the cases are this shard of a sweep
// (recorded in the results' meta).
int measure_cases(const CliContext& ctx, const std::string& sub, const MeasureOptions& options,
                  const std::vector<harness::CaseSpec>& cases,
                  const std::function<void(const results::Meta&,
                                           const std::vector<results::CaseResult>&)>& summarize,
                  const std::optional<results::ShardInfo>& shard = std::nullopt);

// "a, b, c": a list in a message or a table.
std::string join(const std::vector<std::string>& items, const char* sep = ", ");

// Prints "moqbench <sub>: <message>" to stderr and returns kExitBadInput.
int bad_input(const CliContext& ctx, const std::string& sub, const std::string& message);

}  // namespace moq::cli
