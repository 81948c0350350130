// Running the program under callgrind: detection, and running the current program again under
// valgrind so a single command line (`moqbench --counter callgrind ...`) measures with callgrind.
//
// The command line (see callgrind_command_line):
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=<dir>/callgrind.out
//            --vgdb-prefix=<dir>/vgdb-pipe -q <program> <args...>
// with the environment variable MOQ_CALLGRIND_OUT_FILE=<dir>/callgrind.out as the marker telling
// the child it was started this way and where its dumps go. Instrumentation is off at start and
// switched on around each measured region only (CallgrindCounter), so set-up and teardown run
// without callgrind's instrumentation overhead; see README.md for the measurements behind this.
//
// <dir> is private to the run, "$TMPDIR/moq-callgrind.<pid>.XXXXXX" (mkdtemp; /tmp without
// TMPDIR): callgrind's out-file, each region's dump (callgrind.out.<n>) and valgrind's vgdb pipes
// all live there, and nothing else of the run touches $TMPDIR, so one removal cleans up all of it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/base/result.h"

namespace moq::counters {

// Set in the child's environment by run_under_callgrind: the callgrind output file.
inline constexpr const char* kCallgrindOutFileEnv = "MOQ_CALLGRIND_OUT_FILE";
// The start of the name of every private run directory (and of the files older versions left).
inline constexpr std::string_view kCallgrindRunPrefix = "moq-callgrind.";

// True when this process runs under valgrind (any tool).
bool running_under_valgrind();

// The valgrind executable found in PATH, or an Error saying valgrind is not installed.
Result<std::string> find_valgrind();

// The argv that run_under_callgrind executes, for the private directory `dir`; callgrind_args go
// after the options above (e.g. --collect-atstart=no --toggle-collect=...).
std::vector<std::string> callgrind_command_line(
    const std::string& valgrind, const std::string& dir, const std::string& program,
    const std::vector<std::string>& args, const std::vector<std::string>& callgrind_args = {});

// How run_callgrind_child starts this program again under callgrind.
struct CallgrindChild {
  std::vector<std::string> args;  // after the program
  // More callgrind options (what it collects: harness/cli/role_split.h).
  std::vector<std::string> callgrind_args;
  // Added to (or replacing entries of) this process's environment; ignored when canonical.
  std::vector<std::pair<std::string, std::string>> extra_env;
  // Canonical: the child runs from the private directory as `./<canonical_name>` (a link there to
  // this program) with an environment of the marker alone, relative (`callgrind.out`), and the
  // allocator's one setting (no decommit: callgrind_launch.cpp), so that
  // nothing of its argv, environment or working directory depends on where this program, the
  // caller or $TMPDIR are, or on what the caller's environment holds.
  bool canonical = false;
  std::string canonical_name = "moqbench";
  std::string tmp_root;  // where the private directory goes; empty: $TMPDIR, else /tmp
  // Called with the private directory before the child starts (to leave it a request), and
  // after it exited, before the directory is removed (to read what it left). An Error from
  // `before` cancels the run; one from `after` is returned.
  std::function<Status(const std::string& dir)> before;
  std::function<Status(const std::string& dir)> after;
};

// Runs `valgrind --tool=callgrind ... <this program> <child.args>` as a child process, with
// MOQ_CALLGRIND_OUT_FILE set, waits for it, and removes its private directory however it ended:
//   - SIGINT, SIGTERM or SIGHUP sent to this process are passed on to the child, and the
//     directory is removed once it has ended;
//   - the child is killed when this process dies (PR_SET_PDEATHSIG), so a run killed with SIGKILL
//     leaves only the directory, which the next run removes (remove_stale_callgrind_runs).
// Returns the child's exit status. When a signal ended the child, the signal is raised again in
// this process after cleaning up: with the default action it ends this process (so a shell sees
// the interruption); a caller with its own handler (a sweep) gets 128 + the signal back. An
// Error when the child could not be started (already under valgrind, valgrind not installed, no
// private directory, fork failed) or when `after` failed.
Result<int> run_callgrind_child(const CallgrindChild& child);

// The whole command again: run_callgrind_child with argv[1..] and this process's environment
// plus extra_env.
Result<int> run_under_callgrind(
    int argc, char* const argv[],
    const std::vector<std::pair<std::string, std::string>>& extra_env = {},
    const std::string& tmp_root = {});

// Removes what runs left in `tmp_root` when they were killed too hard to clean up: private
// directories of processes that no longer exist, and the files older versions wrote straight
// into $TMPDIR (moq-callgrind.<pid>.out, .out.<n>) for dead processes. Entries of live processes
// are left alone. Returns how many entries it removed.
size_t remove_stale_callgrind_runs(const std::string& tmp_root);

}  // namespace moq::counters
