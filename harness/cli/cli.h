// The moqbench command line: `moqbench list | run | sweep` (measuring) and `compare | gate |
// report` (the reports library, reports/README.md). run_cli() parses argv, runs one subcommand
// and returns the exit status, so tests can drive it in-process with their own registry and
// streams.
//
// Exit status: 0 success; 1 a case failed (delivery check, setup, deadlock, ...) or the results
// file (report: the HTML page) could not be written; 2 bad input (usage, unknown scenario /
// axis / version / bench, malformed list, unwritable --out, a requested counter that cannot work
// here, an invalid results file); 3 gate: a case regressed.
#pragma once

#include <ostream>

#include "harness/runner/scenario.h"

namespace moq::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitBadInput = 2;

struct CliIo {
  std::ostream& out;             // tables and summaries
  std::ostream& err;             // progress, the counter choice, errors
  bool err_is_terminal = false;  // progress redraws one line instead of one line per case
};

// argv must be the real process arguments: `--counter callgrind` (or auto without a PMU)
// re-executes this program under valgrind with them.
int run_cli(int argc, char** argv, const harness::ScenarioRegistry& registry, const CliIo& io);

}  // namespace moq::cli
