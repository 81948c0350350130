#include "sim/quic/datagram.h"

#include <arpa/inet.h>
#include <gnutls/crypto.h>
#include <netdb.h>

#include <cstring>

namespace moq::sim::quic {

Address Address::ipv4(uint32_t ip, uint16_t port) {
  Address a;
  auto* in = reinterpret_cast<sockaddr_in*>(&a.storage);
  in->sin_family = AF_INET;
  in->sin_port = htons(port);
  in->sin_addr.s_addr = htonl(ip);
  a.len = sizeof(sockaddr_in);
  return a;
}

Result<Address> Address::parse(const std::string& host_port, uint16_t default_port) {
  std::string host = host_port, port = std::to_string(default_port);
  if (!host.empty() && host[0] == '[') {
    const size_t close = host.find(']');
    if (close == std::string::npos) return Error{0, "address '" + host_port + "': missing ']'"};
    if (close + 1 < host.size() && host[close + 1] == ':') port = host.substr(close + 2);
    host = host.substr(1, close - 1);
  } else if (const size_t colon = host.rfind(':'); colon != std::string::npos) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
  }
  if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) > 65535)
    return Error{0, "address '" + host_port + "': the port must be a number from 0 to 65535"};
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* res = nullptr;
  const int rv = getaddrinfo(host.empty() ? "127.0.0.1" : host.c_str(), port.c_str(), &hints, &res);
  if (rv != 0 || !res)
    return Error{0,
                 "address '" + host_port + "': cannot resolve '" + host + "': " + gai_strerror(rv)};
  Address a;
  std::memcpy(&a.storage, res->ai_addr, res->ai_addrlen);
  a.len = res->ai_addrlen;
  freeaddrinfo(res);
  return a;
}

uint16_t Address::port() const {
  if (storage.ss_family == AF_INET6)
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
  return ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
}

std::string Address::to_string() const {
  char host[INET6_ADDRSTRLEN] = "?";
  if (storage.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr, host,
              sizeof host);
    return "[" + std::string(host) + "]:" + std::to_string(port());
  }
  inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr, host, sizeof host);
  return std::string(host) + ":" + std::to_string(port());
}

bool Address::operator==(const Address& o) const {
  return len == o.len && std::memcmp(&storage, &o.storage, len) == 0;
}

void SystemEntropy::fill(uint8_t* out, size_t n) {
  gnutls_rnd(GNUTLS_RND_NONCE, out, n);
}

// splitmix64: a few instructions a word, and every seed gives a full-period stream.
void SeededEntropy::fill(uint8_t* out, size_t n) {
  while (n > 0) {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const size_t k = n < 8 ? n : 8;
    std::memcpy(out, &z, k);
    out += k;
    n -= k;
  }
}

}  // namespace moq::sim::quic
