#include "scenarios/common_axes.h"

#include <string>

#include "model/data/group.h"

namespace moq::scenarios {

harness::AxisSpec relays_axis() {
  harness::AxisSpec axis = harness::AxisSpec::integer(
      "relays", "relays in a full mesh; viewer i joins relay (i + 1) mod relays", 1, 1, 16, {1, 2});
  axis.benches = {"relay"};
  return axis;
}

harness::AxisSpec publishers_axis() {
  return harness::AxisSpec::integer("publishers", "publishers (each with its own origin)", 1, 1, 64,
                                    {1, 4});
}

harness::AxisSpec viewers_axis() {
  return harness::AxisSpec::integer("viewers", "viewers, each with its own connection", 1, 1, 1024,
                                    {1, 16});
}

harness::AxisSpec frames_axis() {
  return harness::AxisSpec::integer("frames", "frames per group", 256, 1, 1 << 16, {4, 256});
}

harness::AxisSpec frame_size_axis() {
  harness::AxisSpec axis =
      harness::AxisSpec::integer("frame_size", "payload bytes per frame", 64, 0, 1 << 20);
  axis.id_when_default = false;
  return axis;
}

Result<GroupShape> group_shape(const harness::CaseSpec& spec) {
  GroupShape shape;
  shape.frames = static_cast<uint64_t>(spec.integer("frames"));
  shape.frame_size = static_cast<uint64_t>(spec.integer("frame_size"));
  const uint64_t bytes = shape.frames * shape.frame_size;
  if (bytes > kMaxGroupBytes)
    return Error{0, "frames=" + std::to_string(shape.frames) +
                        " x frame_size=" + std::to_string(shape.frame_size) + " = " +
                        std::to_string(bytes) + " bytes exceeds the largest group (" +
                        std::to_string(kMaxGroupBytes) + " bytes); lower frames or frame_size"};
  return shape;
}

}  // namespace moq::scenarios
