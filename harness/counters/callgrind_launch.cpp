#include "harness/counters/callgrind_launch.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace moq::counters {

namespace {

// The child being waited for, and the last signal this process was sent while waiting: written
// by the signal handler, so of the one type it may write.
volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_signal = 0;

constexpr std::array<int, 3> kForwarded = {SIGINT, SIGTERM, SIGHUP};

extern "C" void forward_to_child(int sig) {
  g_signal = sig;
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
}

std::string default_tmp_root() {
  const char* tmp = getenv("TMPDIR");
  return tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp";
}

// The pid in "moq-callgrind.<pid>.<rest>", and <rest>; pid 0 when the name is not of that form.
std::pair<pid_t, std::string_view> parse_run_name(std::string_view name) {
  if (name.substr(0, kCallgrindRunPrefix.size()) != kCallgrindRunPrefix) return {0, {}};
  name.remove_prefix(kCallgrindRunPrefix.size());
  const size_t dot = name.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot > 9) return {0, {}};
  pid_t pid = 0;
  for (char c : name.substr(0, dot)) {
    if (c < '0' || c > '9') return {0, {}};
    pid = pid * 10 + (c - '0');
  }
  return {pid, name.substr(dot + 1)};
}

bool process_exists(pid_t pid) {
  return kill(pid, 0) == 0 || errno == EPERM;  // EPERM: it exists, owned by someone else
}

std::string errno_text(int err) {
  return std::strerror(err);
}

}  // namespace

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

std::vector<std::string> callgrind_command_line(const std::string& valgrind, const std::string& dir,
                                                const std::string& program,
                                                const std::vector<std::string>& args,
                                                const std::vector<std::string>& callgrind_args) {
  std::vector<std::string> cmd = {valgrind, "--tool=callgrind", "--instr-atstart=no",
                                  "--callgrind-out-file=" + dir + "/callgrind.out",
                                  "--vgdb-prefix=" + dir + "/vgdb-pipe"};
  cmd.insert(cmd.end(), callgrind_args.begin(), callgrind_args.end());
  cmd.push_back("-q");
  cmd.push_back(program);
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

size_t remove_stale_callgrind_runs(const std::string& tmp_root) {
  namespace fs = std::filesystem;
  std::vector<fs::path> stale;
  std::error_code ec;
  for (fs::directory_iterator it(tmp_root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const auto [pid, rest] = parse_run_name(name);
    if (pid <= 0) continue;
    std::error_code type_ec;
    const bool private_dir = it->is_directory(type_ec) && rest.size() == 6;  // mkdtemp's XXXXXX
    const bool old_file = it->is_regular_file(type_ec) &&
                          (rest == "out" || rest.substr(0, 4) == "out.");  // before private dirs
    if ((private_dir || old_file) && !process_exists(pid)) stale.push_back(it->path());
  }
  size_t removed = 0;
  for (const fs::path& p : stale) {
    std::error_code rm;
    fs::remove_all(p, rm);
    if (!rm) ++removed;
  }
  return removed;
}

Result<int> run_under_callgrind(int argc, char* const argv[],
                                const std::vector<std::pair<std::string, std::string>>& extra_env,
                                const std::string& tmp_root) {
  CallgrindChild child;
  for (int i = 1; i < argc; ++i)
    child.args.emplace_back(argv[i]);
  child.extra_env = extra_env;
  child.tmp_root = tmp_root;
  return run_callgrind_child(child);
}

Result<int> run_callgrind_child(const CallgrindChild& spec) {
  if (running_under_valgrind()) {
    return Error{0, "run_callgrind_child: already running under valgrind"};
  }
  Result<std::string> valgrind = find_valgrind();
  if (!valgrind) return valgrind.error();

  // The running binary itself, whatever argv[0] said (a bare name found through PATH, or a
  // path relative to a directory we may not be in).
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return Error{0, "run_callgrind_child: cannot find this program (no /proc/self/exe)"};
  std::string program(self, static_cast<size_t>(n));

  const std::string root = spec.tmp_root.empty() ? default_tmp_root() : spec.tmp_root;
  remove_stale_callgrind_runs(root);
  // The pid zero-padded to a fixed width: outside canonical runs the directory is in valgrind's
  // argv and in the child's environment, and a pid of another length moved the measured
  // program's counts (the first measured round of a sweep differed between two runs whose pids
  // had 5 and 6 digits).
  char pid[16];
  std::snprintf(pid, sizeof pid, "%09d", static_cast<int>(getpid()));  // parse_run_name: 9 at most
  std::string dir = root + "/" + std::string(kCallgrindRunPrefix) + pid + ".XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    const int err = errno;
    return Error{static_cast<uint64_t>(err),
                 "run_callgrind_child: cannot make a private directory " + dir + ": " +
                     errno_text(err) + " (set TMPDIR to a writable directory)"};
  }
  auto remove_dir = [&] {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  };
  std::vector<std::pair<std::string, std::string>> set = spec.extra_env;
  std::vector<std::string> env;
  if (spec.canonical) {
    const std::string link = dir + "/" + spec.canonical_name;
    if (symlink(program.c_str(), link.c_str()) != 0) {
      const int err = errno;
      remove_dir();
      return Error{static_cast<uint64_t>(err),
                   "run_callgrind_child: cannot link " + link + ": " + errno_text(err)};
    }
    program = "./" + spec.canonical_name;
    env.push_back(std::string(kCallgrindOutFileEnv) + "=callgrind.out");
    // mimalloc (under the counting layer) hands a segment's unused pages back to the OS after a
    // delay it measures with the clock, and commits them again on use, so whether a round that
    // allocates pays for that would depend on time and on where earlier allocations put the
    // heap, which moves with $TMPDIR's length. Its segments take the setting when they are made,
    // the first ones before main, so only the environment reaches them all.
    env.push_back("MIMALLOC_ALLOW_DECOMMIT=0");
  } else {
    set.emplace_back(kCallgrindOutFileEnv, dir + "/callgrind.out");
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string_view entry(*e);
      bool replaced = false;
      for (const auto& [name, value] : set)
        replaced = replaced || (entry.size() > name.size() &&
                                entry.substr(0, name.size()) == name && entry[name.size()] == '=');
      if (!replaced) env.emplace_back(entry);
    }
    for (const auto& [name, value] : set)
      env.push_back(name + "=" + value);
  }
  if (spec.before) {
    if (Status st = spec.before(dir); !st) {
      remove_dir();
      return st.error();
    }
  }

  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  std::vector<std::string> cmd =
      callgrind_command_line(*valgrind, dir, program, spec.args, spec.callgrind_args);
  std::vector<char*> cargv;
  cargv.reserve(cmd.size() + 1);
  for (std::string& s : cmd)
    cargv.push_back(s.data());
  cargv.push_back(nullptr);
  std::vector<char*> cenv;
  cenv.reserve(env.size() + 1);
  for (std::string& s : env)
    cenv.push_back(s.data());
  cenv.push_back(nullptr);
  const std::string exec_failed = "run_callgrind_child: execve " + *valgrind + " failed\n";
  const char* child_dir = spec.canonical ? dir.c_str() : nullptr;

  // Signals that would end this process are passed on to the child instead, and this process
  // waits for it to end, then cleans up.
  g_child = 0;
  g_signal = 0;
  struct sigaction forward {};
  forward.sa_handler = forward_to_child;
  sigemptyset(&forward.sa_mask);
  std::array<struct sigaction, kForwarded.size()> previous{};
  for (size_t i = 0; i < kForwarded.size(); ++i)
    sigaction(kForwarded[i], &forward, &previous[i]);
  auto restore_signals = [&] {
    for (size_t i = 0; i < kForwarded.size(); ++i)
      sigaction(kForwarded[i], &previous[i], nullptr);
  };

  std::fflush(nullptr);  // buffered output would be written twice, by both processes
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    const int err = errno;
    restore_signals();
    remove_dir();
    return Error{static_cast<uint64_t>(err),
                 "run_callgrind_child: fork failed: " + errno_text(err)};
  }
  if (child == 0) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int sig : kForwarded)
      sigaction(sig, &dfl, nullptr);
    // Dies with its parent, so a SIGKILLed run leaves no valgrind writing into a directory the
    // next run removes.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
    if (child_dir != nullptr && chdir(child_dir) != 0) _exit(127);
    execve(cargv[0], cargv.data(), cenv.data());
    ssize_t ignored = write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
    (void)ignored;
    _exit(127);
  }
  g_child = child;
  if (g_signal != 0) kill(child, g_signal);  // a signal that came before g_child was set

  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  Status after;
  if (spec.after && WIFEXITED(status)) after = spec.after(dir);
  remove_dir();
  restore_signals();
  // Interrupted: end the same way, so that a calling shell or CI sees the interruption. That is
  // also when the signal came after the child had ended (a sweep runs one child per case, and a
  // signal between two must not be swallowed by the handler of the first).
  const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  // A caller that handles the signal itself (a sweep that stops after its case and records how it
  // ended) gets it through its handler, restored above; otherwise the default action ends this
  // process.
  for (int forwarded : kForwarded) {
    if (forwarded != sig && forwarded != g_signal) continue;
    raise(forwarded);
  }
  if (WIFSIGNALED(status)) return 128 + sig;
  if (!after) return after.error();
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace moq::counters
