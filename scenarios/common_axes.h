// The axes several scenarios share, built in one place so that a setting has the same name, help,
// range and default-sweep values in every scenario that has it (case ids and `moqbench list` then
// read alike across scenarios), and the reading of the frames / frame_size pair they all check.
#pragma once

#include <cstdint>

#include "harness/runner/scenario.h"
#include "model/base/result.h"
#include "scenarios/world_net.h"

namespace moq::scenarios {

// The relay bench's relays (a full mesh), on that bench only; it follows the version axis.
harness::AxisSpec relays_axis();
harness::AxisSpec publishers_axis();  // publishers, each with its own origin
harness::AxisSpec viewers_axis();     // viewers, each with its own connection
harness::AxisSpec frames_axis();      // frames per group
// Payload bytes per frame. Named in the case id only when not the default, so that it could be
// added without renaming the cases measured before it existed; keep it the last axis.
harness::AxisSpec frame_size_axis();

// A case's group: `frames` frames of `frame_size` bytes each.
struct GroupShape {
  uint64_t frames = 0;
  uint64_t frame_size = 0;
};

// Reads the frames and frame_size axes of a case; an Error when such a group would exceed the
// data model's largest group (model/data: kMaxGroupBytes), which no round could then write.
Result<GroupShape> group_shape(const harness::CaseSpec& spec);

}  // namespace moq::scenarios
