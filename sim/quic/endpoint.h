// A QUIC endpoint: one datagram socket shared by the connections it starts (client) and accepts
// (server), routing each received datagram to its connection by destination connection id.
#pragma once

#include <ngtcp2/ngtcp2.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "sim/quic/datagram.h"
#include "sim/quic/quic_connection.h"
#include "sim/quic/tls.h"

namespace moq::sim::quic {

// Datagrams the endpoint could not give to any connection, by reason.
struct EndpointStats {
  uint64_t not_quic = 0;         // could not be parsed as a QUIC packet header
  uint64_t unknown_id = 0;       // a short header for no connection of ours
  uint64_t refused_initial = 0;  // an Initial we do not accept (not listening, bad version...)
  uint64_t accepted = 0;         // connections accepted
};

class QuicEndpoint final : public DatagramReceiver {
 public:
  // The endpoint takes the socket's receive side; socket, entropy and executor outlive it.
  QuicEndpoint(Executor& executor, DatagramSocket& socket, Entropy& entropy,
               QuicSettings settings = {});
  ~QuicEndpoint() override;
  QuicEndpoint(const QuicEndpoint&) = delete;
  QuicEndpoint& operator=(const QuicEndpoint&) = delete;

  // Accepts connections for any of alpns (the first the client offers wins) with identity.
  void listen(std::shared_ptr<TlsIdentity> identity, std::vector<std::string> alpns);
  // A client connection to server offering alpn; it becomes established() or closes with an
  // error naming why (wait on its handshake()).
  Result<std::unique_ptr<QuicConnection>> connect(const Address& server, const std::string& alpn,
                                                  std::shared_ptr<TlsTrust> trust,
                                                  const std::string& host = "localhost");
  // The same offering several ALPNs, preferred first; the connection's alpn() is the one the
  // server chose once established().
  Result<std::unique_ptr<QuicConnection>> connect(const Address& server,
                                                  std::vector<std::string> alpns,
                                                  std::shared_ptr<TlsTrust> trust,
                                                  const std::string& host = "localhost");
  // The next connection whose handshake completed, or null (wait on incoming()).
  std::unique_ptr<QuicConnection> accept();
  WaitList& incoming() { return incoming_; }

  void on_unreachable(const Address& to) override;
  void on_datagram(const Address& from, std::span<const uint8_t> data) override;

  // Some connection has stream data or datagrams to send (with unacked: or packets sent and not
  // yet acknowledged).
  bool busy(bool unacked) const;
  // The earliest QuicConnection::next_timer() of its connections.
  uint64_t next_timer() const;

  Executor& executor() { return *executor_; }
  Entropy& entropy() { return *entropy_; }
  DatagramSocket& socket() { return *socket_; }
  const QuicSettings& settings() const { return settings_; }
  const EndpointStats& stats() const { return stats_; }
  // Optional log of what happens to connections (moqbench relay -v): one line per event.
  void set_log(std::function<void(const std::string&)> log) { log_ = std::move(log); }
  void log(const std::string& line) const {
    if (log_) log_(line);
  }

 private:
  friend class QuicConnection;
  void route(const std::string& cid, QuicConnection* c);
  void unroute(const std::string& cid);
  void forget(QuicConnection* c);          // the connection object is being destroyed
  void handshake_done(QuicConnection* c);  // a server connection finished its handshake
  void accept_initial(const Address& from, std::span<const uint8_t> data);

  Executor* executor_;
  DatagramSocket* socket_;
  Entropy* entropy_;
  QuicSettings settings_;
  std::shared_ptr<TlsIdentity> identity_;
  std::vector<std::string> alpns_;
  // Connection id -> connection. Ordered: routing never depends on hash iteration.
  std::map<std::string, QuicConnection*, std::less<>> routes_;
  std::vector<std::unique_ptr<QuicConnection>> handshaking_;  // server side, not yet accepted
  std::vector<std::unique_ptr<QuicConnection>> ready_;        // accepted by QUIC, not by us
  std::vector<QuicConnection*> all_;                          // every connection object alive
  WaitList incoming_{"quic incoming connection"};
  EndpointStats stats_;
  std::function<void(const std::string&)> log_;
};

}  // namespace moq::sim::quic
