// Real UDP for the QUIC backend (the quic world and moqbench relay/load): non-blocking sockets,
// the monotonic clock, and a loop that runs the executor between poll() calls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/async/clock.h"
#include "model/async/executor.h"
#include "sim/quic/datagram.h"

namespace moq::sim::quic {

// CLOCK_MONOTONIC. It cannot jump: the loop waits for deadlines instead.
class RealClock final : public Clock {
 public:
  uint64_t now_ns() const override;
  bool advance_to(uint64_t) override { return false; }
};

class UdpSocket final : public DatagramSocket {
 public:
  // Binds local ("127.0.0.1:0" picks a free port). Port-unreachable errors are reported to the
  // receiver (IP_RECVERR), so a client learns at once that nothing listens.
  static Result<std::unique_ptr<UdpSocket>> bind(const Address& local);
  ~UdpSocket() override;
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;

  const Address& local_address() const override { return local_; }
  bool send_to(const Address& to, std::span<const uint8_t> datagram) override;
  int fd() const { return fd_; }
  // Reads every datagram waiting on the socket and hands it to the receiver; with
  // errors_queued (poll() said POLLERR), also every queued ICMP error.
  void drain(bool errors_queued);

 private:
  UdpSocket(int fd, Address local) : fd_(fd), local_(local) {}
  void drain_errors();
  int fd_;
  Address local_;
  std::vector<uint8_t> buf_ = std::vector<uint8_t>(65536);
};

// A descriptor other than a UDP socket that the loop polls too (the TCP connections of the ws
// world, sim/ws): the loop asks for the events it wants before each poll() and reports what came.
class PolledFd {
 public:
  virtual ~PolledFd() = default;
  virtual int polled_fd() const = 0;
  // POLLIN / POLLOUT wanted now; 0 leaves the descriptor out of this poll().
  virtual short polled_events() const = 0;
  // What poll() reported. It must not add or remove descriptors: it wakes the task that does
  // the work.
  virtual void on_polled(short revents) = 0;
};

// Runs an executor on a RealClock together with UDP sockets: tasks and due timers, then poll()
// until the next deadline or a datagram.
class UdpLoop {
 public:
  explicit UdpLoop(Executor& executor) : executor_(&executor) {}
  void add(UdpSocket& socket) { sockets_.push_back(&socket); }
  void remove(UdpSocket& socket);
  void add(PolledFd& fd) { others_.push_back(&fd); }
  void remove(PolledFd& fd);
  // Runs until done() holds or timeout_ns passes (an error saying what was still waiting).
  template <class Pred>
  Status run_until(Pred&& done, uint64_t timeout_ns, const char* what);
  // One turn: runnable tasks and due timers, then at most max_wait_ns waiting for sockets.
  void turn(uint64_t max_wait_ns);

 private:
  Executor* executor_;
  std::vector<UdpSocket*> sockets_;
  std::vector<PolledFd*> others_;
  std::vector<PolledFd*> polled_;  // those in this poll(), after the sockets
};

template <class Pred>
Status UdpLoop::run_until(Pred&& done, uint64_t timeout_ns, const char* what) {
  const uint64_t end = executor_->now_ns() + timeout_ns;
  for (;;) {
    executor_->run_until_idle();
    if (done()) return {};
    const uint64_t now = executor_->now_ns();
    if (now >= end)
      return Error{0, std::string(what) + ": not done after " +
                          std::to_string(timeout_ns / 1'000'000) + " ms; " +
                          executor_->describe_parked()};
    turn(end - now);
  }
}

}  // namespace moq::sim::quic
