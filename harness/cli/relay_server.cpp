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
  return {};
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
}

void RelayServer::shutdown() {
  // Each close sends its CONNECTION_CLOSE at once; the peers need no more from us.
  for (Client& c : clients_)
    c.conn->close(0, "relay shutting down");
  executor_->run_until_idle();
  serve();
}

}  // namespace moq::cli
