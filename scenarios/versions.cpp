// The protocol versions the scenarios run, in sweep order, and every version name the project
// knows. This is the one place that decides them: it follows the session layer's own registry
// (model/session/session.h: kVersions; create_session.h: implemented_versions()), and registers
// them with the harness as the scenarios register themselves (harness/runner/registrar.h).
#include "harness/runner/registrar.h"
#include "model/session/create_session.h"
#include "model/session/session.h"

namespace moq::scenarios {

namespace {

harness::VersionLists session_versions() {
  harness::VersionLists lists;
  for (session::Version v : session::implemented_versions()) {
    lists.implemented.emplace_back(session::version_name(v));
    if (version_interop_only(v)) lists.interop_only.emplace_back(session::version_name(v));
  }
  for (const session::VersionInfo& v : session::kVersions)
    lists.known.emplace_back(v.name);
  return lists;
}

}  // namespace

MOQ_REGISTER_VERSIONS(session_versions);

}  // namespace moq::scenarios
