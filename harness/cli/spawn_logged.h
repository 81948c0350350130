// Runs a program (no shell) with its stdout and stderr together in a log file, and waits for it:
// how `moqbench explain` runs a build's moqbench to measure a round again.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/base/result.h"

namespace moq::cli {

// argv[0] is the program's path. extra_env entries ("NAME=value") replace or add to this
// process's environment. Returns the exit status, or -1 when a signal ended it; an Error when it
// could not be started.
Result<int> spawn_logged(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extra_env, const std::string& log);

// The whole log, to quote in an error.
std::string read_log(const std::string& path);

}  // namespace moq::cli
