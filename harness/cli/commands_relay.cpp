// `moqbench relay`: the relay as a QUIC server (and with --ws a WebSocket server) until SIGINT or
// SIGTERM (relay_server.h).
#include <signal.h>

#include <atomic>
#include <csignal>

#include "harness/cli/commands.h"
#include "harness/cli/relay_server.h"
#include "model/async/executor.h"

namespace moq::cli {

namespace {

volatile std::sig_atomic_t g_stop = 0;

void on_stop_signal(int) {
  g_stop = 1;
}

// SIGINT and SIGTERM set the flag; without SA_RESTART the loop's poll() returns at once.
void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace

Action add_relay_command(CLI::App& app, const CliContext& ctx) {
  auto config = std::make_shared<RelayServerConfig>();
  CLI::App* sub = app.add_subcommand(
      "relay", "run the relay as a QUIC server (every implemented version, chosen by ALPN)");
  sub->add_option("--listen", config->listen, "UDP address to listen on (HOST:PORT)")
      ->capture_default_str();
  sub->add_option("--cert", config->cert_file, "certificate, PEM (default: self-signed)");
  sub->add_option("--key", config->key_file, "the certificate's private key, PEM");
  CLI::Option* ws = sub->add_option(
      "--ws", config->ws_listen,
      "also accept WebSocket clients (QMux-00, subprotocol qmux-00.<ALPN>) on this TCP "
      "address (HOST:PORT; port 0 picks a free one)");
  sub->add_flag("-v,--verbose", config->verbose, "a line per session on stderr");
  // Hidden: how `moqbench load` tests a relay that loses frames (drop_connection.h).
  sub->add_option("--test-drop-every", config->test_drop_every,
                  "tests: lose one group in N from every client")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000}))
      ->group("");
  // Hidden: a small QMux window, so that a test's client can exceed it (tests/ws).
  sub->add_option("--test-ws-window", config->test_ws_window,
                  "tests: the QMux windows of WebSocket clients, bytes")
      ->check(CLI::Range(uint64_t{1024}, uint64_t{1} << 30))
      ->group("");
  return [config, ws, &ctx = ctx]() {
    if (ws->count() > 0 && config->ws_listen.empty())
      return bad_input(ctx, "relay", "--ws: an empty address; give HOST:PORT (port 0 picks one)");
    sim::quic::RealClock clock;
    Executor executor(clock);
    sim::quic::UdpLoop loop(executor);
    RelayServer server(executor, loop, ctx.io->err);
    if (Status st = server.start(*config); !st) return bad_input(ctx, "relay", st.error().message);
    g_stop = 0;
    catch_stop_signals();
    std::string ws_banner;
    if (const sim::quic::Address* at = server.ws_address())
      ws_banner = "; WebSocket on " + at->to_string() + " (subprotocols qmux-00.<ALPN>)";
    // One write: a reader polling for the banner must not see half of it.
    ctx.io->err << ("moqbench relay: listening on " + server.address().to_string() + " (ALPN " +
                    join(implemented_alpns()) + "; certificate " +
                    (config->cert_file.empty() ? "self-signed" : config->cert_file) + ")" +
                    ws_banner + "\n")
                << std::flush;
    while (!g_stop) {
      loop.turn(100'000'000);
      server.serve();
    }
    server.shutdown();
    ctx.io->err << "moqbench relay: stopped by signal; " << server.sessions_served()
                << " sessions served\n";
    return kExitOk;
  };
}

}  // namespace moq::cli
