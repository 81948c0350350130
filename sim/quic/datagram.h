// What the QUIC backend sends its packets through: a datagram socket, real (udp.h: UDP on a
// host's interface) or simulated (memnet.h: in-memory links on the virtual clock).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <span>
#include <string>

#include "model/base/result.h"

namespace moq::sim::quic {

// An IPv4 or IPv6 socket address.
struct Address {
  sockaddr_storage storage{};
  socklen_t len = 0;

  static Address ipv4(uint32_t ip, uint16_t port);  // ip in host order: 0x7f000001 = 127.0.0.1
  // "127.0.0.1:4443", "[::1]:4443", "localhost:4443" (resolved); a missing port takes default_port.
  static Result<Address> parse(const std::string& host_port, uint16_t default_port);
  sockaddr* sa() { return reinterpret_cast<sockaddr*>(&storage); }
  const sockaddr* sa() const { return reinterpret_cast<const sockaddr*>(&storage); }
  uint16_t port() const;
  std::string to_string() const;
  bool operator==(const Address& o) const;
};

class DatagramReceiver {
 public:
  virtual ~DatagramReceiver() = default;
  // data is valid only during the call.
  virtual void on_datagram(const Address& from, std::span<const uint8_t> data) = 0;
  // A datagram sent to `to` came back as undeliverable (ICMP port unreachable).
  virtual void on_unreachable(const Address& to) = 0;
};

class DatagramSocket {
 public:
  virtual ~DatagramSocket() = default;
  virtual const Address& local_address() const = 0;
  // Sends one datagram (copied). Returns false when it could not be sent now (a full socket
  // buffer): QUIC treats that as loss and retransmits.
  virtual bool send_to(const Address& to, std::span<const uint8_t> datagram) = 0;
  void set_receiver(DatagramReceiver* receiver) { receiver_ = receiver; }

 protected:
  DatagramReceiver* receiver_ = nullptr;
};

// Randomness for connection ids, stateless-reset tokens and ngtcp2's own needs: the system's
// (GnuTLS's generator) over real networks, a seeded generator in the simulated world so that
// runs repeat exactly.
class Entropy {
 public:
  virtual ~Entropy() = default;
  virtual void fill(uint8_t* out, size_t n) = 0;
};

class SystemEntropy final : public Entropy {
 public:
  void fill(uint8_t* out, size_t n) override;
};

class SeededEntropy final : public Entropy {
 public:
  explicit SeededEntropy(uint64_t seed) : state_(seed) {}
  void fill(uint8_t* out, size_t n) override;

 private:
  uint64_t state_;
};

}  // namespace moq::sim::quic
