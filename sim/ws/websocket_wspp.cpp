// websocket.h over websocketpp 0.8.2's core configurations (iostream transport: bytes in through
// read_some(), bytes out through the write handler). Compiled as C++17 (see websocket.h).
//
// What websocketpp allocates per message, which this adapter cannot avoid: each message received
// is a new message object (shared_ptr) with its payload in a std::string, and each message sent
// is the same plus its prepared frame header; handlers are called through std::function.
#include <algorithm>
#include <system_error>
#include <websocketpp/client.hpp>
#include <websocketpp/config/core.hpp>
#include <websocketpp/config/core_client.hpp>
#include <websocketpp/server.hpp>

#include "sim/ws/websocket.h"

namespace moq::sim::ws {

namespace {

namespace wspp = websocketpp;

template <class Endpoint>
class WsppSocket final : public WebSocket {
 public:
  using Con = typename Endpoint::connection_ptr;
  using MessagePtr = typename Endpoint::message_ptr;

  explicit WsppSocket(WebSocketEvents events) : events_(std::move(events)) {
    // The library's own logging would write to stdout and stderr: the carrier logs instead.
    endpoint.clear_access_channels(wspp::log::alevel::all);
    endpoint.clear_error_channels(wspp::log::elevel::all);
  }

  // A connection waiting for a read holds a reference to itself (the pending read's handler is
  // bound to it), so one dropped mid-handshake or while open would never be freed: ending the
  // read breaks that cycle. Nothing is reported any more.
  ~WsppSocket() override {
    events_ = WebSocketEvents{};
    reported_ = true;
    if (con_) con_->eof();
  }
  WsppSocket(const WsppSocket&) = delete;
  WsppSocket& operator=(const WsppSocket&) = delete;

  // Sets the handlers every connection has.
  void hook(Con con) {
    con_ = std::move(con);
    con_->set_max_message_size(kMaxWebSocketMessage);
    con_->set_write_handler([this](const wspp::connection_hdl&, const char* data, size_t size) {
      if (events_.on_output) events_.on_output(reinterpret_cast<const uint8_t*>(data), size);
      return std::error_code();
    });
    con_->set_open_handler([this](const wspp::connection_hdl&) { opened(); });
    con_->set_message_handler([this](const wspp::connection_hdl&, MessagePtr message) {
      // Text messages are ignored, as the JavaScript peer ignores them.
      if (message->get_opcode() != wspp::frame::opcode::binary) return;
      const std::string& payload = message->get_payload();
      if (events_.on_binary)
        events_.on_binary(reinterpret_cast<const uint8_t*>(payload.data()), payload.size());
    });
    con_->set_close_handler([this](const wspp::connection_hdl&) { closed_cleanly(); });
    con_->set_fail_handler([this](const wspp::connection_hdl&) { failed(); });
  }

  void receive(const uint8_t* data, size_t size) override {
    const char* at = reinterpret_cast<const char*>(data);
    while (size > 0) {
      // 0: no read is pending (the connection ended); the rest is dropped.
      const size_t n = con_->read_some(at, size);
      if (n == 0) return;
      at += n;
      size -= n;
    }
  }

  void receive_eof(const std::string& reason) override {
    eof_reason_ = reason;
    con_->eof();
    // A connection with no read pending hears nothing from eof(): it ends here.
    report(1006, reason);
  }

  bool send_binary(const uint8_t* data, size_t size) override {
    if (con_->get_state() != wspp::session::state::open) return false;
    return !con_->send(data, size, wspp::frame::opcode::binary);
  }

  void close(uint16_t code, const std::string& reason) override {
    if (con_->get_state() != wspp::session::state::open) return;
    std::error_code ec;
    con_->close(code, reason, ec);
  }

  State state() const override {
    if (reported_) return State::Closed;
    switch (con_->get_state()) {
      case wspp::session::state::connecting:
        return State::Connecting;
      case wspp::session::state::open:
        return opened_ ? State::Open : State::Connecting;
      case wspp::session::state::closing:
        return State::Closing;
      case wspp::session::state::closed:
        return State::Closed;
    }
    return State::Closed;
  }

  std::string response_header(const std::string& name) const override {
    return con_->get_response_header(name);
  }

  // Server side: the subprotocol, chosen by choose.
  bool validate(const WebSocket::Chooser& choose) {
    std::string chosen_or_why;
    if (choose(con_->get_requested_subprotocols(), chosen_or_why)) {
      std::error_code ec;
      con_->select_subprotocol(chosen_or_why, ec);
      if (!ec) return true;
      chosen_or_why = "selecting subprotocol '" + chosen_or_why + "': " + ec.message();
    }
    refusal_ = chosen_or_why;
    con_->set_status(wspp::http::status_code::bad_request);
    con_->set_body(chosen_or_why + "\n");
    return false;
  }

  const Con& connection() const { return con_; }
  // Client side: the subprotocols offered, so that the echo can be checked.
  std::vector<std::string> offered;
  Endpoint endpoint;

 private:
  void opened() {
    if (!offered.empty()) {
      const std::string echo = con_->get_response_header("Sec-WebSocket-Protocol");
      if (std::find(offered.begin(), offered.end(), echo) == offered.end()) {
        const std::string why =
            "the server chose subprotocol '" + echo + "', which was not offered";
        std::error_code ec;
        con_->close(wspp::close::status::protocol_error, why, ec);
        report(wspp::close::status::protocol_error, why);
        return;
      }
    }
    opened_ = true;
    if (events_.on_open)
      events_.on_open(con_->get_subprotocol().empty()
                          ? con_->get_response_header("Sec-WebSocket-Protocol")
                          : con_->get_subprotocol());
  }

  void closed_cleanly() {
    const auto remote = con_->get_remote_close_code();
    if (remote != wspp::close::status::no_status && remote != wspp::close::status::abnormal_close)
      return report(remote, "closed by the peer: " + con_->get_remote_close_reason());
    const auto local = con_->get_local_close_code();
    if (local != wspp::close::status::no_status && local != wspp::close::status::abnormal_close)
      return report(local, con_->get_local_close_reason());
    report(1006, eof_reason_.empty() ? "ended without a close frame" : eof_reason_);
  }

  void failed() {
    if (!refusal_.empty()) return report(1006, "handshake refused: " + refusal_);
    std::string why = con_->get_ec().message();
    if (!opened_ && !offered.empty()) {
      const int status = con_->get_response_code();
      if (status != 0 && status != 101)
        why = "the server answered HTTP " + std::to_string(status) + " " +
              con_->get_response_msg() + ": " + con_->get_response().get_body();
    }
    if (!eof_reason_.empty()) why = eof_reason_ + " (" + why + ")";
    report(1006, "WebSocket failed: " + why);
  }

  void report(uint16_t code, const std::string& reason) {
    if (reported_) return;
    reported_ = true;
    if (events_.on_closed) events_.on_closed(code, reason);
  }

  WebSocketEvents events_;
  Con con_;
  bool opened_ = false;
  bool reported_ = false;
  std::string refusal_;
  std::string eof_reason_;
};

using Server = WsppSocket<wspp::server<wspp::config::core>>;
using Client = WsppSocket<wspp::client<wspp::config::core_client>>;

}  // namespace

std::unique_ptr<WebSocket> WebSocket::server(Chooser choose, WebSocketEvents events) {
  auto ws = std::make_unique<Server>(std::move(events));
  Server* raw = ws.get();
  raw->hook(raw->endpoint.get_connection());
  raw->connection()->set_validate_handler(
      [raw, choose = std::move(choose)](const wspp::connection_hdl&) {
        return raw->validate(choose);
      });
  raw->connection()->start();
  return ws;
}

std::unique_ptr<WebSocket> WebSocket::client(const std::string& url,
                                             const std::vector<std::string>& subprotocols,
                                             WebSocketEvents events, std::string& why) {
  auto ws = std::make_unique<Client>(std::move(events));
  std::error_code ec;
  Client::Con con = ws->endpoint.get_connection(url, ec);
  if (ec) {
    why = "URL '" + url + "': " + ec.message();
    return nullptr;
  }
  if (con->get_uri()->get_secure()) {
    why = "URL '" + url + "': wss:// (TLS) is not supported; use ws://";
    return nullptr;
  }
  for (const std::string& p : subprotocols) {
    con->add_subprotocol(p, ec);
    if (ec) {
      why = "subprotocol '" + p + "': " + ec.message();
      return nullptr;
    }
  }
  ws->offered = subprotocols;
  ws->hook(con);
  ws->endpoint.connect(con);
  return ws;
}

}  // namespace moq::sim::ws
