// moq-transport draft-18 / draft-22 sessions (ALPN "moqt-18" / "moqt-22") behind the
// version-agnostic session::Session interface. session::create_session() dispatches here for
// Version::Transport18 and Version::Transport22. README.md in this folder describes the mapping.
#pragma once

#include <memory>

#include "model/base/result.h"
#include "model/session/session.h"
#include "model/transport.h"

namespace moq::session {

// version must be Transport18 or Transport22 and match conn's negotiated ALPN ("moqt-18",
// "moqt-22"); otherwise an Error (VERSION_NEGOTIATION_FAILED 0x15 for an ALPN mismatch).
Result<std::unique_ptr<Session>> create_ietf_session(Connection& conn, Version version,
                                                     SessionConfig config);

}  // namespace moq::session
