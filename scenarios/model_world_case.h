// What the session scenarios (fetch_frames, fetch_range, subscribe_frames) share: a ModelWorld in
// which every publisher with viewers writes the same shape of groups each round, and every viewer
// must read, each round, all that its publisher wrote. A scenario adds how its viewers ask for
// those groups (a FETCH per group, a live subscription) and read them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "harness/runner/case.h"
#include "harness/runner/payloads.h"
#include "harness/runner/scenario.h"
#include "model/base/result.h"
#include "scenarios/common_axes.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

// What every publisher with viewers writes in one round.
struct RoundShape {
  uint64_t groups = 1;  // groups per round
  uint64_t frames = 1;  // frames per group
  uint64_t frame_size = 0;
  // Frame timestamps are round * timestamps_per_round + group * frames + frame. moq-lite frame
  // headers carry timestamp deltas, so each scenario keeps the stride its figures were taken with.
  uint64_t timestamps_per_round = 0;
};

class ModelWorldCase : public harness::Case {
 public:
  // What the viewers read this round against what their publishers wrote: all of its groups, in
  // order, for every viewer, combined in viewer order.
  harness::RoundCheck check_round(uint64_t round) override;
  harness::StackCounts stack_counts() const override { return world_.probe().read(); }

 protected:
  ModelWorldCase(ModelWorldConfig config, RoundShape shape)
      : config_(std::move(config)), shape_(shape) {}

  // The common part of setup: the payloads, the world, and delivery logs with room for a round,
  // so that recording allocates nothing in steady state.
  Status build_world();
  // The common part of a measured round: every publisher with viewers appends its groups, writes
  // their frames and finishes them.
  Status write_round(uint64_t round);
  // Relay bench: runs the executor until the round's groups have reached every relay that copies
  // them (over the upstream subscriptions), so that viewers' FETCHes find them there. Nothing on
  // the model bench.
  Status deliver_to_relays();
  // The sequence of the first group `publisher` wrote in the current round.
  uint64_t first_sequence(uint32_t publisher) const { return first_sequences_[publisher]; }

  ModelWorld& world() { return world_; }

 private:
  // Payloads cycle over this many rounds, so consecutive rounds deliver different bytes.
  static constexpr uint64_t kDistinctRounds = 3;
  // Payload indices run round, publisher, group, frame: a frame from the wrong round, publisher
  // or group, or out of order, changes the delivery hash.
  uint64_t first_payload(uint64_t round, uint64_t publisher, uint64_t group) const {
    return (((round % kDistinctRounds) * config_.publishers + publisher) * shape_.groups + group) *
           shape_.frames;
  }

  const ModelWorldConfig config_;
  const RoundShape shape_;
  harness::PayloadSource payloads_;
  std::vector<uint64_t> first_sequences_;  // per publisher
  // Last: destroyed first. A derived case's consumers are destroyed before it, as they must be.
  ModelWorld world_;
};

// The rules of make_world_group_case's axes (the world's, then the group's), for
// ScenarioDef::check_axes.
Status check_world_group_axes(const harness::CaseSpec& spec);

// The factory of a scenario whose case is built from the case's world and group shape:
// CaseT(ModelWorldConfig, GroupShape).
template <class CaseT>
Result<std::unique_ptr<harness::Case>> make_world_group_case(const harness::CaseSpec& spec) {
  Result<ModelWorldConfig> config = model_world_config(spec);
  if (!config) return config.error();
  Result<GroupShape> group = group_shape(spec);
  if (!group) return group.error();
  return std::unique_ptr<harness::Case>(new CaseT(*config, *group));
}

}  // namespace moq::scenarios
