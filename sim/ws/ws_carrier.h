// The ws world's carrier: one QmuxConnection (Framing::Message) over a WebSocket (websocket.h) over
// a non-blocking TCP connection (tcp.h), driven by one task on the executor that the UdpLoop
// wakes when the socket is ready and the connection when it has output.
//
// - Each frame the QmuxConnection outputs goes as one binary message, and each binary message
//   from the peer goes to receive_message(). The QmuxConnection exists once the WebSocket is open;
//   its ALPN is the one named by the chosen "qmux-00.<alpn>" subprotocol.
// - When the QmuxConnection closes (its own CONNECTION_CLOSE for a protocol error, an application
//   close), the carrier sends the close frame, then a WebSocket close with the reason (1002 for a
//   protocol error, 1000 otherwise), and closes TCP once the close handshake ends or after the
//   linger time. A WebSocket close from the peer, TCP EOF or a TCP error closes the connection
//   with lost() and the reason.
// - Output is taken from the QmuxConnection only while less than a high-water mark of bytes waits
//   for the socket, so a peer that stops reading holds back the connection, not the memory.
// - Nothing is allocated per frame here: the read buffer, the frame's gather buffer and the output
//   buffer are reused, and received messages are copied into a pooled arena (what websocketpp
//   itself allocates per message is listed in websocket_wspp.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "sim/qmux/qmux_connection.h"
#include "sim/ws/tcp.h"
#include "sim/ws/websocket.h"

namespace moq::sim::ws {

struct WsCarrierSettings {
  // Server: the ALPNs it accepts, in its order of preference. Client: those it offers, in order.
  std::vector<std::string> alpns;
  // Windows and stream limits of the QmuxConnection (alpn, client and framing are set here).
  qmux::QmuxSettings qmux;
  // A server drops a connection whose upgrade has not completed by then.
  uint64_t handshake_timeout_ns = 10'000'000'000ull;
  // After this side's WebSocket close (or the peer's end), TCP is closed at the latest then.
  uint64_t linger_ns = 2'000'000'000ull;
};

class WsCarrier {
 public:
  // The server end of an accepted TCP connection, waiting for the upgrade request.
  static std::unique_ptr<WsCarrier> serve(Executor& executor, std::unique_ptr<TcpConnection> tcp,
                                          const WsCarrierSettings& settings);
  // The client end: the upgrade request for url goes out once TCP connects. Fails on a URL the
  // WebSocket library refuses.
  static Result<std::unique_ptr<WsCarrier>> dial(Executor& executor,
                                                 std::unique_ptr<TcpConnection> tcp,
                                                 const std::string& url,
                                                 const WsCarrierSettings& settings);
  // A connection still open is closed (code 0, "connection dropped") and what can be sent at
  // once is sent before TCP closes.
  ~WsCarrier();
  WsCarrier(const WsCarrier&) = delete;
  WsCarrier& operator=(const WsCarrier&) = delete;

  // Null until the WebSocket opens.
  qmux::QmuxConnection* connection() { return conn_.get(); }
  const std::string& subprotocol() const { return subprotocol_; }
  const Address& peer() const { return peer_; }
  // TCP is closed: nothing more happens.
  bool finished() const { return finished_; }
  // Why the WebSocket ended (a refused or failed handshake, a close and its reason); "" while open.
  const std::string& end_reason() const { return end_reason_; }
  // The WebSocket (tests: the 101's headers).
  const WebSocket& websocket() const { return *ws_; }
  // Tests of peers that misbehave: one binary message as it is, beside the connection's frames.
  // False when the WebSocket is not open.
  bool send_raw_message(const uint8_t* data, size_t size);

 private:
  class Drive;
  WsCarrier(Executor& executor, std::unique_ptr<TcpConnection> tcp, WsCarrierSettings settings,
            bool client);
  WebSocketEvents events();
  Poll step();
  void read_socket();
  void pump_frames();
  void write_socket();
  void opened(const std::string& subprotocol);
  void ended(uint16_t code, const std::string& reason);
  void tcp_ended(const std::string& why);
  void finish();

  Executor* executor_;
  std::unique_ptr<TcpConnection> tcp_;  // null once finished
  Address peer_;
  WsCarrierSettings settings_;
  bool client_;
  std::unique_ptr<Drive> drive_;
  std::unique_ptr<WebSocket> ws_;
  std::unique_ptr<qmux::QmuxConnection> conn_;
  std::string subprotocol_;
  std::string end_reason_;
  bool ws_ended_ = false;
  bool tcp_read_done_ = false;
  bool ws_close_sent_ = false;
  bool finished_ = false;
  std::vector<uint8_t> in_;   // one read from the socket
  std::vector<uint8_t> out_;  // bytes for the socket, from out_at_ on
  size_t out_at_ = 0;
  BufChain frame_;               // one frame taken from the connection
  std::vector<uint8_t> gather_;  // a frame cut in several chunks, made contiguous
  ByteArena arena_{64 * 1024};   // received messages
};

}  // namespace moq::sim::ws
