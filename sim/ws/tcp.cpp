#include "sim/ws/tcp.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace moq::sim::ws {

PolledSocket::PolledSocket(quic::UdpLoop& loop, int fd) : loop_(&loop), fd_(fd) {
  loop_->add(*this);
}

PolledSocket::~PolledSocket() {
  loop_->remove(*this);
  ::close(fd_);
}

void PolledSocket::on_polled(short) {
  if (task_) task_->wake();
}

namespace {

// Frames go out as soon as they are written: QMux has its own flow control, and Nagle's delay
// would hold back a small control message behind an unacknowledged one.
void no_delay(int fd) {
  const int on = 1;
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

}  // namespace

Result<std::unique_ptr<TcpConnection>> TcpConnection::connect(quic::UdpLoop& loop,
                                                              const Address& to) {
  const int fd = ::socket(to.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return Error{0, std::string("making a TCP socket: ") + std::strerror(errno)};
  no_delay(fd);
  if (::connect(fd, to.sa(), to.len) != 0 && errno != EINPROGRESS) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return Error{0, "connecting to " + to.to_string() + ": " + why};
  }
  return std::make_unique<TcpConnection>(loop, fd, to, true);
}

Status TcpConnection::finish_connect() {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(fd(), SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
  if (err == EINPROGRESS || err == EALREADY) return {};
  if (err != 0) return Error{0, "connecting to " + peer_.to_string() + ": " + std::strerror(err)};
  // SO_ERROR is 0 both when connected and while still connecting: ask the peer's address.
  sockaddr_storage ss{};
  socklen_t sl = sizeof ss;
  if (getpeername(fd(), reinterpret_cast<sockaddr*>(&ss), &sl) == 0) connecting_ = false;
  return {};
}

IoResult TcpConnection::read(uint8_t* into, size_t max) {
  for (;;) {
    const ssize_t n = ::recv(fd(), into, max, 0);
    if (n > 0) return {IoResult::Done, static_cast<size_t>(n), {}};
    if (n == 0) return {IoResult::Ended, 0, "the peer closed the TCP connection"};
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return {IoResult::WouldBlock, 0, {}};
    return {IoResult::Failed, 0, std::string("TCP read: ") + std::strerror(errno)};
  }
}

IoResult TcpConnection::write(const uint8_t* from, size_t size) {
  for (;;) {
    // MSG_NOSIGNAL: a peer gone away is an error here, not a SIGPIPE for the whole process.
    const ssize_t n = ::send(fd(), from, size, MSG_NOSIGNAL);
    if (n >= 0) return {IoResult::Done, static_cast<size_t>(n), {}};
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return {IoResult::WouldBlock, 0, {}};
    return {IoResult::Failed, 0, std::string("TCP write: ") + std::strerror(errno)};
  }
}

void TcpConnection::shutdown_write() {
  (void)::shutdown(fd(), SHUT_WR);
}

Result<std::unique_ptr<TcpListener>> TcpListener::listen(quic::UdpLoop& loop, const Address& at) {
  const int fd = ::socket(at.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return Error{0, std::string("making a TCP socket: ") + std::strerror(errno)};
  // A restarted relay can take its port again while old connections sit in TIME_WAIT.
  const int on = 1;
  (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (::bind(fd, at.sa(), at.len) != 0 || ::listen(fd, 64) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return Error{0, "listening on TCP " + at.to_string() + ": " + why};
  }
  Address bound;
  bound.len = sizeof bound.storage;
  getsockname(fd, bound.sa(), &bound.len);
  return std::make_unique<TcpListener>(loop, fd, bound);
}

std::unique_ptr<TcpConnection> TcpListener::accept(quic::UdpLoop& loop) {
  for (;;) {
    Address peer;
    peer.len = sizeof peer.storage;
    const int fd = ::accept4(this->fd(), peer.sa(), &peer.len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      exhausted_ = false;
      no_delay(fd);
      return std::make_unique<TcpConnection>(loop, fd, peer);
    }
    // A connection that failed before it was taken (ECONNABORTED) is skipped.
    if (errno == EINTR || errno == ECONNABORTED) continue;
    exhausted_ = errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM;
    return nullptr;
  }
}

}  // namespace moq::sim::ws
