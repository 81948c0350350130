#include "model/session/ietf/ietf_session.h"

#include <string>

#include "model/session/ietf/session_impl.h"

namespace moq::session {

Result<std::unique_ptr<Session>> create_ietf_session(Connection& conn, Version version,
                                                     SessionConfig config) {
  if (!wire::ietf::ietf_version(version))
    return Error{0x15, "create_ietf_session: " + std::string(version_name(version)) +
                           " is not a moq-transport version"};
  if (conn.alpn() != version_alpn(version))
    return Error{0x15, "create_ietf_session: the connection negotiated ALPN '" +
                           std::string(conn.alpn()) + "', not '" +
                           std::string(version_alpn(version)) + "'"};
  if (conn.close_error())
    return Error{transport_error::kConnectionClosed, "create_ietf_session: connection closed"};
  return std::unique_ptr<Session>(new ietf_session::IetfSession(conn, version, std::move(config)));
}

}  // namespace moq::session
