// delivery: the Rust session bench's shape (research/relay-and-interop.md, section 1), so that a
// user can put the two side by side. `publishers` publishers announce `broadcasts` broadcasts
// each ("room/<p * broadcasts + i>", one track); viewer v watches the contiguous window of `watch`
// broadcasts starting at v * watch (mod the total), one live subscription each. Only watched
// broadcasts write; the others stay announced and silent.
//  - Unpaced: each round every watched broadcast writes `burst` groups of 4 frames of
//    `frame_size` bytes; then, for each of the burst's groups, every viewer reads one whole group
//    from each of its subscriptions in turn (so no subscription's backlog waits on another's).
//  - Paced: each round every watched broadcast writes one frame into its current group and
//    finishes the group on its 4th frame; every subscription reads that one frame (and, on the
//    4th, the group's end). Measured rounds are a whole number of groups.
// Every round asserts the bytes delivered: viewers x watch x burst x frames x frame_size, and
// their payload hash (each group whole and in order; the groups of a burst in whichever order
// the transport delivered them: QUIC sends the newest first); on the relay bench, that no relay
// opened another upstream subscription.
// Axis names follow this tool's (frame_size, not the Rust bench's frame).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/delivery.h"
#include "harness/runner/payloads.h"
#include "harness/runner/registrar.h"
#include "scenarios/bench_util.h"
#include "scenarios/common_axes.h"
#include "scenarios/memory_costs.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

namespace {

constexpr uint64_t kFramesPerGroup = 4;
// Payloads cycle over this many rounds, so consecutive rounds deliver different bytes.
constexpr uint64_t kDistinctRounds = 3;

struct DeliveryShape {
  uint32_t broadcasts = 1;  // per publisher
  uint32_t watch = 1;       // per viewer
  uint64_t frame_size = 64;
  uint64_t burst = 1;
  bool paced = false;
};

class Delivery final : public harness::Case {
 public:
  Delivery(ModelWorldConfig config, DeliveryShape shape)
      : config_(std::move(config)), shape_(shape) {}

  harness::StackCounts stack_counts() const override { return world_.probe().read(); }

  Status setup() override {
    // The world's viewers connect to publisher i mod publishers; a viewer's subscriptions may
    // be of other publishers' broadcasts (on the model bench it reaches only its own publisher,
    // so watch windows stay within it there: see watched()).
    if (Status st = world_.build(config_); !st) return st;
    for (uint32_t p = 0; p < config_.publishers; ++p)
      if (Status st = world_.add_rooms(p, shape_.broadcasts); !st) return st;
    const uint64_t total = world_.rooms().size();
    payloads_ = harness::PayloadSource(shape_.frame_size,
                                       kDistinctRounds * total * shape_.burst * kFramesPerGroup);
    watched_.assign(total, false);
    std::vector<ModelViewer>& viewers = world_.viewers();
    subscriptions_.resize(viewers.size() * shape_.watch);
    groups_.resize(subscriptions_.size());
    read_sequence_.assign(subscriptions_.size() * shape_.burst, 0);
    for (size_t v = 0; v < viewers.size(); ++v) {
      for (uint32_t k = 0; k < shape_.watch; ++k) {
        const size_t room = watched(v, k);
        watched_[room] = true;
        Result<TrackConsumer> sub = world_.as(Role::kViewer, [&] {
          return viewers[v].session->subscribe(world_.rooms()[room].path, "video");
        });
        if (!sub) return Error{0, "viewer " + std::to_string(v) + ": " + sub.error().message};
        subscriptions_[v * shape_.watch + k] = std::move(*sub);
      }
      const uint64_t frames = shape_.watch * shape_.burst * frames_per_round();
      viewers[v].log.reserve(frames);
    }
    writers_.resize(total);
    if (Status st = world_.settle("subscribing"); !st) return st;
    // Relay bench: each relay holds one upstream subscription per watched broadcast it copies,
    // made at setup, the same in every round (checked after each).
    world_.expect_current_upstream();
    return {};
  }

  void prepare_round(uint64_t /*round*/) override { world_.clear_logs(); }

  Status run_round(uint64_t round) override {
    if (Status st = write(round); !st) return st;
    if (Status st = world_.settle("delivery round"); !st) return st;
    std::vector<ModelViewer>& viewers = world_.viewers();
    for (uint64_t g = 0; g < shape_.burst; ++g) {
      for (size_t v = 0; v < viewers.size(); ++v) {
        for (uint32_t k = 0; k < shape_.watch; ++k) {
          if (Status st = read(v * shape_.watch + k, g, viewers[v].log, round); !st)
            return Error{0, "viewer " + std::to_string(v) + ", broadcast " +
                                std::to_string(watched(v, k)) + ": " + st.error().message};
        }
      }
    }
    return {};
  }

  harness::RoundCheck check_round(uint64_t round) override {
    harness::DeliveryCombiner expected;
    for (size_t v = 0; v < world_.viewers().size(); ++v) {
      harness::DeliveryHasher h;
      for (uint64_t slot = 0; slot < shape_.burst; ++slot) {
        for (uint32_t k = 0; k < shape_.watch; ++k) {
          const uint64_t g = burst_group_read(v * shape_.watch + k, slot);
          for (uint64_t f = first_frame(round); f < first_frame(round) + frames_per_round(); ++f)
            h.add_frame(payloads_.payload(payload_index(watched(v, k), round, g, f)));
        }
      }
      expected.add(h.result());
    }
    return {world_.delivered(), expected.result(), world_.check_upstream_subscriptions()};
  }

  // Until the viewers' track caches are full, a round takes fresh group states.
  uint32_t min_warmup_rounds() const override {
    const uint64_t groups = CacheLimits{}.max_groups + 2;
    const uint64_t rounds_per_group = shape_.paced ? kFramesPerGroup : 1;
    return static_cast<uint32_t>((groups + shape_.burst - 1) / shape_.burst * rounds_per_group);
  }
  uint32_t round_multiple() const override { return shape_.paced ? kFramesPerGroup : 1; }

 private:
  // The frames a round writes into each group, from first_frame(round): all four, or (paced)
  // one, the next.
  uint64_t frames_per_round() const { return shape_.paced ? 1 : kFramesPerGroup; }
  uint64_t first_frame(uint64_t round) const { return shape_.paced ? round % kFramesPerGroup : 0; }

  // The k-th broadcast viewer v watches. On the model bench a viewer is connected to one
  // publisher only, so its window runs over that publisher's broadcasts.
  size_t watched(size_t v, uint32_t k) const {
    if (world_.relayed()) {
      const size_t total = world_.rooms().size();
      return (v * shape_.watch + k) % total;
    }
    const size_t p = v % config_.publishers;
    return p * shape_.broadcasts + (v / config_.publishers * shape_.watch + k) % shape_.broadcasts;
  }

  // Which of its round's burst groups subscription i read in its slot-th read. The groups of a
  // burst have consecutive sequences; each must arrive whole and in order within itself, but a
  // transport may deliver them in either order (QUIC sends a newer group first), so the check
  // follows the order they were read in.
  uint64_t burst_group_read(size_t i, uint64_t slot) const {
    const uint64_t* seq = &read_sequence_[i * shape_.burst];
    const uint64_t first = *std::min_element(seq, seq + shape_.burst);
    return seq[slot] - first;
  }

  uint64_t payload_index(size_t room, uint64_t round, uint64_t g, uint64_t frame) const {
    const uint64_t group_round = shape_.paced ? round / kFramesPerGroup : round;
    return (((group_round % kDistinctRounds) * world_.rooms().size() + room) * shape_.burst + g) *
               kFramesPerGroup +
           frame;
  }

  Status write(uint64_t round) {
    std::vector<ModelRoom>& rooms = world_.rooms();
    for (size_t r = 0; r < rooms.size(); ++r) {
      if (!watched_[r]) continue;
      if (shape_.paced) {
        const uint64_t f = first_frame(round);
        if (f == 0) {
          Result<GroupProducer> g = rooms[r].track.append_group();
          if (!g) return g.error();
          writers_[r] = std::move(*g);
        }
        if (Status st =
                writers_[r].write_frame(round, payloads_.payload(payload_index(r, round, 0, f)));
            !st)
          return st;
        if (f + 1 == kFramesPerGroup) {
          if (Status st = writers_[r].finish(); !st) return st;
        }
        continue;
      }
      for (uint64_t g = 0; g < shape_.burst; ++g) {
        Result<GroupProducer> group = rooms[r].track.append_group();
        if (!group) return group.error();
        for (uint64_t f = 0; f < kFramesPerGroup; ++f) {
          const uint64_t timestamp = (round * shape_.burst + g) * kFramesPerGroup + f;
          if (Status st =
                  group->write_frame(timestamp, payloads_.payload(payload_index(r, round, g, f)));
              !st)
            return st;
        }
        if (Status st = group->finish(); !st) return st;
      }
    }
    return {};
  }

  // One group of subscription i (unpaced: to its end; the slot-th of the burst), or (paced) the
  // one frame of this round.
  Status read(size_t i, uint64_t slot, harness::DeliveryLog& log, uint64_t round) {
    GroupConsumer& group = groups_[i];
    if (first_frame(round) == 0) {
      switch (subscriptions_[i].next(group)) {
        case Next::Ready:
          read_sequence_[i * shape_.burst + slot] = group.sequence();
          break;
        case Next::Pending:
          return Error{0, "no new group arrived"};
        case Next::End:
          return Error{0, "the subscription ended"};
        case Next::Aborted:
          return Error{0, "the subscription aborted: " + subscriptions_[i].error().message};
      }
    }
    if (!shape_.paced) return read_to_end(group, log, "the group");
    FrameView frame;
    if (group.next(frame) != Next::Ready) return Error{0, "the round's frame did not arrive"};
    log.record(frame.chunks);
    if (round % kFramesPerGroup + 1 == kFramesPerGroup && group.next(frame) != Next::End)
      return Error{0, "the group did not end after its last frame"};
    return {};
  }

  ModelWorldConfig config_;
  const DeliveryShape shape_;
  harness::PayloadSource payloads_;
  std::vector<bool> watched_;                 // per room: some viewer watches it
  std::vector<GroupProducer> writers_;        // paced: each room's current group
  std::vector<TrackConsumer> subscriptions_;  // viewer-major; dropped before the world
  std::vector<GroupConsumer> groups_;         // per subscription: the group being read
  std::vector<uint64_t> read_sequence_;       // per subscription and burst slot: the group read
  ModelWorld world_;                          // last: destroyed first
};

// A case's world and delivery shape, or an Error naming the axes and values a rule refuses.
struct DeliveryPlan {
  ModelWorldConfig config;
  DeliveryShape shape;
};

Result<DeliveryPlan> delivery_plan(const harness::CaseSpec& spec) {
  Result<ModelWorldConfig> config = model_world_config(spec);
  if (!config) return config.error();
  DeliveryShape shape;
  shape.broadcasts = static_cast<uint32_t>(spec.integer("broadcasts"));
  shape.watch = static_cast<uint32_t>(spec.integer("watch"));
  shape.frame_size = static_cast<uint64_t>(spec.integer("frame_size"));
  shape.burst = static_cast<uint64_t>(spec.integer("burst"));
  shape.paced = spec.text("paced") == "yes";
  // A burst is written before anyone reads: every cache on the way keeps all of it.
  config->cached_groups = static_cast<uint32_t>(shape.burst);
  if (shape.paced && shape.burst != 1)
    return Error{0, "paced=yes writes one frame a round, so burst=" + std::to_string(shape.burst) +
                        " must be burst=1"};
  // Through relays a viewer reaches every publisher's broadcasts; alone, its own publisher's.
  const bool relayed = config->relays > 0;
  const uint64_t reachable =
      relayed ? uint64_t{shape.broadcasts} * config->publishers : shape.broadcasts;
  if (shape.watch > reachable)
    return Error{
        0, "watch=" + std::to_string(shape.watch) + " exceeds the " + std::to_string(reachable) +
               " broadcasts a viewer can reach (broadcasts=" + std::to_string(shape.broadcasts) +
               (relayed ? " x publishers=" + std::to_string(config->publishers) : "") + ")"};
  return DeliveryPlan{*config, shape};
}

harness::ScenarioDef delivery_scenario() {
  harness::ScenarioDef def;
  def.name = "delivery";
  def.benches = {"model", "relay"};
  def.summary =
      "the Rust session bench's delivery: publishers x broadcasts announced, viewers watching a "
      "window of `watch` broadcasts each; every watched broadcast writes `burst` groups of 4 "
      "frames a round (or, paced, one frame), every viewer reads them";
  harness::AxisSpec paced =
      harness::AxisSpec::choice("paced", "one frame per round", {"no", "yes"});
  paced.id_when_default = false;
  def.axes = with_network_axes({
      harness::AxisSpec::version(),
      relays_axis(),
      harness::AxisSpec::integer("publishers", "publishers (each with its own origin)", 16, 1, 256,
                                 {1, 16}),
      harness::AxisSpec::integer("broadcasts", "broadcasts per publisher", 1, 1, 4096),
      harness::AxisSpec::integer("viewers", "viewers, each with its own connection", 16, 1, 1024,
                                 {1, 16}),
      harness::AxisSpec::integer("watch", "broadcasts each viewer watches (a contiguous window)", 1,
                                 1, 256),
      harness::AxisSpec::integer("burst", "groups per watched broadcast per round", 1, 1, 64),
      paced,
      frame_size_axis(),
  });
  def.check_axes = [](const harness::CaseSpec& spec) -> Status {
    Result<DeliveryPlan> plan = delivery_plan(spec);
    if (!plan) return plan.error();
    return {};
  };
  def.make = [](const harness::CaseSpec& spec) -> Result<std::unique_ptr<harness::Case>> {
    Result<DeliveryPlan> plan = delivery_plan(spec);
    if (!plan) return plan.error();
    return std::unique_ptr<harness::Case>(new Delivery(plan->config, plan->shape));
  };
  // Per subscription: its state on both sides, the frames in flight in a round, and the
  // viewer's track cache (CacheLimits' groups, or the burst when larger).
  def.estimate_memory = [](const harness::CaseSpec& spec) {
    const std::vector<std::string> axes = {"viewers", "watch", "burst"};
    const auto viewers = static_cast<uint64_t>(spec.integer("viewers"));
    const auto watch = static_cast<uint64_t>(spec.integer("watch"));
    const auto burst = static_cast<uint64_t>(spec.integer("burst"));
    const uint64_t cached = std::max<uint64_t>(CacheLimits{}.max_groups, burst);
    harness::MemoryEstimate e;
    e.add("the process", kProcessBytes, {});
    e.add("the subscriptions", kViewerBytes, {{"viewers", viewers}, {"watch", watch}}, axes);
    e.add("frames each viewer holds in a round", kViewerFrameBytes,
          {{"viewers", viewers},
           {"watch", watch},
           {"burst", burst},
           {"frames per group", kFramesPerGroup}},
          axes);
    e.add("the viewers' track caches", kCachedFrameBytes,
          {{"viewers", viewers},
           {"watch", watch},
           {"cached groups", cached},
           {"frames per group", kFramesPerGroup}},
          axes);
    return e;
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(delivery_scenario);

}  // namespace moq::scenarios
