// The relay (model/relay) as a QUIC server: one UDP socket, every implemented version offered by
// ALPN, one relay session per accepted connection; with ws_listen, also a WebSocket server (the
// ws world, sim/ws: QMux-00 over WebSocket over TCP, the version chosen by the "qmux-00.<alpn>"
// subprotocol). `moqbench relay` runs it until a signal; `moqbench load` can run it in-process.
// Driven by a UdpLoop on the caller's executor: call serve() after each turn.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "harness/cli/drop_connection.h"
#include "model/relay/relay.h"
#include "model/session/session.h"
#include "sim/quic/endpoint.h"
#include "sim/quic/udp.h"
#include "sim/ws/ws_listener.h"

namespace moq::cli {

struct RelayServerConfig {
  std::string listen = "127.0.0.1:4443";  // the interop runners' default port
  std::string cert_file, key_file;        // PEM; both empty: a self-signed certificate
  bool verbose = false;                   // a line per session event on the log
  // Tests only: lose one group in this many from every client (drop_connection.h); 0: none.
  uint64_t test_drop_every = 0;
  std::string ws_listen;  // TCP address for WebSocket clients (HOST:PORT); empty: none
  // Tests only: the QMux stream and connection windows a WebSocket client gets; 0: the defaults.
  uint64_t test_ws_window = 0;
};

class RelayServer {
 public:
  RelayServer(Executor& executor, sim::quic::UdpLoop& loop, std::ostream& log);
  ~RelayServer();
  RelayServer(const RelayServer&) = delete;
  RelayServer& operator=(const RelayServer&) = delete;

  // Binds, loads or makes the certificate, and listens. An error names what failed.
  Status start(const RelayServerConfig& config);
  const sim::quic::Address& address() const { return socket_->local_address(); }
  // The WebSocket listener's address; null without one.
  const sim::quic::Address* ws_address() const { return ws_ ? &ws_->address() : nullptr; }
  // The certificate a client must trust (PEM).
  const std::string& certificate_pem() const { return identity_->certificate_pem(); }
  // Takes in the connections that finished their handshake and lets go of those that closed.
  void serve();
  // Closes every connection (code 0, "relay shutting down"); WebSocket connections get a moment
  // to send their close.
  void shutdown();

  size_t sessions() const { return clients_.size() + ws_clients_.size(); }
  uint64_t sessions_served() const { return served_; }
  relay::Relay& relay() { return relay_; }

 private:
  struct Client {
    std::unique_ptr<sim::quic::QuicConnection> conn;
    std::unique_ptr<DroppingConnection> dropping;  // over conn, with --test-drop-every
    session::Session* session = nullptr;
  };
  struct WsClient {
    std::unique_ptr<sim::ws::WsCarrier> carrier;
    std::unique_ptr<DroppingConnection> dropping;
    session::Session* session = nullptr;
  };
  void note(const std::string& line);
  Status start_ws(const RelayServerConfig& config);
  void serve_ws();

  Executor* executor_;
  sim::quic::UdpLoop* loop_;
  std::ostream* log_;
  bool verbose_ = false;
  uint64_t drop_every_ = 0;
  sim::quic::SystemEntropy entropy_;
  std::unique_ptr<sim::quic::UdpSocket> socket_;
  std::shared_ptr<sim::quic::TlsIdentity> identity_;
  std::unique_ptr<sim::quic::QuicEndpoint> endpoint_;
  relay::Relay relay_;
  std::vector<Client> clients_;  // after relay_: each client's session is removed first
  std::unique_ptr<sim::ws::WsListener> ws_;
  std::vector<WsClient> ws_clients_;
  uint64_t served_ = 0;
};

// The ALPN of every implemented version, in version order.
std::vector<std::string> implemented_alpns();

}  // namespace moq::cli
