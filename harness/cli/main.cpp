// moqbench: the harness's command line over every scenario linked into it (scenarios/ register
// themselves; the binary links them in).
#include <unistd.h>

#include <iostream>

#include "harness/cli/cli.h"
#include "harness/cli/fatal_errors.h"
#include "harness/counters/aligned_stack.h"
#include "harness/runner/registrar.h"

namespace {

int moqbench_main(int argc, char** argv) {
  moq::harness::ScenarioRegistry registry;
  if (moq::Status st = moq::harness::register_linked_scenarios(registry); !st) {
    std::cerr << "moqbench: scenario registry: " << st.error().message << '\n';
    return moq::cli::kExitFailed;
  }
  moq::cli::CliIo io{std::cout, std::cerr, isatty(STDERR_FILENO) != 0};
  return moq::cli::run_cli(argc, argv, registry, io);
}

}  // namespace

int main(int argc, char** argv) {
  moq::cli::install_fatal_error_handlers("moqbench");
  return moq::counters::run_on_page_aligned_stack(moqbench_main, argc, argv);
}
