#include "harness/cli/dial.h"

#include <cmath>
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/cli/load.h"
#include "model/session/create_session.h"

namespace moq::cli {

namespace {

namespace q = sim::quic;

// The longest --timeout: a day, as `moqbench load --duration`.
constexpr double kMaxTimeout_s = 86'400;

// Every implemented version when none is given, the newest of each family first (the relay takes
// the first it speaks); the interop-only ones come last, as they are kept for one peer's sake.
std::vector<Version> default_offer() {
  std::vector<Version> offer;
  for (bool interop_only : {false, true})
    for (Version v : session::implemented_versions())
      if (version_interop_only(v) == interop_only)
        offer.insert(offer.begin() + static_cast<std::ptrdiff_t>(interop_only ? offer.size() : 0),
                     v);
  return offer;
}

Result<std::vector<Version>> offered(const std::vector<std::string>& given) {
  if (given.empty()) return default_offer();
  std::vector<Version> offer;
  for (const std::string& text : given) {
    const std::optional<Version> v = parse_version_spelling(text);
    if (!v) {
      std::vector<std::string> names;
      for (Version i : session::implemented_versions())
        names.emplace_back(version_name(i));
      return Error{0, "--version '" + text + "' names no implemented version (" + join(names) +
                          "; each also by its ALPN, moq-transport by draft-N)"};
    }
    bool twice = false;
    for (Version o : offer)
      twice = twice || o == *v;
    if (twice) return Error{0, "--version " + std::string(version_name(*v)) + " is given twice"};
    offer.push_back(*v);
  }
  return offer;
}

}  // namespace

void add_dial_options(CLI::App& sub, DialOptions& o) {
  sub.add_option("URL", o.url,
                 "the relay: moqt://HOST[:PORT][/PATH] (raw QUIC, port 443 by default) or "
                 "ws://HOST:PORT/PATH (QMux-00 over WebSocket)")
      ->required();
  sub.add_option("--version", o.versions,
                 "version(s) to offer, preferred first: a name, an ALPN or draft-N; repeat it or "
                 "give a comma list (default: every implemented version, newest first)")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub.add_flag("--tls-disable-verify", o.tls_disable_verify,
               "moqt://: accept any certificate from the relay (a self-signed test relay)");
  sub.add_option("--ca-file", o.ca_file,
                 "moqt://: trust the certificates in this PEM file only (default: the system's "
                 "store)");
  sub.add_option("--timeout", o.timeout_s,
                 "seconds every wait may take (connecting, the peer, the data)")
      ->capture_default_str();
}

Result<std::unique_ptr<Dial>> Dial::create(const DialOptions& o) {
  std::unique_ptr<Dial> d(new Dial());
  d->url_text_ = o.url;
  d->ws_ = o.url.starts_with("ws://") || o.url.starts_with("wss://");
  if (d->ws_) {
    if (Result<sim::ws::WsUrl> url = sim::ws::parse_ws_url(o.url); !url) return url.error();
  } else {
    Result<interop::RelayUrl> url = interop::parse_relay_url(o.url);
    if (!url)
      return Error{0, url.error().message + " (or ws://HOST:PORT/PATH for QMux over WebSocket)"};
    d->url_ = *url;
  }
  Result<std::vector<Version>> offer = offered(o.versions);
  if (!offer) return offer.error();
  d->offer_ = *offer;
  if (!(o.timeout_s > 0 && o.timeout_s <= kMaxTimeout_s))  // NaN fails both
    return Error{0, "--timeout must be more than 0 and at most " +
                        std::to_string(static_cast<int>(kMaxTimeout_s)) + " seconds"};
  d->timeout_ns_ = static_cast<uint64_t>(std::llround(o.timeout_s * 1e9));
  char text[64];
  std::snprintf(text, sizeof text, "--timeout %g s", o.timeout_s);
  d->timeout_text_ = text;
  if (o.tls_disable_verify && !o.ca_file.empty())
    return Error{0, "--tls-disable-verify and --ca-file contradict each other: choose one"};
  Result<std::shared_ptr<q::TlsTrust>> trust = o.tls_disable_verify ? q::TlsTrust::anything()
                                               : o.ca_file.empty()  ? q::TlsTrust::system()
                                                                    : trust_of_ca_file(o.ca_file);
  if (!trust) return trust.error();
  if (d->ws_) {
    d->ws_world_ = std::make_unique<WsWorld>();
    d->clock_ = &d->ws_world_->clock;
    d->executor_ = &d->ws_world_->executor;
    d->loop_ = &d->ws_world_->loop;
    return d;
  }
  Result<std::unique_ptr<interop::Dialer>> dialer =
      interop::Dialer::create(d->url_, d->offer_, std::move(*trust), nullptr);
  if (!dialer) return Error{0, "relay URL '" + o.url + "': " + dialer.error().message};
  d->dialer_ = std::move(*dialer);
  d->dialer_->set_time_limit_name(d->timeout_text_);
  d->clock_ = &d->dialer_->clock();
  d->executor_ = &d->dialer_->executor();
  d->loop_ = &d->dialer_->loop();
  return d;
}

Dial::~Dial() {
  session_.reset();
  quic_.reset();
  ws_client_.reset();
}

uint64_t Dial::deadline() const {
  return now_ns() + timeout_ns_;
}

Status Dial::open(const std::string& who, session::SessionConfig config) {
  if (ws_) {
    std::vector<std::string> alpns;
    for (Version v : offer_)
      alpns.emplace_back(version_alpn(v));
    Result<std::unique_ptr<sim::ws::WsClient>> c =
        sim::ws::WsClient::connect(*executor_, *loop_, url_text_, alpns, timeout_ns_);
    if (!c) return Error{0, who + ": " + c.error().message};
    ws_client_ = std::move(*c);
    conn_ = &ws_client_->connection();
  } else {
    Result<std::unique_ptr<q::QuicConnection>> conn = dialer_->connect(who, deadline());
    if (!conn) return conn.error();
    quic_ = std::move(*conn);
    conn_ = quic_.get();
    if (!url_.path.empty() && config.path.empty()) config.path = url_.path;
  }
  const std::optional<Version> v = version_from_alpn(conn_->alpn());
  if (!v)
    return Error{0, who + ": the relay chose ALPN '" + std::string(conn_->alpn()) +
                        "', which names no version"};
  version_ = *v;
  Result<std::unique_ptr<session::Session>> s =
      session::create_session(*conn_, version_, std::move(config));
  if (!s) return Error{0, who + ": " + s.error().message};
  session_ = std::move(*s);
  return {};
}

std::string Dial::describe() const {
  return url_text_ + (conn_ ? " (" + std::string(version_name(version_)) + ")" : std::string());
}

std::string Dial::why_closed() const {
  const std::optional<Error>& e = session_->error();
  std::string why = "the session closed";
  if (e) {
    why += ": " + e->message;
    if (e->code != 0) why += " (code " + std::to_string(e->code) + ")";
  }
  return why;
}

bool Dial::delivered() const {
  if (ws_client_) return !ws_client_->qmux().has_output() && !ws_client_->finished();
  return quic_ && !quic_->has_unsent() && !quic_->has_unacked();
}

void Dial::close(std::string_view reason) {
  if (!session_ || session_->is_closed()) return;
  session_->close(0, reason);
  if (ws_client_) {
    // The close frame and the WebSocket close follow the data on the one TCP stream; the carrier
    // closes TCP when the peer answers the close, or after its linger time.
    (void)loop_->run_until([&] { return ws_client_->finished(); }, timeout_ns_, "closing");
    return;
  }
  // The connection sends its CONNECTION_CLOSE at once and answers the relay with it by itself
  // afterwards; the turn runs what the close woke (the session's tasks ending).
  (void)loop_->run_until([] { return true; }, 0, "closing");
}

}  // namespace moq::cli
