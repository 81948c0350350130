// One WebSocket endpoint (RFC 6455) without I/O: the bytes that arrived go in (receive), the bytes
// to send come out (WebSocketEvents::on_output), and the HTTP upgrade, the framing, masking and
// the close handshake are done by websocketpp 0.8.2 (Debian's libwebsocketpp-dev, header-only).
// Its core configuration with the iostream transport owns no socket and no thread: the carrier
// (ws_carrier.h) runs it on our executor, and two of them run in memory in tests.
//
// websocketpp 0.8.2 does not compile as C++20 with g++ 12 (its template-id constructors and
// destructors), so it lives behind this one header, which uses nothing but the C++17 standard
// library, and only websocket_wspp.cpp includes it, compiled as C++17.
//
// Semantics:
// - A server chooses the subprotocol itself (choose_subprotocol, subprotocol.h: by its own
//   preference, not the client's order) and refuses the upgrade with an HTTP 400 whose body says
//   what was offered and what it supports.
// - A client offers its subprotocols in order and fails when the server echoes none of them.
// - Only binary messages are delivered; a text message is ignored, as the JavaScript peer does.
// - No extension is negotiated: permessage-deflate is declined (no Sec-WebSocket-Extensions).
// - Every event is delivered from inside the call that caused it (receive, send_binary, close).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace moq::sim::ws {

struct WebSocketEvents {
  // The handshake completed with this subprotocol (the server's choice).
  std::function<void(const std::string& subprotocol)> on_open;
  // One binary message; data is valid only during the call.
  std::function<void(const uint8_t* data, size_t size)> on_binary;
  // The connection ended: after a close handshake, the peer's close code and reason (or ours when
  // this side closed first); after a failure (a refused handshake, a protocol error, the
  // transport's end), why. Called once.
  std::function<void(uint16_t code, const std::string& reason)> on_closed;
  // Bytes to write to the transport, in order; data is valid only during the call.
  std::function<void(const uint8_t* data, size_t size)> on_output;
};

// The largest message accepted from the peer; a larger one closes with 1009 (message too big).
constexpr size_t kMaxWebSocketMessage = 1 << 20;

class WebSocket {
 public:
  enum class State { Connecting, Open, Closing, Closed };
  // The server's choice among the offered subprotocols: true with the chosen one in
  // chosen_or_why, or false with the reason for refusing in chosen_or_why.
  using Chooser =
      std::function<bool(const std::vector<std::string>& offered, std::string& chosen_or_why)>;

  // A server waiting for the client's upgrade request.
  static std::unique_ptr<WebSocket> server(Chooser choose, WebSocketEvents events);
  // A client for url (ws://HOST[:PORT]/PATH) offering subprotocols in order; the upgrade request
  // goes out through on_output before it returns. Null with why set when the URL is refused.
  static std::unique_ptr<WebSocket> client(const std::string& url,
                                           const std::vector<std::string>& subprotocols,
                                           WebSocketEvents events, std::string& why);
  virtual ~WebSocket() = default;

  // The next bytes from the transport, cut anywhere.
  virtual void receive(const uint8_t* data, size_t size) = 0;
  // The transport ended (EOF, reset): the connection ends, with reason.
  virtual void receive_eof(const std::string& reason) = 0;
  // Sends one binary message (copied). False when the connection is not open.
  virtual bool send_binary(const uint8_t* data, size_t size) = 0;
  // Starts the close handshake (code and reason; the reason is cut to 123 bytes). Nothing when
  // not open.
  virtual void close(uint16_t code, const std::string& reason) = 0;
  virtual State state() const = 0;
  // The server's answer headers (tests): the value of name in the 101, or "".
  virtual std::string response_header(const std::string& name) const = 0;
};

}  // namespace moq::sim::ws
