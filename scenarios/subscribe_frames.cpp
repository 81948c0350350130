// subscribe_frames: every viewer holds a live subscription to the track of publisher
// i mod publishers (made at setup). Each round every publisher that has viewers writes one group
// of `frames` frames and finishes it; every subscribed viewer receives it on its group stream and,
// once the executor is idle, reads every frame of it. Warm-up lasts at least until the viewers'
// track caches are full (min_warmup_rounds).
#include <algorithm>
#include <memory>
#include <string>

#include "harness/runner/registrar.h"
#include "scenarios/bench_util.h"
#include "scenarios/common_axes.h"
#include "scenarios/memory_costs.h"
#include "scenarios/model_world_case.h"

namespace moq::scenarios {

namespace {

class SubscribeFrames final : public ModelWorldCase {
 public:
  SubscribeFrames(ModelWorldConfig config, GroupShape group)
      : ModelWorldCase(std::move(config), {1, group.frames, group.frame_size, group.frames}) {}

  Status setup() override {
    if (Status st = build_world(); !st) return st;
    std::vector<ModelViewer>& viewers = world().viewers();
    subscriptions_.resize(viewers.size());
    groups_.resize(viewers.size());
    for (size_t i = 0; i < viewers.size(); ++i) {
      const ModelPublisher& pub = world().publishers()[viewers[i].publisher];
      Result<TrackConsumer> sub = world().as(
          Role::kViewer, [&] { return viewers[i].session->subscribe(pub.path, "video"); });
      if (!sub)
        return Error{0, "viewer " + std::to_string(i) + ": subscribe: " + sub.error().message};
      subscriptions_[i] = std::move(*sub);
    }
    return world().settle("subscribing");
  }

  void prepare_round(uint64_t /*round*/) override {
    world().clear_logs();
    for (GroupConsumer& g : groups_)
      g = GroupConsumer();
  }

  Status run_round(uint64_t round) override {
    if (Status st = write_round(round); !st) return st;
    if (Status st = world().settle("subscribe round"); !st) return st;
    std::vector<ModelViewer>& viewers = world().viewers();
    for (size_t i = 0; i < viewers.size(); ++i) {
      if (Status st = read_new_group(i); !st)
        return Error{0, "viewer " + std::to_string(i) + ": " + st.error().message};
    }
    return {};
  }

  // The viewer's track (made by its session) caches the default CacheLimits::max_groups groups;
  // until that cache is full every round takes a fresh group state instead of a recycled one.
  uint32_t min_warmup_rounds() const override { return CacheLimits{}.max_groups + 2; }

 private:
  // The round's one new group on the viewer's subscription, read to its end; no second group.
  Status read_new_group(size_t i) {
    TrackConsumer& sub = subscriptions_[i];
    switch (sub.next(groups_[i])) {
      case Next::Ready:
        break;
      case Next::Pending:
        return Error{0, "no new group arrived on the subscription"};
      case Next::End:
        return Error{0, "the subscription ended"};
      case Next::Aborted:
        return Error{0, "the subscription aborted: " + sub.error().message};
    }
    if (Status st = read_to_end(groups_[i], world().viewers()[i].log, "the group"); !st) return st;
    GroupConsumer extra;
    if (sub.next(extra) == Next::Ready)
      return Error{0, "a second group (sequence " + std::to_string(extra.sequence()) +
                          ") arrived in one round"};
    return {};
  }

  std::vector<TrackConsumer> subscriptions_;  // per viewer; dropped before the world
  std::vector<GroupConsumer> groups_;         // per viewer: the group read this round
};

harness::ScenarioDef subscribe_frames_scenario() {
  harness::ScenarioDef def;
  def.name = "subscribe_frames";
  def.benches = {"model", "relay"};
  def.summary =
      "viewers hold live subscriptions; each round every publisher with viewers writes one group "
      "of `frames` frames and every subscribed viewer receives and reads it";
  def.axes = with_network_axes({harness::AxisSpec::version(), relays_axis(), publishers_axis(),
                                viewers_axis(), frames_axis(), frame_size_axis()});
  def.make = make_world_group_case<SubscribeFrames>;
  def.check_axes = check_world_group_axes;
  // Each viewer's track (made by its session) caches up to CacheLimits' groups, fewer when they
  // would pass its payload bytes; each viewer holds the round's group besides.
  def.estimate_memory = [](const harness::CaseSpec& spec) {
    const auto frames = static_cast<uint64_t>(spec.integer("frames"));
    const uint64_t group_bytes = frames * static_cast<uint64_t>(spec.integer("frame_size"));
    const CacheLimits limits;
    uint64_t cached = limits.max_groups;
    if (group_bytes > 0) cached = std::clamp<uint64_t>(limits.max_bytes / group_bytes, 1, cached);
    return world_memory(spec, frames, 1, 1, cached);
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(subscribe_frames_scenario);

}  // namespace moq::scenarios
