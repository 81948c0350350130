#include "harness/cli/stop_signals.h"

namespace moq::cli {

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int sig) {
  g_stop_signal = sig;
}

}  // namespace

StopSignals::StopSignals() {
  g_stop_signal = 0;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < kSignals.size(); ++i)
    sigaction(kSignals[i], &sa, &previous_[i]);
}

StopSignals::~StopSignals() {
  for (size_t i = 0; i < kSignals.size(); ++i)
    sigaction(kSignals[i], &previous_[i], nullptr);
}

volatile std::sig_atomic_t* StopSignals::flag() {
  return &g_stop_signal;
}

}  // namespace moq::cli
