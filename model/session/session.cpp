#include "model/session/session.h"

#include "model/base/unreachable.h"

#include "model/session/ietf/ietf_session.h"
#include "model/session/lite/lite_session.h"

namespace moq::session {

namespace {
// VERSION_NEGOTIATION_FAILED: the same session code in both families.
constexpr uint64_t kVersionNegotiationFailed = 0x15;

// Every registered version: create_session() has an engine for each family.
constexpr std::array<Version, kVersions.size()> kImplemented = [] {
  std::array<Version, kVersions.size()> out{};
  for (size_t i = 0; i < kVersions.size(); ++i)
    out[i] = kVersions[i].version;
  return out;
}();
}  // namespace

std::span<const Version> implemented_versions() {
  return kImplemented;
}

bool is_implemented(Version v) {
  for (Version i : kImplemented) {
    if (i == v) return true;
  }
  return false;
}

const char* stream_kind_name(StreamKind k) {
  switch (k) {
    case StreamKind::Setup:
      return "setup";
    case StreamKind::Group:
      return "group";
    case StreamKind::Announce:
      return "announce";
    case StreamKind::Subscribe:
      return "subscribe";
    case StreamKind::Fetch:
      return "fetch";
    case StreamKind::Track:
      return "track";
    case StreamKind::Goaway:
      return "goaway";
    case StreamKind::Auth:
      return "auth";
    case StreamKind::Probe:
      return "probe";
    case StreamKind::Unknown:
      return "unknown";
  }
  return "unknown";
}

Result<std::unique_ptr<Session>> create_session(Connection& conn, Version version,
                                                SessionConfig config) {
  if (!is_implemented(version)) {
    return Error{kVersionNegotiationFailed,
                 "create_session: " + std::string(version_name(version)) + " is not implemented"};
  }
  if (conn.alpn() != version_alpn(version)) {
    return Error{kVersionNegotiationFailed, "create_session: the connection negotiated ALPN '" +
                                                std::string(conn.alpn()) + "', not '" +
                                                std::string(version_alpn(version)) + "' (" +
                                                std::string(version_name(version)) + ")"};
  }
  switch (version_family(version)) {
    case Family::Lite:
      return lite::create_lite_session(conn, version, std::move(config));
    case Family::Transport:
      return ietf::create_ietf_session(conn, version, std::move(config));
  }
  unreachable();
}

Result<std::unique_ptr<Session>> create_session(Connection& conn, SessionConfig config) {
  std::optional<Version> v = version_from_alpn(conn.alpn());
  if (!v) {
    return Error{kVersionNegotiationFailed,
                 "create_session: ALPN '" + std::string(conn.alpn()) + "' names no MoQ version"};
  }
  return create_session(conn, *v, std::move(config));
}

}  // namespace moq::session
