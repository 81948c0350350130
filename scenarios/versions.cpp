#include "scenarios/versions.h"

#include "model/session/session.h"

namespace moq::scenarios {

std::vector<std::string> implemented_versions() {
  std::vector<std::string> names;
  for (session::Version v : session::implemented_versions())
    names.emplace_back(session::version_name(v));
  return names;
}

std::vector<std::string> known_versions() {
  std::vector<std::string> names;
  for (const session::VersionInfo& v : session::kVersions)
    names.emplace_back(v.name);
  return names;
}

}  // namespace moq::scenarios
