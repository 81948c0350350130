// fetch_frames: each round every publisher that has viewers writes one new group of `frames`
// frames (`frame_size` bytes each) and finishes it; viewer i FETCHes that group from publisher
// i mod publishers and, once the executor is idle, reads every frame. The default sweep.
// Relay bench: the relays hold one lingering upstream subscription per track (set up once,
// ModelWorld::hold_upstream_subscriptions); each round the group reaches them over it, then the
// viewers FETCH it from their relay's copy.
#include <memory>
#include <string>

#include "harness/runner/registrar.h"
#include "scenarios/bench_util.h"
#include "scenarios/common_axes.h"
#include "scenarios/memory_costs.h"
#include "scenarios/model_world_case.h"

namespace moq::scenarios {

namespace {

class FetchFrames final : public ModelWorldCase {
 public:
  FetchFrames(ModelWorldConfig config, GroupShape group)
      : ModelWorldCase(std::move(config), {1, group.frames, group.frame_size, group.frames}) {}

  Status setup() override {
    if (Status st = build_world(); !st) return st;
    fetches_.resize(world().viewers().size());
    return world().relayed() ? world().hold_upstream_subscriptions() : Status{};
  }

  void prepare_round(uint64_t /*round*/) override {
    world().clear_logs();
    for (session::FetchConsumer& f : fetches_)
      f = session::FetchConsumer();
  }

  Status run_round(uint64_t round) override {
    if (Status st = write_round(round); !st) return st;
    if (Status st = deliver_to_relays(); !st) return st;
    std::vector<ModelPublisher>& pubs = world().publishers();
    std::vector<ModelViewer>& viewers = world().viewers();
    for (size_t i = 0; i < viewers.size(); ++i) {
      const ModelPublisher& pub = pubs[viewers[i].publisher];
      Result<session::FetchConsumer> f = world().as(Role::kViewer, [&] {
        return viewers[i].session->fetch(pub.path, "video", first_sequence(viewers[i].publisher));
      });
      if (!f) return Error{0, "viewer " + std::to_string(i) + ": fetch: " + f.error().message};
      fetches_[i] = std::move(*f);
    }
    if (Status st = world().settle("fetch round"); !st) return st;
    for (size_t i = 0; i < viewers.size(); ++i) {
      if (Status st = read_to_end(fetches_[i], viewers[i].log, "the fetch"); !st)
        return Error{0, "viewer " + std::to_string(i) + ": " + st.error().message};
    }
    return {};
  }

 private:
  std::vector<session::FetchConsumer> fetches_;  // per viewer; dropped before the world
};

harness::ScenarioDef fetch_frames_scenario() {
  harness::ScenarioDef def;
  def.name = "fetch_frames";
  def.benches = {"model", "relay"};
  def.summary =
      "each round every publisher with viewers writes one group of `frames` frames; viewer i "
      "FETCHes the new group of publisher i mod publishers and reads every frame";
  def.in_default_sweep = true;
  def.axes = with_network_axes({harness::AxisSpec::version(), relays_axis(), publishers_axis(),
                                viewers_axis(), frames_axis(), frame_size_axis()});
  def.make = make_world_group_case<FetchFrames>;
  def.check_axes = check_world_group_axes;
  // One group of `frames` in the publishers' caches; each viewer holds its fetch of it.
  def.estimate_memory = [](const harness::CaseSpec& spec) {
    return world_memory(spec, static_cast<uint64_t>(spec.integer("frames")), 1, 1, 0);
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(fetch_frames_scenario);

}  // namespace moq::scenarios
