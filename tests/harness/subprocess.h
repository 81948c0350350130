// Runs a program with arguments (no shell), capturing its stdout and stderr and its exit status.
#pragma once

#include <string>
#include <vector>

namespace moq::harness::testing {

struct ProcessResult {
  int status = -1;  // exit status; -1 when it did not exit normally
  std::string out;
  std::string err;
};

// `env` entries ("NAME=value") are added to the environment of the child.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env = {});

}  // namespace moq::harness::testing
