// churn: `sessions` viewers each hold live subscriptions to `held` tracks of one broadcast; each
// round one of them (round robin) subscribes to a track of its own and cancels it again. The
// round ends when the publisher has seen the request and then the cancel: on the relay bench the
// relay's upstream subscription lingers after its last viewer (RelayConfig::linger_ns), so the
// round lets that much virtual time pass, and a relay that answered the request from a stale
// copy instead of asking the publisher fails the round. The cost of one open-and-close must not
// grow with the subscriptions held beside it.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/registrar.h"
#include "scenarios/bench_util.h"
#include "scenarios/common_axes.h"
#include "scenarios/memory_costs.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

namespace {

class Churn final : public harness::Case {
 public:
  Churn(ModelWorldConfig config, uint32_t held) : config_(std::move(config)), held_(held) {}

  harness::StackCounts stack_counts() const override { return world_.probe().read(); }

  Status setup() override {
    if (Status st = world_.build(config_); !st) return st;
    ModelPublisher& pub = world_.publishers()[0];
    std::vector<ModelViewer>& viewers = world_.viewers();
    for (uint32_t t = 0; t < held_; ++t) {
      Result<TrackProducer> track = pub.broadcast.create_track("held" + std::to_string(t), {});
      if (!track) return track.error();
      held_tracks_.push_back(std::move(*track));
    }
    for (size_t s = 0; s < viewers.size(); ++s) {
      Result<TrackProducer> track = pub.broadcast.create_track("churn" + std::to_string(s), {});
      if (!track) return track.error();
      churn_tracks_.push_back(std::move(*track));
      for (uint32_t t = 0; t < held_; ++t) {
        Result<TrackConsumer> sub = world_.as(Role::kViewer, [&] {
          return viewers[s].session->subscribe(pub.path, held_tracks_[t].name());
        });
        if (!sub) return Error{0, "viewer " + std::to_string(s) + ": " + sub.error().message};
        held_subscriptions_.push_back(std::move(*sub));
      }
    }
    return world_.settle("holding the subscriptions");
  }

  Status run_round(uint64_t round) override {
    const size_t s = round % world_.viewers().size();
    ModelViewer& viewer = world_.viewers()[s];
    const TrackProducer& churned = churn_tracks_[s];
    Result<TrackConsumer> sub = world_.as(Role::kViewer, [&] {
      return viewer.session->subscribe(world_.publishers()[0].path, churned.name());
    });
    if (!sub) return Error{0, "subscribe: " + sub.error().message};
    if (Status st = world_.settle("the churned subscription"); !st) return st;
    requested_ = churned.consumer_count() > 0;
    *sub = TrackConsumer();
    if (Status st = world_.settle("its cancel"); !st) return st;
    if (Status st = world_.let_relays_go(); !st) return st;
    cancelled_ = churned.consumer_count() == 0;
    return {};
  }

  harness::RoundCheck check_round(uint64_t round) override {
    const std::string which = "churn" + std::to_string(round % world_.viewers().size());
    if (!requested_) return {{}, {}, "the publisher never saw the subscription to " + which};
    if (!cancelled_) return {{}, {}, "the publisher never saw the cancel of " + which};
    for (const TrackConsumer& held : held_subscriptions_)
      if (held.status() == TrackStatus::Aborted)
        return {{}, {}, "a held subscription aborted: " + held.error().message};
    return {};
  }

 private:
  ModelWorldConfig config_;
  const uint32_t held_;
  std::vector<TrackProducer> held_tracks_;
  std::vector<TrackProducer> churn_tracks_;        // one per session
  std::vector<TrackConsumer> held_subscriptions_;  // dropped before the world
  bool requested_ = false;
  bool cancelled_ = false;
  ModelWorld world_;  // last: destroyed first
};

harness::ScenarioDef churn_scenario() {
  harness::ScenarioDef def;
  def.name = "churn";
  def.benches = {"model", "relay"};
  def.summary =
      "`sessions` viewers hold `held` live subscriptions each; each round one of them opens and "
      "cancels one more, until the publisher has seen both";
  def.axes = with_network_axes(
      {harness::AxisSpec::version(), relays_axis(),
       harness::AxisSpec::integer("sessions", "viewer sessions", 4, 1, 1024, {1, 16, 128}),
       harness::AxisSpec::integer("held", "subscriptions each session holds open", 16, 1, 4096,
                                  {1, 64, 1024})});
  def.check_axes = check_world_axes;
  def.make = [](const harness::CaseSpec& spec) -> Result<std::unique_ptr<harness::Case>> {
    Result<ModelWorldConfig> config = model_world_config(spec);
    if (!config) return config.error();
    config->publishers = 1;  // the axes have none: one publisher, one broadcast of many tracks
    config->viewers = static_cast<uint32_t>(spec.integer("sessions"));
    // Every connection holds up to `held` subscriptions and the churned one (a relay's upstream
    // one holds each track once; a session's own announcement requests besides): its stream
    // credit must not be what limits the case.
    config->max_bidi = std::max(config->max_bidi,
                                static_cast<uint32_t>(spec.integer("held")) + config->viewers + 16);
    return std::unique_ptr<harness::Case>(
        new Churn(*config, static_cast<uint32_t>(spec.integer("held"))));
  };
  // Each held subscription: the viewer's and the serving side's state, and a relay's copy.
  def.estimate_memory = [](const harness::CaseSpec& spec) {
    harness::MemoryEstimate e;
    e.add("the process", kProcessBytes, {});
    e.add("the held subscriptions", 8 << 10,
          {{"sessions", static_cast<uint64_t>(spec.integer("sessions"))},
           {"held", static_cast<uint64_t>(spec.integer("held"))}},
          {"sessions", "held"});
    return e;
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(churn_scenario);

}  // namespace moq::scenarios
