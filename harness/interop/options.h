// moq-test-client's settings: the MoQ interop runner's client contract (command line, and the same
// settings from the environment, which fill what the command line leaves out), the relay URL and
// the versions to offer.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "model/base/result.h"
#include "model/wire/version.h"

namespace moq::interop {

// Exit codes of the contract.
inline constexpr int kExitPassed = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;          // ours: the arguments were wrong
inline constexpr int kExitUnsupported = 127;  // unknown test, or a role/transport not supported

struct ClientOptions {
  std::string relay_url;            // -r/--relay, RELAY_URL
  std::string test;                 // -t/--test, TESTCASE; empty: every test
  bool list = false;                // -l/--list
  bool verbose = false;             // -v/--verbose, VERBOSE=1
  bool tls_disable_verify = false;  // --tls-disable-verify, TLS_DISABLE_VERIFY=1
  std::string draft;                // --draft, MOQT_DRAFT: offer only this version
};

// Parses argv; an option the command line does not give is taken from its environment variable.
// Returns the exit code when the program should stop here (--help: 0, bad arguments: 2, with
// the message written to out or err).
std::optional<int> parse_options(int argc, char** argv, ClientOptions& options, std::ostream& out,
                                 std::ostream& err);

// The versions to offer by ALPN, preferred first. No draft: every implemented moq-transport
// draft, newest first (the interop runners are moq-transport only). A draft names one version:
// "draft-18" / "draft-22" as the runners write it, or an ALPN ("moqt-22", "moq-lite-06") or a
// version name ("moq-transport-18"): parse_version_spelling, as every moqbench command reads a
// version. Error (exit 127) for a draft this client does not implement.
Result<std::vector<Version>> offered_versions(const std::string& draft);
// How the runners name a version in "# Draft:" ("draft-18"), or its moqbench name for moq-lite.
std::string draft_label(Version v);

// A relay URL. moqt://HOST[:PORT][/PATH] is raw QUIC (port 443 by default); https:// would be
// WebTransport, which this client does not speak (Error, exit 127).
struct RelayUrl {
  std::string host;  // without brackets for IPv6
  uint16_t port = 443;
  std::string authority;  // HOST[:PORT] as written: the SETUP AUTHORITY option
  std::string path;       // "/..." with the query, or empty: the SETUP PATH option
};
Result<RelayUrl> parse_relay_url(const std::string& url);

}  // namespace moq::interop
