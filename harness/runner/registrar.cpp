#include "harness/runner/registrar.h"

#include <algorithm>

namespace moq::harness {

namespace {

// Function-local statics: registrars in other files may run before this file's own globals are
// initialised, but never before the first call of these functions.
std::vector<ScenarioFactory>& scenario_factories() {
  static std::vector<ScenarioFactory> factories;
  return factories;
}

std::vector<VersionsFactory>& versions_factories() {
  static std::vector<VersionsFactory> factories;
  return factories;
}

std::vector<ScenarioDef> registered_defs() {
  std::vector<ScenarioDef> defs;
  for (ScenarioFactory factory : scenario_factories())
    defs.push_back(factory());
  std::stable_sort(defs.begin(), defs.end(),
                   [](const ScenarioDef& a, const ScenarioDef& b) { return a.name < b.name; });
  return defs;
}

}  // namespace

ScenarioRegistrar::ScenarioRegistrar(ScenarioFactory factory) {
  scenario_factories().push_back(factory);
}

VersionsRegistrar::VersionsRegistrar(VersionsFactory factory) {
  versions_factories().push_back(factory);
}

size_t registered_scenario_count() {
  return scenario_factories().size();
}

Result<ScenarioDef> registered_scenario(std::string_view name) {
  std::string names;
  for (ScenarioDef& def : registered_defs()) {
    if (def.name == name) return std::move(def);
    names += (names.empty() ? "" : ", ") + def.name;
  }
  return Error{0, "no registered scenario '" + std::string(name) +
                      "' (registered: " + (names.empty() ? "none" : names) + ")"};
}

Status register_linked_scenarios(ScenarioRegistry& registry) {
  const std::vector<VersionsFactory>& versions = versions_factories();
  if (versions.size() > 1)
    return Error{0, std::to_string(versions.size()) +
                        " version lists are registered (MOQ_REGISTER_VERSIONS); one file decides "
                        "the versions"};
  if (!versions.empty()) {
    VersionLists lists = versions.front()();
    registry.set_versions(std::move(lists.implemented), std::move(lists.known),
                          std::move(lists.interop_only));
  }
  for (ScenarioDef& def : registered_defs()) {
    if (Status st = registry.add(std::move(def)); !st) return st;
  }
  return {};
}

}  // namespace moq::harness
