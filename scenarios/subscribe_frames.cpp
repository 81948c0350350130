// subscribe_frames: every viewer holds a live subscription to the track of publisher
// i mod publishers (made at setup). Each round every publisher that has viewers writes one group
// of `frames` frames and finishes it; every subscribed viewer receives it on its group stream and,
// once the executor is idle, reads every frame of it. Warm-up lasts at least until the viewers'
// track caches are full (min_warmup_rounds).
#include <memory>
#include <string>

#include "harness/runner/payloads.h"
#include "scenarios/all.h"
#include "scenarios/bench_util.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

namespace {

class SubscribeFrames final : public harness::Case {
 public:
  SubscribeFrames(ModelWorldConfig config, uint64_t frames, uint64_t frame_size)
      : config_(config), frames_(frames), frame_size_(frame_size) {}

  Status setup() override {
    payloads_ = harness::PayloadSource(frame_size_, kDistinctRounds * config_.publishers * frames_);
    if (Status st = world_.build(config_); !st) return st;
    std::vector<ModelViewer>& viewers = world_.viewers();
    subscriptions_.resize(viewers.size());
    groups_.resize(viewers.size());
    for (size_t i = 0; i < viewers.size(); ++i) {
      viewers[i].log.reserve(frames_, frames_);
      const ModelPublisher& pub = world_.publishers()[viewers[i].publisher];
      Result<TrackConsumer> sub = viewers[i].session->subscribe(pub.path, "video");
      if (!sub)
        return Error{0, "viewer " + std::to_string(i) + ": subscribe: " + sub.error().message};
      subscriptions_[i] = std::move(*sub);
    }
    return settle(world_.executor(), "subscribing");
  }

  void prepare_round(uint64_t /*round*/) override {
    world_.clear_logs();
    for (GroupConsumer& g : groups_)
      g = GroupConsumer();
  }

  Status run_round(uint64_t round) override {
    std::vector<ModelPublisher>& pubs = world_.publishers();
    for (size_t p = 0; p < pubs.size(); ++p) {
      if (pubs[p].viewers == 0) continue;
      Result<GroupProducer> group = pubs[p].track.append_group();
      if (!group) return Error{0, "publisher " + std::to_string(p) + ": " + group.error().message};
      const uint64_t base = payload_base(round, p);
      for (uint64_t k = 0; k < frames_; ++k) {
        if (Status st = group->write_frame(round * frames_ + k, payloads_.payload(base + k)); !st)
          return st;
      }
      if (Status st = group->finish(); !st) return st;
    }
    if (Status st = settle(world_.executor(), "subscribe round"); !st) return st;
    std::vector<ModelViewer>& viewers = world_.viewers();
    for (size_t i = 0; i < viewers.size(); ++i) {
      if (Status st = read_new_group(i); !st)
        return Error{0, "viewer " + std::to_string(i) + ": " + st.error().message};
    }
    return {};
  }

  harness::RoundCheck check_round(uint64_t round) override {
    harness::DeliveryCombiner expected;
    for (const ModelViewer& v : world_.viewers()) {
      harness::DeliveryHasher h;
      const uint64_t base = payload_base(round, v.publisher);
      for (uint64_t k = 0; k < frames_; ++k)
        h.add_frame(payloads_.payload(base + k));
      expected.add(h.result());
    }
    return {world_.delivered(), expected.result()};
  }

  harness::StackCounts stack_counts() const override { return world_.probe().read(); }

  // The viewer's track (made by its session) caches the default CacheLimits::max_groups groups;
  // until that cache is full every round takes a fresh group state instead of a recycled one.
  uint32_t min_warmup_rounds() const override { return CacheLimits{}.max_groups + 2; }

 private:
  static constexpr uint64_t kDistinctRounds = 3;
  uint64_t payload_base(uint64_t round, uint64_t publisher) const {
    return ((round % kDistinctRounds) * config_.publishers + publisher) * frames_;
  }

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
    if (Status st = read_to_end(groups_[i], world_.viewers()[i].log, "the group"); !st) return st;
    GroupConsumer extra;
    if (sub.next(extra) == Next::Ready)
      return Error{0, "a second group (sequence " + std::to_string(extra.sequence()) +
                          ") arrived in one round"};
    return {};
  }

  ModelWorldConfig config_;
  const uint64_t frames_, frame_size_;
  harness::PayloadSource payloads_;
  ModelWorld world_;
  std::vector<TrackConsumer> subscriptions_;  // per viewer; dropped before the world
  std::vector<GroupConsumer> groups_;         // per viewer: the group read this round
};

}  // namespace

Status register_subscribe_frames(harness::ScenarioRegistry& registry) {
  harness::ScenarioDef def;
  def.name = "subscribe_frames";
  def.summary =
      "viewers hold live subscriptions; each round every publisher with viewers writes one group "
      "of `frames` frames and every subscribed viewer receives and reads it";
  def.axes = {
      harness::AxisSpec::version(),
      harness::AxisSpec::integer("publishers", "publishers (each with its own origin)", 1, 1, 64,
                                 {1, 4}),
      harness::AxisSpec::integer("viewers", "viewers, each with its own connection", 1, 1, 1024,
                                 {1, 16}),
      harness::AxisSpec::integer("frames", "frames per group", 256, 1, 1 << 16, {4, 256}),
      harness::AxisSpec::integer("frame_size", "payload bytes per frame", 64, 0, 1 << 20),
  };
  def.axes.back().id_when_default = false;
  def.make = [](const harness::CaseSpec& spec) -> Result<std::unique_ptr<harness::Case>> {
    Result<session::Version> version = case_version(spec.version());
    if (!version) return version.error();
    ModelWorldConfig config;
    config.version = *version;
    config.publishers = static_cast<uint32_t>(spec.integer("publishers"));
    config.viewers = static_cast<uint32_t>(spec.integer("viewers"));
    auto frames = static_cast<uint64_t>(spec.integer("frames"));
    auto size = static_cast<uint64_t>(spec.integer("frame_size"));
    if (frames * size > kMaxGroupBytes)
      return Error{0, "frames x frame_size = " + std::to_string(frames * size) +
                          " bytes exceeds the largest group (" + std::to_string(kMaxGroupBytes) +
                          " bytes)"};
    return std::unique_ptr<harness::Case>(new SubscribeFrames(config, frames, size));
  };
  return registry.add(std::move(def));
}

}  // namespace moq::scenarios
