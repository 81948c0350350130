// The protocol versions the scenarios run, in sweep order, and every version name the project
// knows. This is the one place that decides them: it follows the session layer's own registry
// (model/session/session.h: kVersions, implemented_versions()).
#pragma once

#include <string>
#include <vector>

namespace moq::scenarios {

std::vector<std::string> implemented_versions();
std::vector<std::string> known_versions();

}  // namespace moq::scenarios
