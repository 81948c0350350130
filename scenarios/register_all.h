// Fills a registry with every scenario of this folder and the implemented protocol versions.
// Binaries (moqbench, moqbench_gbench, tests) call it; the harness itself never links scenarios.
//
// Adding a scenario: write scenarios/<name>.cpp defining `void register_<name>(ScenarioRegistry&)`
// (declare it in scenarios/all.h), call it from register_all(), add the file to CMakeLists.txt.
#pragma once

#include "harness/runner/scenario.h"
#include "model/base/result.h"

namespace moq::scenarios {

// An Error only for a malformed scenario definition (a programming error).
Status register_all(harness::ScenarioRegistry& registry);

}  // namespace moq::scenarios
