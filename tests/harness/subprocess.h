// Runs a program with arguments (no shell), capturing its stdout and stderr and its exit status;
// or starts it and lets the test signal it while it runs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace moq::harness::testing {

struct ProcessResult {
  int status = -1;  // exit status; -1 when it did not exit normally
  int signal = 0;   // the signal that ended it, when one did
  std::string out;
  std::string err;
};

// A started child. Its stdout and stderr go to files until wait().
class RunningProcess {
 public:
  // `env` entries ("NAME=value") replace or add to the environment of the child.
  RunningProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});
  ~RunningProcess();
  RunningProcess(const RunningProcess&) = delete;
  RunningProcess& operator=(const RunningProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Polls the child's stderr until it contains `text` (true), the child exits or the timeout
  // passes (false).
  bool wait_for_stderr(std::string_view text, std::chrono::milliseconds timeout);
  // Polls the child's stderr until a whole line (ended by '\n') contains `text` and returns that
  // line; empty when the child exits or the timeout passes first. A child may write one line in
  // several pieces, so a caller that parses the line must not read it before it ends.
  std::string wait_for_stderr_line(std::string_view text, std::chrono::milliseconds timeout);
  // What the child wrote to stderr so far.
  std::string stderr_so_far() const;
  void signal(int sig);
  // Waits for the child to end and returns what it printed and how it ended (once: a second call
  // returns the status without the output).
  ProcessResult wait();

 private:
  // Polls stderr until done(everything written so far) holds (true), the child ends or the
  // timeout passes (false).
  bool poll_stderr(std::chrono::milliseconds timeout,
                   const std::function<bool(const std::string&)>& done);
  void reap(int options);  // wait4 with these options; sets ended_ when the child was reaped

  pid_t pid_ = -1;       // -1: the spawn failed (spawn_error_ says why)
  bool ended_ = false;   // reaped: status_ holds how it ended
  bool waited_ = false;  // wait() took the output and removed the files
  int status_ = 0;
  std::string out_path_, err_path_;
  std::string spawn_error_;
};

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env = {});

}  // namespace moq::harness::testing
