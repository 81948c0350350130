#include "tests/harness/subprocess.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace moq::harness::testing {

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env) {
  ProcessResult result;
  static int counter = 0;
  const std::string base =
      (std::filesystem::temp_directory_path() /
       ("moq-subprocess-" + std::to_string(getpid()) + "-" + std::to_string(counter++)))
          .string();
  const std::string out_path = base + ".out", err_path = base + ".err";

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> args = argv;
  std::vector<char*> cargs;
  for (std::string& a : args)
    cargs.push_back(a.data());
  cargs.push_back(nullptr);
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e)
    envs.emplace_back(*e);
  envs.insert(envs.end(), env.begin(), env.end());
  std::vector<char*> cenv;
  for (std::string& e : envs)
    cenv.push_back(e.data());
  cenv.push_back(nullptr);

  pid_t pid = 0;
  int rc = posix_spawn(&pid, cargs[0], &actions, nullptr, cargs.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    result.err = "posix_spawn " + argv[0] + " failed: " + std::to_string(rc);
    return result;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return result;
}

}  // namespace moq::harness::testing
