// moqbench's command line run in-process (cli::run_cli) over a test's scenario registry, with
// its exit status and output captured: for tests of the CLI that need no subprocess.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "harness/cli/cli.h"
#include "harness/runner/registrar.h"

namespace moq::harness::testing {

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs `moqbench args...` (args without the program name).
inline CliRun run_in_process(ScenarioRegistry& registry, std::vector<std::string> args) {
  args.insert(args.begin(), "moqbench");
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  std::ostringstream out, err;
  cli::CliIo io{out, err, false};
  CliRun r;
  r.status = cli::run_cli(static_cast<int>(args.size()), argv.data(), registry, io);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace moq::harness::testing
