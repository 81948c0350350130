// The memory estimates of the scenarios (harness/runner/memory_estimate.h): what their state costs
// per unit, and the estimate of a session-scenario case from its axes.
//
// The costs are the growth of the peak RSS of the Release moqbench (`moqbench run <case>
// --counter none --rounds 1 --warmup 0`, and 10 rounds) between cases differing in one axis,
// given a margin of about 1.3x so that the estimate stays above what a case uses (the
// uninstrumented moqbench_binary_test checks that on two cases):
//   - a frame in flight to one viewer in a round (its fetch or group buffer, the transport's queued
//     chunk references, the delivery log's record): 160 to 250 B measured over fetch_frames with
//     viewers 16..64 and frames 16384..65536, on moq-lite-06, -07-wip and moq-transport-18, -22;
//   - a frame held in a track cache: about 60 B (subscribe_frames, the viewers' 16-group caches);
//   - a viewer without frames (its connection pair and two sessions): under 1 KiB (viewers=256,
//     frames=4).
// Payloads are slices of one block per case (harness/runner/payloads.h) that the transport passes
// by reference, so frame_size adds one block's worth, not frames x frame_size per viewer: a case
// with frame_size 4096 measured no larger than the same case with 64.
#pragma once

#include <cstdint>

#include "harness/runner/memory_estimate.h"
#include "harness/runner/scenario.h"

namespace moq::scenarios {

inline constexpr uint64_t kViewerFrameBytes = 320;
inline constexpr uint64_t kCachedFrameBytes = 80;
inline constexpr uint64_t kViewerBytes = 16 << 10;
inline constexpr uint64_t kProcessBytes = 32 << 20;  // code, allocator arenas, stacks

// What a session-scenario case holds at its peak, per round: each viewer `frames_per_viewer`
// frames in flight and `viewer_cached_groups` groups of `frames_per_group` in its own track cache;
// each publisher with viewers `publisher_cached_groups` such groups in its cache; the payload
// block. Reads the publishers, viewers and frame_size axes of the case.
harness::MemoryEstimate world_memory(const harness::CaseSpec& spec, uint64_t frames_per_group,
                                     uint64_t groups_per_round, uint64_t publisher_cached_groups,
                                     uint64_t viewer_cached_groups);

}  // namespace moq::scenarios
