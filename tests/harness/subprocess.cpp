#include "tests/harness/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace moq::harness::testing {

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string name_of(const std::string& entry) {
  return entry.substr(0, entry.find('='));
}

}  // namespace

RunningProcess::RunningProcess(const std::vector<std::string>& argv,
                               const std::vector<std::string>& env) {
  static int counter = 0;
  const std::string base =
      (std::filesystem::temp_directory_path() /
       ("moq-subprocess-" + std::to_string(getpid()) + "-" + std::to_string(counter++)))
          .string();
  out_path_ = base + ".out";
  err_path_ = base + ".err";

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path_.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path_.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> args = argv;
  std::vector<char*> cargs;
  cargs.reserve(args.size() + 1);
  for (std::string& a : args)
    cargs.push_back(a.data());
  cargs.push_back(nullptr);
  // The given entries replace inherited ones of the same name (getenv finds the first).
  std::vector<std::string> envs = env;
  for (char** e = environ; *e; ++e) {
    bool replaced = false;
    for (const std::string& given : env)
      replaced = replaced || name_of(given) == name_of(*e);
    if (!replaced) envs.emplace_back(*e);
  }
  std::vector<char*> cenv;
  cenv.reserve(envs.size() + 1);
  for (std::string& e : envs)
    cenv.push_back(e.data());
  cenv.push_back(nullptr);

  const int rc = posix_spawn(&pid_, cargs[0], &actions, nullptr, cargs.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    pid_ = -1;
    spawn_error_ = "posix_spawn " + argv[0] + " failed: " + std::to_string(rc);
  }
}

RunningProcess::~RunningProcess() {
  if (pid_ > 0 && !ended_) {
    kill(pid_, SIGKILL);
    reap(0);
  }
  if (!waited_) {
    std::filesystem::remove(out_path_);
    std::filesystem::remove(err_path_);
  }
}

bool RunningProcess::wait_for_stderr(std::string_view text, std::chrono::milliseconds timeout) {
  return poll_stderr(timeout,
                     [&](const std::string& err) { return err.find(text) != std::string::npos; });
}

std::string RunningProcess::wait_for_stderr_line(std::string_view text,
                                                 std::chrono::milliseconds timeout) {
  std::string line;
  poll_stderr(timeout, [&](const std::string& err) {
    const size_t at = err.find(text);
    if (at == std::string::npos) return false;
    const size_t end = err.find('\n', at);
    if (end == std::string::npos) return false;
    const size_t newline_before = err.rfind('\n', at);
    const size_t begin = newline_before == std::string::npos ? 0 : newline_before + 1;
    line = err.substr(begin, end - begin);
    return true;
  });
  return line;
}

bool RunningProcess::poll_stderr(std::chrono::milliseconds timeout,
                                 const std::function<bool(const std::string&)>& done) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (pid_ > 0 && std::chrono::steady_clock::now() < deadline) {
    if (done(slurp(err_path_))) return true;
    if (ended_) return false;
    reap(WNOHANG);  // one last look after it ended, then give up
    if (!ended_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

std::string RunningProcess::stderr_so_far() const {
  return slurp(err_path_);
}

void RunningProcess::reap(int options) {
  if (waitpid(pid_, &status_, options) == pid_) ended_ = true;
}

void RunningProcess::signal(int sig) {
  if (pid_ > 0 && !ended_) kill(pid_, sig);
}

ProcessResult RunningProcess::wait() {
  ProcessResult result;
  if (pid_ <= 0) {
    result.err = spawn_error_;
    return result;
  }
  if (!ended_) reap(0);
  if (WIFEXITED(status_)) result.status = WEXITSTATUS(status_);
  if (WIFSIGNALED(status_)) result.signal = WTERMSIG(status_);
  result.out = slurp(out_path_);
  result.err = slurp(err_path_);
  if (!waited_) {
    std::filesystem::remove(out_path_);
    std::filesystem::remove(err_path_);
  }
  waited_ = true;
  return result;
}

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env) {
  RunningProcess process(argv, env);
  return process.wait();
}

}  // namespace moq::harness::testing
