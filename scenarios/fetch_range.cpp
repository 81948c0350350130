// fetch_range: each round every publisher that has viewers writes `burst` groups of 4 frames
// (`frame_size` bytes each); each viewer fetches that range of groups from publisher
// i mod publishers, one FETCH per group, and reads every frame, group by group in order. The
// publishers' track caches hold `burst` groups, so the whole range is served from the cache.
// Relay bench: as fetch_frames, the range is served from the relays' copies (which keep `burst`
// groups too).
#include <memory>
#include <string>

#include "harness/runner/registrar.h"
#include "scenarios/bench_util.h"
#include "scenarios/common_axes.h"
#include "scenarios/memory_costs.h"
#include "scenarios/model_world_case.h"

namespace moq::scenarios {

namespace {

constexpr uint64_t kFramesPerGroup = 4;
// Frame timestamps step by this much from one round to the next (RoundShape).
constexpr uint64_t kTimestampsPerRound = 1000;

class FetchRange final : public ModelWorldCase {
 public:
  FetchRange(ModelWorldConfig config, uint64_t burst, uint64_t frame_size)
      : ModelWorldCase(std::move(config),
                       {burst, kFramesPerGroup, frame_size, kTimestampsPerRound}),
        burst_(burst) {}

  Status setup() override {
    if (Status st = build_world(); !st) return st;
    fetches_.resize(world().viewers().size() * burst_);
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
      for (uint64_t g = 0; g < burst_; ++g) {
        Result<session::FetchConsumer> f = world().as(Role::kViewer, [&] {
          return viewers[i].session->fetch(pub.path, "video",
                                           first_sequence(viewers[i].publisher) + g);
        });
        if (!f) return Error{0, "viewer " + std::to_string(i) + ": fetch: " + f.error().message};
        fetches_[i * burst_ + g] = std::move(*f);
      }
    }
    if (Status st = world().settle("fetch_range round"); !st) return st;
    for (size_t i = 0; i < viewers.size(); ++i) {
      for (uint64_t g = 0; g < burst_; ++g) {
        if (Status st = read_to_end(fetches_[i * burst_ + g], viewers[i].log, "a fetch"); !st)
          return Error{0, "viewer " + std::to_string(i) + ", group " + std::to_string(g) +
                              " of the range: " + st.error().message};
      }
    }
    return {};
  }

 private:
  const uint64_t burst_;
  std::vector<session::FetchConsumer> fetches_;  // viewer-major; dropped before the world
};

harness::ScenarioDef fetch_range_scenario() {
  harness::ScenarioDef def;
  def.name = "fetch_range";
  def.benches = {"model", "relay"};
  def.summary =
      "each round every publisher with viewers writes `burst` groups of 4 frames; each viewer "
      "fetches that range of groups (one FETCH per group) and reads every frame";
  def.axes = with_network_axes({
      harness::AxisSpec::version(),
      relays_axis(),
      publishers_axis(),
      viewers_axis(),
      harness::AxisSpec::integer("burst", "groups written and fetched per round", 4, 1, 256,
                                 {1, 8}),
      frame_size_axis(),
  });
  def.check_axes = check_world_axes;
  def.make = [](const harness::CaseSpec& spec) -> Result<std::unique_ptr<harness::Case>> {
    Result<ModelWorldConfig> config = model_world_config(spec);
    if (!config) return config.error();
    auto burst = static_cast<uint64_t>(spec.integer("burst"));
    config->cached_groups = static_cast<uint32_t>(burst);  // the whole range stays in the cache
    return std::unique_ptr<harness::Case>(
        new FetchRange(*config, burst, static_cast<uint64_t>(spec.integer("frame_size"))));
  };
  // `burst` groups of 4 frames in the publishers' caches; each viewer holds its fetches of them.
  def.estimate_memory = [](const harness::CaseSpec& spec) {
    const auto burst = static_cast<uint64_t>(spec.integer("burst"));
    return world_memory(spec, kFramesPerGroup, burst, burst, 0);
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(fetch_range_scenario);

}  // namespace moq::scenarios
