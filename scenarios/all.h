// The registration function of each scenario (one per file), called by register_all().
#pragma once

#include "harness/runner/scenario.h"
#include "model/base/result.h"

namespace moq::scenarios {

Status register_empty_round(harness::ScenarioRegistry& registry);
Status register_group_write_frames(harness::ScenarioRegistry& registry);
Status register_fetch_frames(harness::ScenarioRegistry& registry);
Status register_fetch_range(harness::ScenarioRegistry& registry);
Status register_subscribe_frames(harness::ScenarioRegistry& registry);

}  // namespace moq::scenarios
