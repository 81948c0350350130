// moqbench's own WebSocket client: dials ws://HOST:PORT/PATH, offers "qmux-00.<alpn>" for each
// ALPN in order, and hands out the QMux connection once the WebSocket is open and the server's
// transport parameters arrived (before that nothing could be opened).
//
//   sim::quic::RealClock clock;  Executor executor(clock);  sim::quic::UdpLoop loop(executor);
//   auto c = WsClient::connect(executor, loop, "ws://127.0.0.1:4443/", {"moq-lite-06"}, 5e9);
//   if (!c) ... c.error().message names the URL and what failed (refused, HTTP 400 and its reason)
//   session::create_session(..., (*c)->connection(), ...);   // its alpn() is the chosen version's
//   loop.run_until(...);   // the loop polls the TCP socket
//
// Destroying the client (after whatever uses connection()) closes the connection (code 0) if it
// is still open and sends its close as far as the socket takes it at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/base/result.h"
#include "sim/qmux/qmux_connection.h"
#include "sim/quic/udp.h"
#include "sim/ws/ws_carrier.h"

namespace moq::sim::ws {

// A ws:// URL's parts. wss:// and other schemes are refused, naming the URL.
struct WsUrl {
  std::string host_port;  // as written, e.g. "127.0.0.1:4443" or "[::1]:80"
  std::string path;       // "/" when none
};
Result<WsUrl> parse_ws_url(const std::string& url);

class WsClient {
 public:
  // Runs loop until the connection is ready, it failed, or timeout_ns passed; the error names the
  // URL and why (nothing listening, the server's refusal with its reason, a timeout).
  static Result<std::unique_ptr<WsClient>> connect(Executor& executor, quic::UdpLoop& loop,
                                                   const std::string& url,
                                                   const std::vector<std::string>& alpns,
                                                   uint64_t timeout_ns);
  // The same with the carrier's settings (windows, limits, test options) given; settings.alpns
  // is replaced by alpns.
  static Result<std::unique_ptr<WsClient>> connect(Executor& executor, quic::UdpLoop& loop,
                                                   const std::string& url,
                                                   const std::vector<std::string>& alpns,
                                                   uint64_t timeout_ns, WsCarrierSettings settings);
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // The QMux connection: alpn() is the ALPN of the subprotocol the server chose.
  Connection& connection() { return *carrier_->connection(); }
  qmux::QmuxConnection& qmux() { return *carrier_->connection(); }
  // "qmux-00.<alpn>" as the server chose it.
  const std::string& subprotocol() const { return carrier_->subprotocol(); }
  // TCP closed (after a close, or the peer went away).
  bool finished() const { return carrier_->finished(); }
  WsCarrier& carrier() { return *carrier_; }

 private:
  explicit WsClient(std::unique_ptr<WsCarrier> carrier) : carrier_(std::move(carrier)) {}
  std::unique_ptr<WsCarrier> carrier_;
};

}  // namespace moq::sim::ws
