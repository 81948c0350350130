// join and leave: a publisher announces `broadcasts` broadcasts ("room/<b>", one track each,
// holding one finished group of 4 frames). Each round a new viewer joins (on the relay bench it
// connects to relay 1 mod R, so with more than one relay it crosses a peer hop):
//  - join: the measured round is the join: the viewer connects, resolves broadcast
//    (round mod broadcasts) by its announcement, subscribes to its track and reads the latest
//    group to its end. The viewer leaves outside the round, and time passes beyond the relays'
//    linger, so every join finds the relays without a subscription of the track (a cold join).
//  - leave: the same viewer set up outside the round; the measured round is its leaving: its
//    session closes, until the executor is idle (everything the viewer held is released).
//  - join_stale (relay bench): the publisher went quiet after its one group, and the relays still
//    hold it (a viewer watched every broadcast once, at setup, and left; the copies linger).
//    Each round a new viewer joins as in join and must get that old group from its relay, with
//    no new upstream subscription (checked every round), and never hang.
// A join's cost must not grow with the broadcasts announced beside the one it joins (the Rust
// stack's joins grew with them: its announcement replay deduplicated quadratically).
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/payloads.h"
#include "harness/runner/registrar.h"
#include "scenarios/bench_util.h"
#include "scenarios/common_axes.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

namespace {

constexpr uint64_t kFrames = 4;
constexpr uint64_t kFrameSize = 64;

class JoinCase : public harness::Case {
 public:
  harness::StackCounts stack_counts() const override { return world_.probe().read(); }

  Status setup() override {
    config_.viewers = 0;
    if (Status st = world_.build(config_); !st) return st;
    if (Status st = world_.add_rooms(0, broadcasts_); !st) return st;
    payloads_ = harness::PayloadSource(kFrameSize, broadcasts_ * kFrames);
    for (uint32_t b = 0; b < broadcasts_; ++b) {
      Result<GroupProducer> g = world_.rooms()[b].track.append_group();
      if (!g) return g.error();
      for (uint64_t k = 0; k < kFrames; ++k)
        if (Status st = g->write_frame(k, payloads_.payload(b * kFrames + k)); !st) return st;
      if (Status st = g->finish(); !st) return st;
    }
    return world_.settle("writing the rooms' groups");
  }

  harness::RoundCheck check_round(uint64_t round) override {
    harness::DeliveryHasher expected;
    const uint64_t b = round % broadcasts_;
    for (uint64_t k = 0; k < kFrames; ++k)
      expected.add_frame(payloads_.payload(b * kFrames + k));
    return {viewer_ ? viewer_->log.delivery() : harness::RoundDelivery{}, expected.result(),
            check()};
  }

 protected:
  JoinCase(ModelWorldConfig config, uint32_t broadcasts)
      : config_(std::move(config)), broadcasts_(broadcasts) {}

  // The new viewer's join of broadcast (round mod broadcasts), to its latest group's end.
  Status join(uint64_t round) {
    const Path& path = world_.rooms()[round % broadcasts_].path;
    Result<ModelViewer*> v = world_.add_viewer(0);
    if (!v) return v.error();
    viewer_ = *v;
    Result<AnnounceConsumer> resolving =
        world_.as(Role::kViewer, [&] { return viewer_->session->announced(path); });
    if (!resolving) return Error{0, "announced: " + resolving.error().message};
    if (Status st = world_.settle("resolving the broadcast"); !st) return st;
    AnnounceEvent e;
    if (resolving->next(e) != Next::Ready || e.kind != AnnounceEvent::Kind::Announce)
      return Error{0, path.str() + " was not announced to the joining viewer"};
    Result<TrackConsumer> track =
        world_.as(Role::kViewer, [&] { return viewer_->session->subscribe(path, "video"); });
    if (!track) return Error{0, "subscribe: " + track.error().message};
    track_ = std::move(*track);
    if (Status st = world_.settle("joining"); !st) return st;
    GroupConsumer group;
    if (track_.next(group) != Next::Ready)
      return Error{0, "the joining viewer got no group of " + path.str() + " (" +
                          (track_.status() == TrackStatus::Aborted ? track_.error().message
                                                                   : std::string("pending")) +
                          ")"};
    return read_to_end(group, viewer_->log, "the latest group");
  }

  // Outside the rounds: the last round's viewer leaves, if there was one.
  void leave() {
    track_ = TrackConsumer();
    if (viewer_) {
      world_.remove_last_viewer();
      viewer_ = nullptr;
    }
  }
  // ... and the relays let go of the track it watched.
  Status reset() {
    leave();
    return world_.let_relays_go();
  }

  // Extra checks of a round (empty: none). Not the relays' one upstream subscription per track:
  // every cold join makes a new one on purpose.
  virtual std::string check() { return {}; }

  ModelWorldConfig config_;
  const uint32_t broadcasts_;
  harness::PayloadSource payloads_;
  Status prepared_;      // what the round's setup outside the measured region came to
  TrackConsumer track_;  // dropped before the world
  ModelViewer* viewer_ = nullptr;
  ModelWorld world_;  // last: destroyed first
};

class Join : public JoinCase {
 public:
  Join(ModelWorldConfig config, uint32_t broadcasts) : JoinCase(std::move(config), broadcasts) {}

  void prepare_round(uint64_t /*round*/) override { prepared_ = reset(); }

  Status run_round(uint64_t round) override {
    if (!prepared_) return prepared_;
    return join(round);
  }
};

class JoinStale final : public Join {
 public:
  JoinStale(ModelWorldConfig config, uint32_t broadcasts) : Join(std::move(config), broadcasts) {}

  Status setup() override {
    if (Status st = JoinCase::setup(); !st) return st;
    // One viewer watches every broadcast and leaves: the relays keep their copies (lingering).
    Result<ModelViewer*> v = world_.add_viewer(0);
    if (!v) return v.error();
    std::vector<TrackConsumer> once;
    for (const ModelRoom& room : world_.rooms()) {
      Result<TrackConsumer> t =
          world_.as(Role::kViewer, [&] { return (*v)->session->subscribe(room.path, "video"); });
      if (!t) return t.error();
      once.push_back(std::move(*t));
    }
    if (Status st = world_.settle("watching every broadcast once"); !st) return st;
    once.clear();
    world_.remove_last_viewer();
    if (Status st = world_.settle("leaving them"); !st) return st;
    world_.expect_current_upstream();
    return {};
  }

  // The last round's viewer leaves; time stands still, so the relays' copies stay.
  void prepare_round(uint64_t /*round*/) override {
    leave();
    prepared_ = world_.settle("the last viewer leaving");
  }

 private:
  std::string check() override { return world_.check_upstream_subscriptions(); }
};

class Leave final : public JoinCase {
 public:
  Leave(ModelWorldConfig config, uint32_t broadcasts) : JoinCase(std::move(config), broadcasts) {}

  void prepare_round(uint64_t round) override {
    prepared_ = reset();
    if (prepared_) prepared_ = join(round);
  }

  Status run_round(uint64_t /*round*/) override {
    if (!prepared_) return Error{0, "the round's join: " + prepared_.error().message};
    world_.as(Role::kViewer, [&] { return viewer_->session->close(0, "leaving"); });
    return world_.settle("the viewer's leaving");
  }

 private:
  std::string check() override {
    GroupConsumer g;
    const Next n = track_.next(g);
    if (n != Next::Aborted && n != Next::End)
      return "the leaving viewer's subscription did not end with its session";
    return {};
  }
};

template <class CaseT>
Result<std::unique_ptr<harness::Case>> make_join_case(const harness::CaseSpec& spec) {
  Result<ModelWorldConfig> config = model_world_config(spec);
  if (!config) return config.error();
  config->publishers = 1;  // the axes have none: one publisher, its broadcasts under room/
  return std::unique_ptr<harness::Case>(
      new CaseT(*config, static_cast<uint32_t>(spec.integer("broadcasts"))));
}

std::vector<harness::AxisSpec> join_axes() {
  harness::AxisSpec relays = relays_axis();
  relays.sweep_ints = {1, 2, 8};
  return with_network_axes(
      {harness::AxisSpec::version(), relays,
       harness::AxisSpec::integer("broadcasts", "broadcasts announced under room/", 1, 1, 4096,
                                  {1, 64, 1024})});
}

harness::ScenarioDef join_scenario() {
  harness::ScenarioDef def;
  def.name = "join";
  def.benches = {"model", "relay"};
  def.summary =
      "a new viewer connects, resolves one of `broadcasts` broadcasts, subscribes and reads its "
      "latest group (a cold join: the relays hold no subscription of it)";
  def.axes = join_axes();
  def.make = make_join_case<Join>;
  def.check_axes = check_world_axes;
  return def;
}

harness::ScenarioDef leave_scenario() {
  harness::ScenarioDef def;
  def.name = "leave";
  def.benches = {"model", "relay"};
  def.summary = "a viewer that joined one of `broadcasts` broadcasts (as in join) leaves";
  def.axes = join_axes();
  def.make = make_join_case<Leave>;
  def.check_axes = check_world_axes;
  return def;
}

}  // namespace

harness::ScenarioDef join_stale_scenario() {
  harness::ScenarioDef def;
  def.name = "join_stale";
  def.benches = {"relay"};
  def.summary =
      "a new viewer joins one of `broadcasts` broadcasts whose publisher went quiet; the relays "
      "still hold its old group and serve it without asking upstream";
  def.axes = join_axes();
  def.make = make_join_case<JoinStale>;
  def.check_axes = check_world_axes;
  return def;
}

MOQ_REGISTER_SCENARIO(join_scenario);
MOQ_REGISTER_SCENARIO(join_stale_scenario);
MOQ_REGISTER_SCENARIO(leave_scenario);

}  // namespace moq::scenarios
