#include "scenarios/memory_costs.h"

#include <algorithm>
#include <string>
#include <vector>

namespace moq::scenarios {

harness::MemoryEstimate world_memory(const harness::CaseSpec& spec, uint64_t frames_per_group,
                                     uint64_t groups_per_round, uint64_t publisher_cached_groups,
                                     uint64_t viewer_cached_groups) {
  std::vector<std::string> axes;
  for (const harness::AxisSpec& a : spec.scenario().axes)
    axes.push_back(a.name);
  const auto viewers = static_cast<uint64_t>(spec.integer("viewers"));
  const auto publishers = static_cast<uint64_t>(spec.integer("publishers"));
  const auto frame_size = static_cast<uint64_t>(spec.integer("frame_size"));
  // Publishers beyond the viewers write nothing (model_world.h).
  const uint64_t writing = std::min(publishers, viewers);
  // The axis that sets the frames in a round: frames per group, or the groups of a burst.
  const bool by_frames = spec.scenario().find_axis("frames") != nullptr;
  const std::pair<std::string, uint64_t> frames_factor =
      by_frames ? std::pair<std::string, uint64_t>{"frames", frames_per_group}
                : std::pair<std::string, uint64_t>{"frames per group", frames_per_group};
  const std::pair<std::string, uint64_t> groups_factor =
      by_frames ? std::pair<std::string, uint64_t>{"groups per round", groups_per_round}
                : std::pair<std::string, uint64_t>{"burst", groups_per_round};

  harness::MemoryEstimate e;
  e.add("the process", kProcessBytes, {});
  e.add("viewers' connections and sessions", kViewerBytes, {{"viewers", viewers}}, axes);
  e.add("frames each viewer holds in a round", kViewerFrameBytes,
        {{"viewers", viewers}, groups_factor, frames_factor}, axes);
  if (viewer_cached_groups > 0) {
    e.add("the viewers' track caches", kCachedFrameBytes,
          {{"viewers", viewers}, {"cached groups", viewer_cached_groups}, frames_factor}, axes);
  }
  e.add("the publishers' track caches", kCachedFrameBytes,
        {{"publishers", writing}, {"cached groups", publisher_cached_groups}, frames_factor}, axes);
  if (spec.bench() == "relay") {
    // Each relay may copy every writing publisher's track; a copy keeps what the publisher's
    // cache keeps, or the viewers' for a subscription (model_world.h), whichever is more.
    const auto relays = static_cast<uint64_t>(spec.integer("relays"));
    e.add("the relays' copies of the tracks", kCachedFrameBytes,
          {{"relays", relays},
           {"publishers", writing},
           {"cached groups", std::max(publisher_cached_groups, viewer_cached_groups)},
           frames_factor},
          axes);
    e.add("the relays' sessions", kViewerBytes,
          {{"relays", relays}, {"sessions", relays + writing}}, axes);
  }
  // The payload block: frame_size plus 8 bytes per distinct payload, made twice over at setup
  // (harness/runner/payloads.cpp).
  const uint64_t distinct = 3 * publishers * groups_per_round * frames_per_group;
  e.add("the payload block", 1, {{"copies", 2}, {"bytes", frame_size + 8 * distinct}});
  return e;
}

}  // namespace moq::scenarios
