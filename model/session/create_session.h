// Where a session comes from: create_session() picks the engine of the version's family
// (model/session/lite or model/session/ietf). It stands in its own file, above both engines,
// so that session.h (the interface the engines implement) includes no engine and the engines
// include nothing that includes them back.
#pragma once

#include <memory>
#include <span>

#include "model/base/result.h"
#include "model/session/session.h"
#include "model/transport.h"

namespace moq::session {

// The versions create_session() can run, in kVersions order: every registered version, as
// there is an engine for each family.
std::span<const Version> implemented_versions();

// Creates the session for `version` over conn, as client or server by conn.is_client(). The
// connection's negotiated ALPN must be version_alpn(version) (Error with
// VERSION_NEGOTIATION_FAILED 0x15 otherwise).
Result<std::unique_ptr<Session>> create_session(Connection& conn, Version version,
                                                SessionConfig config = {});
// Same, with the version chosen by the connection's ALPN.
Result<std::unique_ptr<Session>> create_session(Connection& conn, SessionConfig config = {});

}  // namespace moq::session
