#include "harness/cli/cli.h"

#include <CLI/CLI.hpp>

#include "harness/cli/commands.h"
#include "harness/runner/build_info.h"

namespace moq::cli {

int run_cli(int argc, char** argv, const harness::ScenarioRegistry& registry, const CliIo& io) {
  CLI::App app{
      "moqbench: counts instructions and heap allocations per steady-state round of MoQ "
      "scenarios, and writes JSON sweeps.",
      "moqbench"};
  app.set_version_flag("--version", std::string(harness::build_info().tool_version));
  app.require_subcommand(1);
  app.footer(
      "Exit status: 0 success; 1 a case failed or output could not be written; 2 bad input; 3 "
      "gate: a case regressed.\n"
      "Run `moqbench SUBCOMMAND --help` for the options of each subcommand.");

  CliContext ctx{argc, argv, &registry, &io};
  std::vector<std::pair<CLI::App*, Action>> commands;
  auto add = [&](Action (*adder)(CLI::App&, const CliContext&)) {
    size_t before = app.get_subcommands({}).size();
    Action action = adder(app, ctx);
    std::vector<CLI::App*> subs = app.get_subcommands({});
    for (size_t i = before; i < subs.size(); ++i)
      commands.emplace_back(subs[i], action);
  };
  add(add_list_command);
  add(add_run_command);
  add(add_sweep_command);
  add(add_compare_command);
  add(add_gate_command);
  add(add_report_command);
  add(add_baselines_command);
  add(add_merge_command);
  add(add_figures_command);
  add(add_fit_command);
  add(add_explain_command);
  add(add_faults_command);
  add(add_measure_case_command);
#if MOQ_QUIC
  add(add_relay_command);
  add(add_load_command);
  add(add_publish_command);
  add(add_subscribe_command);
#endif

  // CLI11 reports an unknown subcommand as "a subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (auto& [sub, action] : commands) {
      known = known || sub->get_name() == argv[1];
      if (!sub->get_group().empty()) names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      io.err << "moqbench: unknown subcommand '" << argv[1] << "' (subcommands: " << names << ")\n";
      return kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::ParseError& e) {
    app.exit(e, io.out, io.err);
    return kExitBadInput;
  }
  for (auto& [sub, action] : commands)
    if (sub->parsed()) return action();
  return kExitBadInput;
}

}  // namespace moq::cli
