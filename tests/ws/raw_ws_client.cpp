#include "tests/ws/raw_ws_client.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstring>

namespace moq::sim::ws::testing {

namespace {

std::string varint(uint64_t v) {
  std::string out;
  if (v < 64) {
    out.push_back(static_cast<char>(v));
  } else if (v < 16384) {
    out.push_back(static_cast<char>(0x40 | (v >> 8)));
    out.push_back(static_cast<char>(v & 0xff));
  } else {
    for (int i = 3; i >= 0; --i)
      out.push_back(static_cast<char>(((v >> (8 * i)) & 0xff) | (i == 3 ? 0x80 : 0)));
  }
  return out;
}

std::string masked_frame(const std::string& payload) {
  std::string f;
  f.push_back(static_cast<char>(0x82));
  const size_t n = payload.size();
  if (n < 126) {
    f.push_back(static_cast<char>(0x80 | n));
  } else if (n < 65536) {
    f.push_back(static_cast<char>(0x80 | 126));
    f.push_back(static_cast<char>(n >> 8));
    f.push_back(static_cast<char>(n & 0xff));
  } else {
    f.push_back(static_cast<char>(0x80 | 127));
    for (int i = 7; i >= 0; --i)
      f.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  }
  const uint8_t key[4] = {0x12, 0x34, 0x56, 0x78};
  f.append(reinterpret_cast<const char*>(key), 4);
  for (size_t i = 0; i < n; ++i)
    f.push_back(static_cast<char>(payload[i] ^ key[i % 4]));
  return f;
}

void send_all(int fd, const std::string& bytes) {
  size_t at = 0;
  while (at < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

}  // namespace

RawWsClient::RawWsClient(uint16_t port, int timeout_ms) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  const int on = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(0x7f000001);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

RawWsClient::~RawWsClient() {
  if (fd_ >= 0) ::close(fd_);
}

bool RawWsClient::fill(size_t n) {
  char buf[65536];
  while (in_.size() < n) {
    const ssize_t got = ::recv(fd_, buf, sizeof buf, 0);
    if (got <= 0) return false;
    in_.append(buf, static_cast<size_t>(got));
  }
  return true;
}

std::string RawWsClient::upgrade(const std::string& protocols) {
  send_all(fd_,
           "GET /moq HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
           "Sec-WebSocket-Protocol: " +
               protocols + "\r\n\r\n");
  size_t end;
  while ((end = in_.find("\r\n\r\n")) == std::string::npos)
    if (!fill(in_.size() + 1)) return in_;
  end += 4;
  size_t body = 0;
  const size_t cl = in_.find("Content-Length: ");
  if (cl != std::string::npos && cl < end) body = std::stoul(in_.substr(cl + 16));
  (void)fill(end + body);
  std::string head = in_.substr(0, std::min(in_.size(), end + body));
  in_.erase(0, head.size());
  return head;
}

void RawWsClient::send_binary(const std::string& payload) {
  send_all(fd_, masked_frame(payload));
}

void RawWsClient::send_binaries(const std::string* payloads, size_t count) {
  std::string all;
  for (size_t i = 0; i < count; ++i)
    all += masked_frame(payloads[i]);
  send_all(fd_, all);
}

std::optional<RawWsClient::Message> RawWsClient::read_message() {
  if (!fill(2)) return std::nullopt;
  Message m;
  m.opcode = static_cast<uint8_t>(in_[0]) & 0x0f;
  uint64_t n = static_cast<uint8_t>(in_[1]) & 0x7f;
  size_t header = 2;
  if (n == 126 || n == 127) {
    const size_t bytes = n == 126 ? 2 : 8;
    if (!fill(2 + bytes)) return std::nullopt;
    n = 0;
    for (size_t i = 0; i < bytes; ++i)
      n = n << 8 | static_cast<uint8_t>(in_[2 + i]);
    header += bytes;
  }
  if (!fill(header + n)) return std::nullopt;
  m.payload = in_.substr(header, n);
  in_.erase(0, header + n);
  return m;
}

std::optional<RawWsClient::Message> RawWsClient::read_until_close(std::string* binaries_seen) {
  while (std::optional<Message> m = read_message()) {
    if (m->opcode == 8) return m;
    if (binaries_seen && m->opcode == 2) *binaries_seen += m->payload + '\n';
  }
  return std::nullopt;
}

void RawWsClient::vanish() {
  linger l{1, 0};
  setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  ::close(fd_);
  fd_ = -1;
}

std::string unhex(const std::string& hex) {
  std::string out, digits;
  for (char c : hex)
    if (c != ' ') digits.push_back(c);
  for (size_t i = 0; i + 1 < digits.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  return out;
}

std::string js_transport_parameters() {
  return unhex(
      "ff 51 53 30 0d 0a 0d 0a 20 04 04 80 10 00 00 05 04 80 04 00 00 06 04 80 04 00 00 07 04 80 "
      "04 00 00 08 02 40 64 09 02 40 64");
}

std::string stream_frame(uint64_t id, const std::string& data, bool fin) {
  return std::string(1, static_cast<char>(fin ? 0x0b : 0x0a)) + varint(id) + varint(data.size()) +
         data;
}

}  // namespace moq::sim::ws::testing
