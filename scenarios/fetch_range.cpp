// fetch_range: each round every publisher that has viewers writes `burst` groups of 4 frames
// (`frame_size` bytes each); each viewer fetches that range of groups from publisher
// i mod publishers, one FETCH per group, and reads every frame, group by group in order. The
// publishers' track caches hold `burst` groups, so the whole range is served from the cache.
#include <memory>
#include <string>

#include "harness/runner/payloads.h"
#include "scenarios/all.h"
#include "scenarios/bench_util.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

namespace {

constexpr uint64_t kFramesPerGroup = 4;

class FetchRange final : public harness::Case {
 public:
  FetchRange(ModelWorldConfig config, uint64_t burst, uint64_t frame_size)
      : config_(config), burst_(burst), frame_size_(frame_size) {}

  Status setup() override {
    payloads_ = harness::PayloadSource(
        frame_size_, kDistinctRounds * config_.publishers * burst_ * kFramesPerGroup);
    if (Status st = world_.build(config_); !st) return st;
    std::vector<ModelViewer>& viewers = world_.viewers();
    fetches_.resize(viewers.size() * burst_);
    for (ModelViewer& v : viewers)
      v.log.reserve(burst_ * kFramesPerGroup, burst_ * kFramesPerGroup);
    first_sequence_.resize(world_.publishers().size());
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
      for (uint64_t g = 0; g < burst_; ++g) {
        Result<GroupProducer> group = pubs[p].track.append_group();
        if (!group)
          return Error{0, "publisher " + std::to_string(p) + ": " + group.error().message};
        if (g == 0) first_sequence_[p] = group->sequence();
        const uint64_t base = payload_base(round, p, g);
        for (uint64_t k = 0; k < kFramesPerGroup; ++k) {
          if (Status st = group->write_frame(round * 1000 + g * kFramesPerGroup + k,
                                             payloads_.payload(base + k));
              !st)
            return st;
        }
        if (Status st = group->finish(); !st) return st;
      }
    }
    std::vector<ModelViewer>& viewers = world_.viewers();
    for (size_t i = 0; i < viewers.size(); ++i) {
      const ModelPublisher& pub = pubs[viewers[i].publisher];
      for (uint64_t g = 0; g < burst_; ++g) {
        Result<session::FetchConsumer> f =
            viewers[i].session->fetch(pub.path, "video", first_sequence_[viewers[i].publisher] + g);
        if (!f) return Error{0, "viewer " + std::to_string(i) + ": fetch: " + f.error().message};
        fetches_[i * burst_ + g] = std::move(*f);
      }
    }
    if (Status st = settle(world_.executor(), "fetch_range round"); !st) return st;
    for (size_t i = 0; i < viewers.size(); ++i) {
      for (uint64_t g = 0; g < burst_; ++g) {
        if (Status st = read_to_end(fetches_[i * burst_ + g], viewers[i].log, "a fetch"); !st)
          return Error{0, "viewer " + std::to_string(i) + ", group " + std::to_string(g) +
                              " of the range: " + st.error().message};
      }
    }
    return {};
  }

  harness::RoundCheck check_round(uint64_t round) override {
    harness::DeliveryCombiner expected;
    for (const ModelViewer& v : world_.viewers()) {
      harness::DeliveryHasher h;
      for (uint64_t g = 0; g < burst_; ++g) {
        const uint64_t base = payload_base(round, v.publisher, g);
        for (uint64_t k = 0; k < kFramesPerGroup; ++k)
          h.add_frame(payloads_.payload(base + k));
      }
      expected.add(h.result());
    }
    return {world_.delivered(), expected.result()};
  }

  harness::StackCounts stack_counts() const override { return world_.probe().read(); }

 private:
  static constexpr uint64_t kDistinctRounds = 3;
  uint64_t payload_base(uint64_t round, uint64_t publisher, uint64_t group) const {
    return (((round % kDistinctRounds) * config_.publishers + publisher) * burst_ + group) *
           kFramesPerGroup;
  }

  ModelWorldConfig config_;
  const uint64_t burst_, frame_size_;
  harness::PayloadSource payloads_;
  std::vector<uint64_t> first_sequence_;  // per publisher: the first group of this round's range
  ModelWorld world_;
  std::vector<session::FetchConsumer> fetches_;  // viewer-major; dropped before the world
};

}  // namespace

Status register_fetch_range(harness::ScenarioRegistry& registry) {
  harness::ScenarioDef def;
  def.name = "fetch_range";
  def.summary =
      "each round every publisher with viewers writes `burst` groups of 4 frames; each viewer "
      "fetches that range of groups (one FETCH per group) and reads every frame";
  def.axes = {
      harness::AxisSpec::version(),
      harness::AxisSpec::integer("publishers", "publishers (each with its own origin)", 1, 1, 64,
                                 {1, 4}),
      harness::AxisSpec::integer("viewers", "viewers, each with its own connection", 1, 1, 1024,
                                 {1, 16}),
      harness::AxisSpec::integer("burst", "groups written and fetched per round", 4, 1, 256,
                                 {1, 8}),
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
    auto burst = static_cast<uint64_t>(spec.integer("burst"));
    config.cached_groups = static_cast<uint32_t>(burst);
    return std::unique_ptr<harness::Case>(
        new FetchRange(config, burst, static_cast<uint64_t>(spec.integer("frame_size"))));
  };
  return registry.add(std::move(def));
}

}  // namespace moq::scenarios
