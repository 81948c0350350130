// prefixes and prefixes_teardown: a publisher announces `broadcasts` broadcasts under "room/"; a
// viewer follows `follow` announce prefixes, one announcement request each (prefix k is
// "room/<k mod broadcasts>", so every prefix matches one broadcast). Both benches: on the relay
// bench the viewer follows through the relays (it sits on relay 1 mod R).
//  - prefixes: round 2n withdraws broadcast n mod broadcasts, round 2n + 1 announces it again; a
//    round ends when the executor is idle, and every matching prefix must have seen the event.
//    Its cost must not grow with the prefixes that do not match.
//  - prefixes_teardown: each round a fresh viewer (set up outside the round: connected, following
//    every prefix, the snapshot read) closes its session; the round is that teardown, until the
//    executor is idle. The Rust relay took 22 minutes at 1,024 prefixes (each closed route
//    re-merged every remaining one); here it must be linear in what the viewer held.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/runner/registrar.h"
#include "scenarios/bench_util.h"
#include "scenarios/common_axes.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

namespace {

struct PrefixShape {
  uint32_t broadcasts = 1;
  uint32_t follow = 1;
};

// The common part: the world (one publisher with `broadcasts` extra broadcasts, no viewer of its
// track), the follower's announcement requests and reading them.
class PrefixCase : public harness::Case {
 public:
  harness::StackCounts stack_counts() const override { return world_.probe().read(); }

 protected:
  PrefixCase(ModelWorldConfig config, PrefixShape shape)
      : config_(std::move(config)), shape_(shape) {}

  Status build() {
    config_.viewers = 0;
    if (Status st = world_.build(config_); !st) return st;
    return world_.add_rooms(0, shape_.broadcasts);
  }

  // Connects a viewer following every prefix and reads each prefix's snapshot.
  Status follow() {
    Result<ModelViewer*> v = world_.add_viewer(0);
    if (!v) return v.error();
    follower_ = *v;
    following_.resize(shape_.follow);
    for (uint32_t k = 0; k < shape_.follow; ++k) {
      Result<AnnounceConsumer> a = world_.as(Role::kViewer, [&] {
        return follower_->session->announced(room(k % shape_.broadcasts));
      });
      if (!a) return Error{0, "prefix " + std::to_string(k) + ": " + a.error().message};
      following_[k] = std::move(*a);
    }
    if (Status st = world_.settle("following the prefixes"); !st) return st;
    if (std::string wrong = unexpected_events(std::nullopt); !wrong.empty())
      return Error{0, "the snapshot: " + wrong};
    return {};
  }

  // Reads every prefix's new events: exactly one for each prefix of `broadcast` and none for the
  // others, or (nullopt) exactly one for every prefix. Empty when so, else what was wrong.
  std::string unexpected_events(std::optional<uint32_t> broadcast) {
    for (uint32_t k = 0; k < shape_.follow; ++k) {
      uint64_t seen = 0;
      AnnounceEvent e;
      while (following_[k].next(e) == Next::Ready)
        ++seen;
      const uint64_t expected = !broadcast || k % shape_.broadcasts == *broadcast ? 1 : 0;
      if (seen != expected)
        return "prefix " + std::to_string(k) + " saw " + std::to_string(seen) +
               " announcement events, expected " + std::to_string(expected);
    }
    return {};
  }

  const Path& room(uint32_t b) { return world_.rooms()[b].path; }

  ModelWorldConfig config_;
  const PrefixShape shape_;
  std::vector<AnnounceConsumer> following_;  // dropped before the world
  ModelViewer* follower_ = nullptr;
  ModelWorld world_;  // last: destroyed first
};

class Prefixes final : public PrefixCase {
 public:
  Prefixes(ModelWorldConfig config, PrefixShape shape) : PrefixCase(std::move(config), shape) {}

  Status setup() override {
    if (Status st = build(); !st) return st;
    return follow();
  }

  Status run_round(uint64_t round) override {
    const uint32_t b = toggled(round);
    OriginProducer& origin = world_.publishers()[0].origin;
    Status st = round % 2 == 0 ? origin.unpublish(room(b))
                               : origin.publish(room(b), world_.rooms()[b].broadcast.consume());
    if (!st) return st;
    return world_.settle("announcement round");
  }

  // Outside the measured round: the prefixes of the round's broadcast saw its withdrawal (or its
  // announcement), the others nothing (the viewer's reading them is not what is measured).
  harness::RoundCheck check_round(uint64_t round) override {
    if (std::string wrong = unexpected_events(toggled(round)); !wrong.empty())
      return {{}, {}, wrong};
    return {{}, {}, world_.check_upstream_subscriptions()};
  }

 private:
  // Round 2n withdraws broadcast n mod broadcasts, round 2n + 1 announces it again (in one round
  // the two would cancel out before any session sent them).
  uint32_t toggled(uint64_t round) const {
    return static_cast<uint32_t>((round / 2) % shape_.broadcasts);
  }
};

class PrefixesTeardown final : public PrefixCase {
 public:
  PrefixesTeardown(ModelWorldConfig config, PrefixShape shape)
      : PrefixCase(std::move(config), shape) {}

  Status setup() override { return build(); }

  void prepare_round(uint64_t /*round*/) override {
    if (follower_) {
      following_.clear();
      world_.remove_last_viewer();
      follower_ = nullptr;
    }
    prepared_ = follow();
  }

  Status run_round(uint64_t /*round*/) override {
    if (!prepared_) return Error{0, "setting up the round's viewer: " + prepared_.error().message};
    world_.as(Role::kViewer, [&] { return follower_->session->close(0, "leaving"); });
    return world_.settle("the viewer's teardown");
  }

  harness::RoundCheck check_round(uint64_t /*round*/) override {
    // Every prefix request ended with the session.
    for (uint32_t k = 0; k < shape_.follow; ++k) {
      AnnounceEvent e;
      Next n = following_[k].next(e);
      while (n == Next::Ready)  // the withdrawals of what it saw, then the end
        n = following_[k].next(e);
      if (n != Next::Aborted && n != Next::End)
        return {{}, {}, "prefix " + std::to_string(k) + " did not end with the session"};
    }
    return {{}, {}, world_.check_upstream_subscriptions()};
  }

 private:
  Status prepared_;
};

std::vector<harness::AxisSpec> prefix_axes() {
  return with_network_axes(
      {harness::AxisSpec::version(), relays_axis(),
       harness::AxisSpec::integer("broadcasts", "broadcasts announced under room/", 64, 1, 4096,
                                  {64}),
       harness::AxisSpec::integer("follow", "announce prefixes the viewer follows", 256, 1, 4096,
                                  {256, 1024})});
}

template <class CaseT>
Result<std::unique_ptr<harness::Case>> make_prefix_case(const harness::CaseSpec& spec) {
  Result<ModelWorldConfig> config = model_world_config(spec);
  if (!config) return config.error();
  config->publishers = 1;  // the axes have none: one publisher, its broadcasts under room/
  PrefixShape shape;
  shape.broadcasts = static_cast<uint32_t>(spec.integer("broadcasts"));
  shape.follow = static_cast<uint32_t>(spec.integer("follow"));
  return std::unique_ptr<harness::Case>(new CaseT(*config, shape));
}

harness::ScenarioDef prefixes_scenario() {
  harness::ScenarioDef def;
  def.name = "prefixes";
  def.benches = {"model", "relay"};
  def.summary =
      "a viewer follows `follow` announce prefixes over `broadcasts` broadcasts; each round one "
      "broadcast is withdrawn and announced again";
  def.axes = prefix_axes();
  def.make = make_prefix_case<Prefixes>;
  def.check_axes = check_world_axes;
  return def;
}

harness::ScenarioDef prefixes_teardown_scenario() {
  harness::ScenarioDef def;
  def.name = "prefixes_teardown";
  def.benches = {"model", "relay"};
  def.summary =
      "the teardown of a viewer that follows `follow` announce prefixes over `broadcasts` "
      "broadcasts: its session closes, until everything it held is released";
  def.axes = prefix_axes();
  def.make = make_prefix_case<PrefixesTeardown>;
  def.check_axes = check_world_axes;
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(prefixes_scenario);
MOQ_REGISTER_SCENARIO(prefixes_teardown_scenario);

}  // namespace moq::scenarios
