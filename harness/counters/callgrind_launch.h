// Running the program under callgrind: detection, and re-executing the current program under
// valgrind so a single command line (`moqbench --counter callgrind ...`) measures with callgrind.
//
// The command line (see callgrind_command_line):
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=<dir>/moq-callgrind.<pid>.out
//            -q <program> <args...>
// with the environment variable MOQ_CALLGRIND_OUT_FILE=<that file> as the marker telling the
// child it was started this way and where its dumps go. Instrumentation is off at start and
// switched on around each measured region only (CallgrindCounter), so set-up and teardown run
// without callgrind's instrumentation overhead; see README.md for the measurements behind this.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/base/result.h"

namespace moq::counters {

// Set in the child's environment by reexec_under_callgrind: the callgrind output file.
inline constexpr const char* kCallgrindOutFileEnv = "MOQ_CALLGRIND_OUT_FILE";

// True when this process runs under valgrind (any tool).
bool running_under_valgrind();

// The valgrind executable found in PATH, or an Error saying valgrind is not installed.
Result<std::string> find_valgrind();

// The argv that reexec_under_callgrind executes.
std::vector<std::string> callgrind_command_line(const std::string& valgrind,
                                                const std::string& out_file,
                                                const std::string& program,
                                                const std::vector<std::string>& args);

// Replaces this process with `valgrind --tool=callgrind ... <this program> argv[1..]`, adding
// MOQ_CALLGRIND_OUT_FILE and `extra_env` to the environment. Dumps go to `out_dir` ($TMPDIR, or
// /tmp, when empty). Returns only on failure: already under valgrind, valgrind not installed,
// or execv failed; the Error says which.
Status reexec_under_callgrind(
    int argc, char* const argv[],
    const std::vector<std::pair<std::string, std::string>>& extra_env = {},
    const std::string& out_dir = {});

}  // namespace moq::counters
