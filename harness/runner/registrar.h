// Scenarios register themselves, as google/benchmark's BENCHMARK macro does: a scenario file
// defines a function returning its ScenarioDef and names it in MOQ_REGISTER_SCENARIO, which adds
// it to a process-wide list during static initialisation. Adding a scenario is then one .cpp file
// plus its line in scenarios/CMakeLists.txt, with no hand-kept list to update.
//
//   harness::ScenarioDef fetch_frames_scenario() { harness::ScenarioDef def; ...; return def; }
//   MOQ_REGISTER_SCENARIO(fetch_frames_scenario);
//
// The protocol versions the scenarios take come from the one file that knows them
// (scenarios/versions.cpp), registered the same way with MOQ_REGISTER_VERSIONS.
//
// A linker drops an object file of a static archive that nothing refers to, registrar and all,
// so the scenarios library is an OBJECT library: every one of its object files is linked into
// each binary that links it (tests/harness checks that `moqbench list` shows every registrar).
#pragma once

#include <string>
#include <vector>

#include "harness/runner/scenario.h"
#include "model/base/result.h"

namespace moq::harness {

using ScenarioFactory = ScenarioDef (*)();

struct VersionLists {
  std::vector<std::string> implemented;  // in sweep order
  std::vector<std::string> known;        // every version name the project knows
  // Implemented, but run only when named (model/wire/version.h: VersionInfo::interop_only).
  std::vector<std::string> interop_only;
};
using VersionsFactory = VersionLists (*)();

// Constructed by the macros below; each adds its factory to the process-wide list.
class ScenarioRegistrar {
 public:
  explicit ScenarioRegistrar(ScenarioFactory factory);
};
class VersionsRegistrar {
 public:
  explicit VersionsRegistrar(VersionsFactory factory);
};

// How many MOQ_REGISTER_SCENARIO lines are linked into this binary.
size_t registered_scenario_count();

// The ScenarioDef of the registered scenario `name`, or an Error listing the registered ones
// (for tests that build a registry of fakes plus a few real scenarios).
Result<ScenarioDef> registered_scenario(std::string_view name);

// Fills `registry` with the registered versions and every registered scenario, in name order
// (static initialisation follows link order, which the registry's order should not). An Error
// names a malformed or duplicate scenario, or more than one version list.
Status register_linked_scenarios(ScenarioRegistry& registry);

}  // namespace moq::harness

#define MOQ_REGISTRAR_CONCAT_(a, b) a##b
#define MOQ_REGISTRAR_CONCAT(a, b) MOQ_REGISTRAR_CONCAT_(a, b)

// At namespace scope in a scenario's .cpp file: `factory` is a function `ScenarioDef factory()`.
#define MOQ_REGISTER_SCENARIO(factory)                                                  \
  namespace {                                                                           \
  const ::moq::harness::ScenarioRegistrar MOQ_REGISTRAR_CONCAT(moq_scenario_registrar_, \
                                                               __LINE__){&(factory)};   \
  }                                                                                     \
  static_assert(true, "")

// At namespace scope: `factory` is a function `VersionLists factory()`.
#define MOQ_REGISTER_VERSIONS(factory)                                                  \
  namespace {                                                                           \
  const ::moq::harness::VersionsRegistrar MOQ_REGISTRAR_CONCAT(moq_versions_registrar_, \
                                                               __LINE__){&(factory)};   \
  }                                                                                     \
  static_assert(true, "")
