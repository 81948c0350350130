#include "harness/cli/relay_server.h"

#include <algorithm>

#include "model/session/create_session.h"

namespace moq::cli {

namespace q = sim::quic;

std::vector<std::string> implemented_alpns() {
  std::vector<std::string> out;
  for (session::Version v : session::implemented_versions())
    out.emplace_back(session::version_alpn(v));
  return out;
}

RelayServer::RelayServer(Executor& executor, q::UdpLoop& loop, std::ostream& log)
    : executor_(&executor), loop_(&loop), log_(&log), relay_(executor) {}

RelayServer::~RelayServer() {
  for (Client& c : clients_)
    relay_.remove(*c.session);
  clients_.clear();
  for (WsClient& c : ws_clients_)
    relay_.remove(*c.session);
  ws_clients_.clear();
  ws_.reset();
  endpoint_.reset();
  if (socket_) loop_->remove(*socket_);
}

void RelayServer::note(const std::string& line) {
  if (verbose_) *log_ << "moqbench relay: " << line << '\n' << std::flush;
}

Status RelayServer::start(const RelayServerConfig& config) {
  verbose_ = config.verbose;
  drop_every_ = config.test_drop_every;
  Result<q::Address> at = q::Address::parse(config.listen, 4443);
  if (!at) return Error{0, "--listen: " + at.error().message};
  if (config.cert_file.empty() != config.key_file.empty())
    return Error{0, "--cert and --key go together (PEM files of the certificate and its key)"};
  Result<std::shared_ptr<q::TlsIdentity>> id =
      config.cert_file.empty() ? q::TlsIdentity::self_signed()
                               : q::TlsIdentity::from_pem_files(config.cert_file, config.key_file);
  if (!id) return id.error();
  identity_ = *id;
  Result<std::unique_ptr<q::UdpSocket>> socket = q::UdpSocket::bind(*at);
  if (!socket) return socket.error();
  socket_ = std::move(*socket);
  loop_->add(*socket_);
  endpoint_ = std::make_unique<q::QuicEndpoint>(*executor_, *socket_, entropy_);
  if (verbose_) endpoint_->set_log([this](const std::string& line) { note(line); });
  endpoint_->listen(identity_, implemented_alpns());
  return start_ws(config);
}

Status RelayServer::start_ws(const RelayServerConfig& config) {
  if (config.ws_listen.empty()) return {};
  // A port must be given: a WebSocket address without one has no default worth guessing here.
  const std::string& at_text = config.ws_listen;
  const size_t bracket = at_text.rfind(']');
  const size_t colon = at_text.rfind(':');
  if (colon == std::string::npos || (bracket != std::string::npos && colon < bracket))
    return Error{0, "--ws '" + at_text + "': give HOST:PORT (port 0 picks a free one)"};
  Result<q::Address> at = q::Address::parse(at_text, 0);
  if (!at) return Error{0, "--ws: " + at.error().message};
  sim::ws::WsCarrierSettings settings;
  settings.alpns = implemented_alpns();  // the server's preference: version order
  if (config.test_ws_window > 0) {
    settings.qmux.stream_window = config.test_ws_window;
    settings.qmux.conn_window = config.test_ws_window;
  }
  Result<std::unique_ptr<sim::ws::WsListener>> l = sim::ws::WsListener::listen(
      *executor_, *loop_, *at, settings, [this](const std::string& line) { note(line); });
  if (!l) return Error{0, "--ws: " + l.error().message};
  ws_ = std::move(*l);
  return {};
}

void RelayServer::serve_ws() {
  while (std::unique_ptr<sim::ws::WsCarrier> c = ws_->accept()) {
    const std::string who = c->peer().to_string() + " (WebSocket " + c->subprotocol() + ")";
    Connection& conn = *c->connection();
    std::unique_ptr<DroppingConnection> dropping;
    if (drop_every_ > 0) dropping = std::make_unique<DroppingConnection>(conn, drop_every_);
    Result<session::Session*> s = dropping ? relay_.add(*dropping) : relay_.add(conn);
    if (!s) {
      note("refused a session from " + who + ": " + s.error().message);
      conn.close(0, "relay: " + s.error().message);
      ws_->retire(std::move(c));
      continue;
    }
    ++served_;
    note("session from " + who + " opened");
    ws_clients_.push_back({std::move(c), std::move(dropping), *s});
  }
  for (auto it = ws_clients_.begin(); it != ws_clients_.end();) {
    const std::optional<Error>& closed = it->carrier->connection()->close_error();
    if (!closed) {
      ++it;
      continue;
    }
    // A peer's APPLICATION_CLOSE may carry no reason (the JavaScript peer's own close): its code
    // is then all there is to say.
    note("session from " + it->carrier->peer().to_string() + " (WebSocket) closed: " +
         (closed->message.empty() ? "code " + std::to_string(closed->code) + ", no reason"
                                  : closed->message));
    relay_.remove(*it->session);
    it->dropping.reset();
    ws_->retire(std::move(it->carrier));
    it = ws_clients_.erase(it);
  }
}

void RelayServer::serve() {
  while (std::unique_ptr<q::QuicConnection> conn = endpoint_->accept()) {
    const std::string who = conn->remote().to_string() + " (" + std::string(conn->alpn()) + ")";
    std::unique_ptr<DroppingConnection> dropping;
    if (drop_every_ > 0) dropping = std::make_unique<DroppingConnection>(*conn, drop_every_);
    Result<session::Session*> s = dropping ? relay_.add(*dropping) : relay_.add(*conn);
    if (!s) {
      note("refused a session from " + who + ": " + s.error().message);
      conn->close(0, "relay: " + s.error().message);
      continue;
    }
    ++served_;
    note("session from " + who + " opened");
    clients_.push_back({std::move(conn), std::move(dropping), *s});
  }
  for (auto it = clients_.begin(); it != clients_.end();) {
    if (!it->conn->close_error()) {
      ++it;
      continue;
    }
    note("session from " + it->conn->remote().to_string() +
         " closed: " + it->conn->close_error()->message);
    relay_.remove(*it->session);
    it = clients_.erase(it);
  }
  if (ws_) serve_ws();
}

void RelayServer::shutdown() {
  // Each close sends its CONNECTION_CLOSE at once; the peers need no more from us.
  for (Client& c : clients_)
    c.conn->close(0, "relay shutting down");
  for (WsClient& c : ws_clients_)
    c.carrier->connection()->close(0, "relay shutting down");
  executor_->run_until_idle();
  serve();
  // A WebSocket close is a handshake over TCP: wait briefly for the peers' answers, so that TCP
  // closes after them rather than resetting what they still send.
  if (ws_)
    (void)loop_->run_until([this] { return ws_->lingering() == 0; }, 1'000'000'000,
                           "closing the WebSocket connections");
}

}  // namespace moq::cli
