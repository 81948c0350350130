// Stopping a command by signal its own way: while a StopSignals lives, SIGINT, SIGTERM and SIGHUP
// set stop_signal() instead of ending the process, so the command can finish what it must (a
// sweep its results file, a subscriber its partial summary) and say how it ended. The handler is
// installed without SA_RESTART, so a loop blocked in poll() wakes at once. A second signal of the
// same kind while stopping is taken the same way.
#pragma once

#include <signal.h>

#include <array>
#include <csignal>

namespace moq::cli {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The signal received since construction, or 0. Of the one type a handler may write.
  static volatile std::sig_atomic_t* flag();
  static int received() { return *flag(); }

 private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
};

}  // namespace moq::cli
