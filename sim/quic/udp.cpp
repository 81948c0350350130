#include "sim/quic/udp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace moq::sim::quic {

uint64_t RealClock::now_ns() const {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

Result<std::unique_ptr<UdpSocket>> UdpSocket::bind(const Address& local) {
  const int fd = ::socket(local.storage.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return Error{0, std::string("making a UDP socket: ") + std::strerror(errno)};
  const int on = 1;
  if (local.storage.ss_family == AF_INET6)
    (void)setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &on, sizeof on);
  else
    (void)setsockopt(fd, IPPROTO_IP, IP_RECVERR, &on, sizeof on);
  const int size = 4 << 20;  // room for bursts on loopback
  (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  (void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  if (::bind(fd, local.sa(), local.len) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return Error{0, "binding UDP " + local.to_string() + ": " + why};
  }
  Address bound;
  bound.len = sizeof bound.storage;
  getsockname(fd, bound.sa(), &bound.len);
  return std::unique_ptr<UdpSocket>(new UdpSocket(fd, bound));
}

UdpSocket::~UdpSocket() {
  ::close(fd_);
}

bool UdpSocket::send_to(const Address& to, std::span<const uint8_t> datagram) {
  for (;;) {
    const ssize_t n = ::sendto(fd_, datagram.data(), datagram.size(), 0, to.sa(), to.len);
    if (n >= 0) return true;
    if (errno == EINTR) continue;
    // EAGAIN: ngtcp2 already counts the packet as sent; it is lost (pitfall 8). A queued ICMP
    // error can also surface here (ECONNREFUSED): it stays queued and is reported from the loop
    // (drain), never from inside a send, which runs inside a connection's write loop.
    return false;
  }
}

void UdpSocket::drain(bool errors_queued) {
  // An ICMP error both sets the socket's pending error and joins its error queue. The next
  // sendto() takes the pending error (ECONNREFUSED, see send_to) and recvfrom() then says only
  // EAGAIN, so the queue is read whenever poll() reports it, not only when recvfrom() fails:
  // otherwise the error waits unread until another ICMP error arrives, which the kernel's
  // machine-wide ICMP rate limit may never send.
  if (errors_queued) drain_errors();
  for (;;) {
    Address from;
    from.len = sizeof from.storage;
    const ssize_t n = ::recvfrom(fd_, buf_.data(), buf_.size(), 0, from.sa(), &from.len);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == ECONNREFUSED) {
        drain_errors();
        continue;
      }
      return;  // EAGAIN
    }
    if (receiver_) receiver_->on_datagram(from, {buf_.data(), static_cast<size_t>(n)});
  }
}

// ICMP errors queued by IP_RECVERR: msg_name is where the failed datagram was going.
void UdpSocket::drain_errors() {
  for (;;) {
    Address to;
    char control[512];
    uint8_t payload[64];
    iovec iov{payload, sizeof payload};
    msghdr msg{};
    msg.msg_name = to.sa();
    msg.msg_namelen = sizeof to.storage;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    if (::recvmsg(fd_, &msg, MSG_ERRQUEUE) < 0) return;
    to.len = msg.msg_namelen;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      const bool v4 = c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR;
      const bool v6 = c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_RECVERR;
      if (!v4 && !v6) continue;
      sock_extended_err err;
      std::memcpy(&err, CMSG_DATA(c), sizeof err);
      if (err.ee_errno == ECONNREFUSED && receiver_) receiver_->on_unreachable(to);
    }
  }
}

void UdpLoop::remove(UdpSocket& socket) {
  sockets_.erase(std::remove(sockets_.begin(), sockets_.end(), &socket), sockets_.end());
}

void UdpLoop::remove(PolledFd& fd) {
  others_.erase(std::remove(others_.begin(), others_.end(), &fd), others_.end());
}

void UdpLoop::turn(uint64_t max_wait_ns) {
  executor_->run_until_idle();
  uint64_t wait = max_wait_ns;
  const uint64_t deadline = executor_->next_deadline();
  const uint64_t now = executor_->now_ns();
  if (deadline != UINT64_MAX) wait = std::min(wait, deadline > now ? deadline - now : 0);
  std::vector<pollfd> fds;
  fds.reserve(sockets_.size() + others_.size());
  for (UdpSocket* s : sockets_)
    fds.push_back({s->fd(), POLLIN, 0});  // POLLERR (a queued ICMP error) is always reported
  polled_.clear();
  for (PolledFd* p : others_) {
    const short events = p->polled_events();
    if (events == 0) continue;
    fds.push_back({p->polled_fd(), events, 0});
    polled_.push_back(p);
  }
  // ppoll() waits to the nanosecond: ngtcp2's pacing and ack timers are sub-millisecond, and a
  // millisecond poll() would hold each packet of a burst back by up to 1 ms.
  wait = std::min<uint64_t>(wait, 1'000'000'000);
  const timespec ts{static_cast<time_t>(wait / 1'000'000'000),
                    static_cast<long>(wait % 1'000'000'000)};
  if (::ppoll(fds.data(), fds.size(), &ts, nullptr) > 0) {
    const size_t udp = sockets_.size();
    for (size_t i = 0; i < udp; ++i)
      if (fds[i].revents) sockets_[i]->drain((fds[i].revents & POLLERR) != 0);
    for (size_t i = udp; i < fds.size(); ++i)
      if (fds[i].revents) polled_[i - udp]->on_polled(fds[i].revents);
  }
  executor_->run_until_idle();
}

}  // namespace moq::sim::quic
