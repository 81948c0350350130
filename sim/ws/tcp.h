// Non-blocking TCP for the ws world: a listening socket and a connection, each polled by the
// UdpLoop (sim/quic/udp.h) beside the QUIC sockets and waking one task when it is ready.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "model/async/executor.h"
#include "model/base/result.h"
#include "sim/quic/datagram.h"
#include "sim/quic/udp.h"

namespace moq::sim::ws {

using quic::Address;

// A descriptor in the loop: its owner says what it waits for, and the task it names is woken
// when poll() reports anything. Removed from the loop and closed on destruction.
class PolledSocket : public quic::PolledFd {
 public:
  PolledSocket(quic::UdpLoop& loop, int fd);
  ~PolledSocket() override;
  PolledSocket(const PolledSocket&) = delete;
  PolledSocket& operator=(const PolledSocket&) = delete;

  int polled_fd() const override { return fd_; }
  short polled_events() const override { return events_; }
  void on_polled(short revents) override;
  // What to wait for (POLLIN, POLLOUT; 0: nothing) and whom to wake.
  void want(short events, Task* task) {
    events_ = events;
    task_ = task;
  }
  int fd() const { return fd_; }

 private:
  quic::UdpLoop* loop_;
  int fd_;
  short events_ = 0;
  Task* task_ = nullptr;
};

// What one non-blocking read or write did.
struct IoResult {
  enum Kind { Done, WouldBlock, Ended, Failed } kind;
  size_t bytes = 0;
  std::string error;  // Ended / Failed: what happened
};

class TcpConnection final : public PolledSocket {
 public:
  // Starts connecting to `to`; connected() says when it is done (wait for POLLOUT).
  static Result<std::unique_ptr<TcpConnection>> connect(quic::UdpLoop& loop, const Address& to);
  // An accepted descriptor.
  TcpConnection(quic::UdpLoop& loop, int fd, const Address& peer, bool connecting = false)
      : PolledSocket(loop, fd), peer_(peer), connecting_(connecting) {}

  const Address& peer() const { return peer_; }
  // After a connect: still under way (Ok), connected, or failed (the error says why).
  bool connecting() const { return connecting_; }
  Status finish_connect();
  IoResult read(uint8_t* into, size_t max);
  IoResult write(const uint8_t* from, size_t size);
  // No more sending (FIN), reads go on.
  void shutdown_write();

 private:
  Address peer_;
  bool connecting_;
};

class TcpListener final : public PolledSocket {
 public:
  // Binds and listens ("127.0.0.1:0" picks a free port). An error names the address and why.
  static Result<std::unique_ptr<TcpListener>> listen(quic::UdpLoop& loop, const Address& at);
  TcpListener(quic::UdpLoop& loop, int fd, const Address& local)
      : PolledSocket(loop, fd), local_(local) {}
  const Address& local_address() const { return local_; }
  // The next pending connection, or null: none waiting, or (out_of_descriptors()) the process
  // or the system has no descriptor left for it.
  std::unique_ptr<TcpConnection> accept(quic::UdpLoop& loop);
  bool out_of_descriptors() const { return exhausted_; }

 private:
  Address local_;
  bool exhausted_ = false;
};

}  // namespace moq::sim::ws
