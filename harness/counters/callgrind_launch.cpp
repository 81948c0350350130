#include "harness/counters/callgrind_launch.h"

#include <unistd.h>
#include <valgrind/valgrind.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace moq::counters {

bool running_under_valgrind() {
  return RUNNING_ON_VALGRIND != 0;
}

Result<std::string> find_valgrind() {
  const char* path = getenv("PATH");
  std::string dirs = path != nullptr ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    // An empty PATH entry means the current directory.
    std::string candidate = end > start ? dirs.substr(start, end - start) : std::string(".");
    candidate.append("/valgrind");
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return Error{0, "valgrind is not installed (no executable 'valgrind' in PATH=" + dirs +
                      "): install the Debian package 'valgrind' (or run tools/deps), or use "
                      "--counter perf on a machine with a hardware PMU"};
}

std::vector<std::string> callgrind_command_line(const std::string& valgrind,
                                                const std::string& out_file,
                                                const std::string& program,
                                                const std::vector<std::string>& args) {
  std::vector<std::string> cmd = {
      valgrind, "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=" + out_file, "-q",
      program};
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

Status reexec_under_callgrind(int argc, char* const argv[],
                              const std::vector<std::pair<std::string, std::string>>& extra_env,
                              const std::string& out_dir) {
  if (running_under_valgrind()) {
    return Error{0, "reexec_under_callgrind: already running under valgrind"};
  }
  Result<std::string> valgrind = find_valgrind();
  if (!valgrind) return valgrind.error();

  // The running binary itself, whatever argv[0] says (a bare name found through PATH, or a
  // path relative to a directory we may not be in).
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string program;
  if (n > 0) {
    program.assign(self, static_cast<size_t>(n));
  } else if (argc > 0) {
    program = argv[0];
  } else {
    return Error{0,
                 "reexec_under_callgrind: cannot find this program (no /proc/self/exe, no "
                 "argv[0])"};
  }

  std::string dir = out_dir;
  if (dir.empty()) {
    const char* tmp = getenv("TMPDIR");
    dir = tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp";
  }
  // execv keeps the process id, so valgrind and the program run under this same pid.
  const std::string out_file = dir + "/moq-callgrind." + std::to_string(getpid()) + ".out";

  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i)
    args.emplace_back(argv[i]);
  std::vector<std::string> cmd = callgrind_command_line(*valgrind, out_file, program, args);

  if (setenv(kCallgrindOutFileEnv, out_file.c_str(), 1) != 0) {
    return Error{0, std::string("reexec_under_callgrind: setenv failed: ") + strerror(errno)};
  }
  for (const auto& [name, value] : extra_env) {
    if (setenv(name.c_str(), value.c_str(), 1) != 0) {
      return Error{0, "reexec_under_callgrind: setenv " + name + " failed: " + strerror(errno)};
    }
  }
  std::vector<char*> cargv;
  for (std::string& s : cmd)
    cargv.push_back(s.data());
  cargv.push_back(nullptr);
  fflush(nullptr);  // buffered output would be lost by execv
  execv(cargv[0], cargv.data());
  const int err = errno;
  unsetenv(kCallgrindOutFileEnv);
  return Error{static_cast<uint64_t>(err),
               "reexec_under_callgrind: execv " + *valgrind + " failed: " + strerror(err)};
}

}  // namespace moq::counters
