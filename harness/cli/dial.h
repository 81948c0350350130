// How `moqbench publish` and `moqbench subscribe` reach a relay: the URL and the options that go
// with it (the versions offered, TLS trust, the time limit of every wait), then one connection
// and its MoQ session on an event loop on the real clock. moqt://HOST[:PORT][/PATH] is raw QUIC,
// read and dialled as moq-test-client does it (harness/interop: parse_relay_url, Dialer);
// ws://HOST:PORT/PATH is QMux-00 over WebSocket (sim/ws: WsClient), each version offered as the
// subprotocol qmux-00.<alpn>.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/cli/stop_signals.h"
#include "harness/interop/dialer.h"
#include "model/base/result.h"
#include "model/session/session.h"
#include "sim/ws/ws_client.h"

namespace moq::cli {

struct DialOptions {
  std::string url;
  std::vector<std::string> versions;  // --version, each a name, an ALPN or draft-N
  bool tls_disable_verify = false;
  std::string ca_file;
  double timeout_s = 30;  // every wait: connecting, the peer, the data
};

// The URL (the first positional argument) and the options above, on a subcommand.
void add_dial_options(CLI::App& sub, DialOptions& options);

class Dial {
 public:
  // Reads and checks the options: an Error names the one that is wrong (the command's exit 2).
  static Result<std::unique_ptr<Dial>> create(const DialOptions& options);
  ~Dial();
  Dial(const Dial&) = delete;
  Dial& operator=(const Dial&) = delete;

  // Connects to the relay and starts the session on the version it chose; config says what this
  // end publishes. An Error says why not: nothing listening, a refused handshake (an untrusted
  // certificate names the options that trust it), no version in common, the time limit.
  Status open(const std::string& who, session::SessionConfig config);
  session::Session& session() { return *session_; }
  Version version() const { return version_; }
  // "moqt://127.0.0.1:4443 (moq-transport-22)": where the session runs, for messages.
  std::string describe() const;

  Clock& clock() { return *clock_; }
  uint64_t now_ns() const { return clock_->now_ns(); }
  // The deadline of a wait that starts now (--timeout).
  uint64_t deadline() const;
  const std::string& timeout_text() const { return timeout_text_; }

  // Runs the loop until done() holds (ok), or fails: the deadline passed ("what: nothing after
  // --timeout N s"), a stop signal arrived (interrupted() then holds), or the session closed
  // (its reason).
  template <class Pred>
  Status wait(Pred&& done, uint64_t deadline_ns, const std::string& what);
  bool interrupted() const { return StopSignals::received() != 0; }

  // Everything this end wrote was handed to the transport and, as far as it can tell, delivered:
  // QUIC: no stream data unsent and no packet unacknowledged; WebSocket: no QMux frame left in
  // the connection (TCP delivers in order what the carrier took, the close after it).
  bool delivered() const;
  // Closes the session cleanly (code 0) and runs the loop until the close has left (WebSocket:
  // until the close handshake ended, so everything before it reached the peer).
  void close(std::string_view reason);

 private:
  Dial() = default;
  std::string why_closed() const;

  interop::RelayUrl url_;
  std::string url_text_;
  std::vector<Version> offer_;
  uint64_t timeout_ns_ = 0;
  std::string timeout_text_;
  Version version_{};
  // The loop: the Dialer's (moqt://) or the WebSocket world's own (ws://).
  struct WsWorld {
    sim::quic::RealClock clock;
    Executor executor{clock};
    sim::quic::UdpLoop loop{executor};
  };
  bool ws_ = false;
  std::unique_ptr<interop::Dialer> dialer_;
  std::unique_ptr<WsWorld> ws_world_;
  Clock* clock_ = nullptr;
  Executor* executor_ = nullptr;
  sim::quic::UdpLoop* loop_ = nullptr;
  std::unique_ptr<sim::quic::QuicConnection> quic_;
  std::unique_ptr<sim::ws::WsClient> ws_client_;
  Connection* conn_ = nullptr;
  std::unique_ptr<session::Session> session_;  // before the connection: declared after it
};

template <class Pred>
Status Dial::wait(Pred&& done, uint64_t deadline_ns, const std::string& what) {
  bool ok = false;
  auto check = [&] {
    ok = done();
    return ok || interrupted() || !session_ || session_->is_closed();
  };
  const uint64_t now = now_ns();
  Status st = loop_->run_until(check, deadline_ns > now ? deadline_ns - now : 0, what.c_str());
  if (ok) return {};
  if (interrupted())
    return Error{0, what + ": interrupted by signal " + std::to_string(StopSignals::received())};
  if (session_ && session_->is_closed()) return Error{0, what + ": " + why_closed()};
  return Error{0, what + ": not done within " + timeout_text_};
}

}  // namespace moq::cli
