// moq-test-client's side of the network: one event loop on the real clock, one UDP socket and
// QUIC endpoint, and connections to the relay offering the chosen versions by ALPN. Everything a
// test case waits for is waited for here, against the case's deadline.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "harness/interop/options.h"
#include "model/async/executor.h"
#include "model/base/result.h"
#include "sim/quic/endpoint.h"
#include "sim/quic/udp.h"

namespace moq::interop {

class Dialer {
 public:
  // Resolves the relay's address and opens the socket. log: verbose lines, or null.
  static Result<std::unique_ptr<Dialer>> create(const RelayUrl& url,
                                                const std::vector<Version>& offer,
                                                bool tls_disable_verify, std::ostream* log);
  // The same trusting exactly `trust` (moqbench publish/subscribe --ca-file).
  static Result<std::unique_ptr<Dialer>> create(const RelayUrl& url,
                                                const std::vector<Version>& offer,
                                                std::shared_ptr<sim::quic::TlsTrust> trust,
                                                std::ostream* log);
  ~Dialer();
  Dialer(const Dialer&) = delete;
  Dialer& operator=(const Dialer&) = delete;

  // A connection to the relay, established (its alpn() is the version chosen), or an error
  // naming why: refused handshake, nothing listening, deadline passed.
  Result<std::unique_ptr<sim::quic::QuicConnection>> connect(const std::string& who,
                                                             uint64_t deadline_ns);
  // Work every wait does before asking done(): each raw peer takes in what the relay opened and
  // answers what it answers by itself, whichever peer the case waits on. An error ends the wait.
  using Poller = std::function<Status()>;
  uint64_t add_poller(Poller poller);
  void remove_poller(uint64_t id) { pollers_.erase(id); }

  // Runs the loop until done() holds (ok) or the deadline passes (an error naming what).
  template <class Pred>
  Status wait_until(Pred&& done, uint64_t deadline_ns, const std::string& what);
  // Runs the loop until the time comes (streams keep flowing meanwhile).
  void sleep_until(uint64_t when_ns);

  uint64_t now_ns() const { return clock_.now_ns(); }
  Clock& clock() { return clock_; }
  // The loop and executor the connections run on, for a caller that waits its own way.
  Executor& executor() { return executor_; }
  sim::quic::UdpLoop& loop() { return loop_; }
  // How a wait that ran out of time names the limit ("the test's time" for the interop cases;
  // a command names its option).
  void set_time_limit_name(std::string name) { time_limit_ = std::move(name); }
  const RelayUrl& url() const { return url_; }
  void log(const std::string& line) const;

 private:
  Dialer(const RelayUrl& url, const std::vector<Version>& offer, std::ostream* log);

  RelayUrl url_;
  std::vector<std::string> alpns_;
  std::ostream* log_;
  sim::quic::RealClock clock_;
  Executor executor_;
  sim::quic::UdpLoop loop_;
  sim::quic::SystemEntropy entropy_;
  sim::quic::Address relay_;
  std::shared_ptr<sim::quic::TlsTrust> trust_;
  std::unique_ptr<sim::quic::UdpSocket> socket_;
  std::unique_ptr<sim::quic::QuicEndpoint> endpoint_;
  std::map<uint64_t, Poller> pollers_;  // ordered: polled in the order they were added
  uint64_t next_poller_ = 0;
  std::string time_limit_ = "the test's time";
};

template <class Pred>
Status Dialer::wait_until(Pred&& done, uint64_t deadline_ns, const std::string& what) {
  Status failed;
  auto check = [&] {
    for (auto& [id, poll] : pollers_) {
      if (Status st = poll(); !st) {
        failed = st;
        return true;
      }
    }
    return done();
  };
  const uint64_t now = now_ns();
  if (now >= deadline_ns) {
    executor_.run_until_idle();
    if (check()) return failed;
    return Error{0, what + ": " + time_limit_ + " ran out"};
  }
  Status st = loop_.run_until(check, deadline_ns - now, what.c_str());
  if (!failed) return failed;
  if (!st) return Error{0, what + ": not done within " + time_limit_};
  return st;
}

}  // namespace moq::interop
