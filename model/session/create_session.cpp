#include "model/session/create_session.h"

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

Result<std::unique_ptr<Session>> create_session(Connection& conn, Version version,
                                                SessionConfig config) {
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
