#include "harness/interop/options.h"

#include <CLI/CLI.hpp>
#include <ostream>

#include "model/session/create_session.h"
#include "model/session/session.h"

namespace moq::interop {

std::optional<int> parse_options(int argc, char** argv, ClientOptions& o, std::ostream& out,
                                 std::ostream& err) {
  CLI::App app{
      "moq-test-client: MoQ interop test cases against a relay (the interop runner's client "
      "contract); TAP version 14 on stdout",
      "moq-test-client"};
  app.add_option("-r,--relay", o.relay_url, "relay URL, moqt://HOST:PORT[/PATH] (raw QUIC)")
      ->envname("RELAY_URL");
  app.add_option("-t,--test", o.test, "run only this test case (default: all)")
      ->envname("TESTCASE");
  app.add_flag("-l,--list", o.list, "list the test cases, one id per line");
  app.add_flag("-v,--verbose", o.verbose, "what happens, on stderr")->envname("VERBOSE");
  app.add_flag("--tls-disable-verify", o.tls_disable_verify,
               "accept any certificate from the relay")
      ->envname("TLS_DISABLE_VERIFY");
  app.add_option("--draft", o.draft,
                 "offer only this version: draft-18, draft-22, moq-lite-06, moq-lite-07-wip, or "
                 "any version's name or ALPN (default: every moq-transport draft)")
      ->envname("MOQT_DRAFT");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitPassed;
  } catch (const CLI::ParseError& e) {
    err << "moq-test-client: " << e.what() << "\n";
    return kExitUsage;
  }
  return std::nullopt;
}

Result<std::vector<Version>> offered_versions(const std::string& draft) {
  if (draft.empty()) {
    std::vector<Version> all;
    // An interop-only draft (moq-transport-17) is offered only when named.
    for (Version v : session::implemented_versions())
      if (version_family(v) == Family::Transport && !version_interop_only(v))
        all.insert(all.begin(), v);
    return all;
  }
  // The spellings every moqbench command takes; a version this client does not run stays the
  // runner contract's "unsupported", whichever way it was written.
  if (const std::optional<Version> v = parse_version_spelling(draft))
    return std::vector<Version>{*v};
  std::string known;
  for (Version v : session::implemented_versions())
    known += (known.empty() ? "" : ", ") + draft_label(v);
  return Error{
      uint64_t(kExitUnsupported),
      "MOQT_DRAFT '" + draft + "' is not implemented by this client (it has " + known + ")"};
}

std::string draft_label(Version v) {
  if (version_family(v) == Family::Lite) return std::string(version_name(v));
  const std::string_view alpn = version_alpn(v);  // "moqt-NN"
  return "draft-" + std::string(alpn.substr(alpn.find('-') + 1));
}

Result<RelayUrl> parse_relay_url(const std::string& url) {
  const size_t sep = url.find("://");
  if (sep == std::string::npos)
    return Error{uint64_t(kExitUsage),
                 "relay URL '" + url + "': expected moqt://HOST:PORT (raw QUIC)"};
  const std::string scheme = url.substr(0, sep);
  if (scheme == "https")
    return Error{uint64_t(kExitUnsupported),
                 "relay URL '" + url +
                     "': https:// selects WebTransport, which this client does not speak; use "
                     "moqt://HOST:PORT for raw QUIC"};
  if (scheme != "moqt")
    return Error{uint64_t(kExitUsage),
                 "relay URL '" + url + "': unknown scheme '" + scheme + "' (expected moqt://)"};
  RelayUrl r;
  const std::string rest = url.substr(sep + 3);
  const size_t slash = rest.find_first_of("/?");
  r.authority = rest.substr(0, slash);
  if (slash != std::string::npos) r.path = rest.substr(slash);
  if (!r.path.empty() && r.path[0] == '?') r.path = "/" + r.path;
  std::string port;
  if (!r.authority.empty() && r.authority[0] == '[') {
    const size_t close = r.authority.find(']');
    if (close == std::string::npos)
      return Error{uint64_t(kExitUsage), "relay URL '" + url + "': missing ']'"};
    r.host = r.authority.substr(1, close - 1);
    if (close + 1 < r.authority.size()) {
      if (r.authority[close + 1] != ':')
        return Error{uint64_t(kExitUsage), "relay URL '" + url + "': junk after ']'"};
      port = r.authority.substr(close + 2);
    }
  } else {
    const size_t colon = r.authority.rfind(':');
    r.host = r.authority.substr(0, colon);
    if (colon != std::string::npos) port = r.authority.substr(colon + 1);
  }
  if (r.host.empty()) return Error{uint64_t(kExitUsage), "relay URL '" + url + "': no host"};
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(port) > 65535 || std::stoul(port) == 0)
      return Error{uint64_t(kExitUsage),
                   "relay URL '" + url + "': the port must be a number from 1 to 65535"};
    r.port = static_cast<uint16_t>(std::stoul(port));
  }
  return r;
}

}  // namespace moq::interop
