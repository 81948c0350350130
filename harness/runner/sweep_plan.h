// Which cases a sweep runs: scenarios (named, or the default sweep's), benches, and per-axis value
// lists over them.
#pragma once

#include <string>
#include <vector>

#include "harness/runner/case_builder.h"
#include "harness/runner/scenario.h"
#include "model/base/result.h"

namespace moq::harness {

struct SweepRequest {
  std::vector<std::string> scenarios;  // empty: every scenario in the default sweep
  std::vector<std::string> benches;    // empty: every bench each scenario runs on
  // Value lists per axis. Each applies to the selected scenarios that have the axis; one that no
  // selected scenario has is an Error naming its source.
  std::vector<AxisValues> axes;
};

// The cases, scenario by scenario (in request order, or registration order for the default
// sweep), bench by bench, then the grid (expand_grid). An Error names the bad value: an unknown
// scenario or bench, a bench a named scenario does not run on, an axis no selected scenario has,
// a value out of range, an unimplemented version, or a sweep that selects no case.
Result<std::vector<CaseSpec>> plan_sweep(const ScenarioRegistry& registry,
                                         const SweepRequest& request);

}  // namespace moq::harness
