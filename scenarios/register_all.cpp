#include "scenarios/register_all.h"

#include "scenarios/all.h"
#include "scenarios/versions.h"

namespace moq::scenarios {

Status register_all(harness::ScenarioRegistry& registry) {
  registry.set_versions(implemented_versions(), known_versions());
  for (auto reg : {register_fetch_frames, register_fetch_range, register_subscribe_frames,
                   register_group_write_frames, register_empty_round}) {
    if (Status st = reg(registry); !st) return st;
  }
  return {};
}

}  // namespace moq::scenarios
