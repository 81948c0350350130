// fetch_frames: each round every publisher that has viewers writes one new group of `frames`
// frames (`frame_size` bytes each) and finishes it; viewer i FETCHes that group from publisher
// i mod publishers and, once the executor is idle, reads every frame. The default sweep.
#include <memory>
#include <string>

#include "harness/runner/payloads.h"
#include "scenarios/all.h"
#include "scenarios/bench_util.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

namespace {

class FetchFrames final : public harness::Case {
 public:
  FetchFrames(ModelWorldConfig config, uint64_t frames, uint64_t frame_size)
      : config_(config), frames_(frames), frame_size_(frame_size) {}

  Status setup() override {
    payloads_ = harness::PayloadSource(frame_size_, kDistinctRounds * config_.publishers * frames_);
    if (Status st = world_.build(config_); !st) return st;
    fetches_.resize(world_.viewers().size());
    for (ModelViewer& v : world_.viewers())
      v.log.reserve(frames_, frames_);
    sequences_.resize(world_.publishers().size());
    return {};
  }

  void prepare_round(uint64_t /*round*/) override {
    world_.clear_logs();
    for (session::FetchConsumer& f : fetches_)
      f = session::FetchConsumer();
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
      sequences_[p] = group->sequence();
    }
    std::vector<ModelViewer>& viewers = world_.viewers();
    for (size_t i = 0; i < viewers.size(); ++i) {
      const ModelPublisher& pub = pubs[viewers[i].publisher];
      Result<session::FetchConsumer> f =
          viewers[i].session->fetch(pub.path, "video", sequences_[viewers[i].publisher]);
      if (!f) return Error{0, "viewer " + std::to_string(i) + ": fetch: " + f.error().message};
      fetches_[i] = std::move(*f);
    }
    if (Status st = settle(world_.executor(), "fetch round"); !st) return st;
    for (size_t i = 0; i < viewers.size(); ++i) {
      if (Status st = read_to_end(fetches_[i], viewers[i].log, "the fetch"); !st)
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

 private:
  static constexpr uint64_t kDistinctRounds = 3;
  uint64_t payload_base(uint64_t round, uint64_t publisher) const {
    return ((round % kDistinctRounds) * config_.publishers + publisher) * frames_;
  }

  ModelWorldConfig config_;
  const uint64_t frames_, frame_size_;
  harness::PayloadSource payloads_;
  std::vector<uint64_t> sequences_;  // per publisher: this round's group
  ModelWorld world_;
  std::vector<session::FetchConsumer> fetches_;  // per viewer; dropped before the world
};

}  // namespace

Status register_fetch_frames(harness::ScenarioRegistry& registry) {
  harness::ScenarioDef def;
  def.name = "fetch_frames";
  def.summary =
      "each round every publisher with viewers writes one group of `frames` frames; viewer i "
      "FETCHes the new group of publisher i mod publishers and reads every frame";
  def.in_default_sweep = true;
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
    return std::unique_ptr<harness::Case>(new FetchFrames(config, frames, size));
  };
  return registry.add(std::move(def));
}

}  // namespace moq::scenarios
