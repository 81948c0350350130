#include "scenarios/versions.h"

#include "model/session/session.h"

namespace moq::scenarios {

std::vector<std::string> implemented_versions() {
  // Until the session engines are built, no version can run. Switch to the session layer's list
  // (session::implemented_versions()) once model/session links.
  return {};
}

std::vector<std::string> known_versions() {
  std::vector<std::string> names;
  for (const session::VersionInfo& v : session::kVersions)
    names.emplace_back(v.name);
  return names;
}

}  // namespace moq::scenarios
