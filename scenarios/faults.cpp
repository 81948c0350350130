// Fault scenarios (harness/runner/faults.h): a live world (scenarios/model_world.h over
// sim/memory and a seeded sim/net link) where something goes wrong on purpose, and a check that
// the stack keeps what the protocol promises:
//  - every viewer receives each group whole, or sees it end with a reset or an error (or never
//    sees it, when the reset overtook its first bytes); a group the fault did not touch arrives
//    whole (viewers subscribe with no Max Age, so only the fault lets a group go);
//  - nothing is delivered twice or out of order within a group, and every byte is the byte the
//    publisher wrote there (scenarios/fault_check.h);
//  - nothing hangs (every run of the world has a step budget);
//  - once every session is gone no task and no stream is left (and, under the sanitizers of
//    ./tools/test, no leak or undefined behaviour).
// A seed draws everything that varies: the link (latency, jitter, bandwidth and its own seed),
// the viewers, the groups, frame sizes, and when the fault strikes. The same fault, version and
// seed give the same trace digest.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "harness/runner/delivery.h"
#include "harness/runner/faults.h"
#include "scenarios/arrival_viewer.h"
#include "scenarios/fault_check.h"
#include "scenarios/model_world.h"
#include "sim/net/link.h"

namespace moq::scenarios {

namespace {

constexpr uint64_t kMs = 1'000'000;

// What a seed draws for every fault alike.
struct Shape {
  uint32_t viewers = 1;
  uint64_t groups = 6;
  uint64_t frames = 4;  // per group
  size_t frame_size = 64;
  uint64_t frame_ns = 10 * kMs;  // the publisher's pace
  uint64_t fault_group = 1;      // the fault strikes before frame fault_frame of this group
  uint64_t fault_frame = 1;      // (an index into the groups written, not a sequence)
  sim::net::LinkConfig link;
};

// The link carries several times the publisher's rate, so nothing but the fault holds data up.
Shape draw_shape(sim::net::SeededRandom& rng, uint64_t seed) {
  Shape s;
  s.viewers = 1 + static_cast<uint32_t>(rng.up_to(2));
  s.groups = 5 + rng.up_to(5);
  s.frames = 2 + rng.up_to(6);
  s.frame_size = 16 + rng.up_to(1184);
  s.frame_ns = (5 + rng.up_to(15)) * kMs;
  s.fault_group = 1 + rng.up_to(s.groups - 3);
  s.fault_frame = 1 + rng.up_to(s.frames - 2);
  const uint64_t rate_bps = (s.frame_size + 16) * 8 * 1'000'000'000 / s.frame_ns;
  s.link.latency_ns = rng.up_to(5) * kMs;
  s.link.jitter_ns = rng.up_to(2) * kMs;
  s.link.bandwidth_bps = rate_bps * (4 + rng.up_to(12));
  s.link.seed = seed;
  return s;
}

// Before writing frame k of the g-th group: go on, or what the fault does instead.
enum class Step : uint8_t { Write, AbortGroup, Stop };

// One subscription of one viewer and the groups it is answerable for: those appended while it
// was subscribed, until its track ended.
struct Watch {
  std::unique_ptr<FaultViewer> sink;
  size_t viewer = 0;
  uint64_t from_seq = 0;
  std::optional<uint64_t> to_seq;  // the last group appended before its track ended
};

class FaultRun {
 public:
  FaultRun(session::Version version, uint64_t seed) : version_(version), rng_(seed) {
    shape_ = draw_shape(rng_, seed);
  }

  Shape& shape() { return shape_; }
  const Shape& shape() const { return shape_; }
  sim::net::SeededRandom& rng() { return rng_; }
  ModelWorld& world() { return world_; }
  harness::Fnv64& trace() { return trace_; }
  const Written& written() const { return written_; }

  Status build(uint32_t relays, uint64_t conn_window = LinkLimits{}.conn_window) {
    hops_ = relays + 1;
    ModelWorldConfig config;
    config.version = version_;
    config.viewers = shape_.viewers;
    config.relays = relays;
    config.link = shape_.link;
    config.conn_window = conn_window;
    config.cached_groups = static_cast<uint32_t>(shape_.groups + 2);
    // The publisher's track keeps every group (cached_groups), so a FETCH finds any of them.
    return world_.build(config);
  }

  // Viewer v subscribes (again) to the publisher's track with no Max Age: a group is let go only
  // by a fault, never by the stack's own choice.
  Status subscribe(size_t v) {
    ModelViewer& viewer = world_.viewers()[v];
    TrackPreferences prefs;
    prefs.max_age_ms = UINT64_MAX / kMs;
    Result<TrackConsumer> sub = world_.as(Role::kViewer, [&] {
      return viewer.session->subscribe(world_.publishers()[0].path, "video", prefs);
    });
    if (!sub) return Error{0, "viewer " + std::to_string(v) + ": " + sub.error().message};
    Watch w;
    w.viewer = v;
    w.from_seq = next_seq_;
    w.sink = std::make_unique<FaultViewer>(
        "viewer " + std::to_string(v) + " subscription " + std::to_string(watches_.size()),
        shape_.frame_size, trace_);
    world_.as(Role::kViewer,
              [&] { scope_.spawn<ArrivalViewer>(world_.executor(), std::move(*sub), *w.sink); });
    watches_.push_back(std::move(w));
    return world_.settle("subscribing");
  }
  Status subscribe_all() {
    for (size_t v = 0; v < world_.viewers().size(); ++v)
      if (Status st = subscribe(v); !st) return st;
    return {};
  }
  std::vector<Watch>& watches() { return watches_; }

  // Writes `count` groups at the shape's pace, asking `at` before each frame.
  Status write_groups(uint64_t count, const std::function<Result<Step>(uint64_t, uint64_t)>& at) {
    TrackProducer& track = world_.publishers()[0].track;
    for (uint64_t i = 0; i < count; ++i, ++groups_written_) {
      Result<GroupProducer> group = track.append_group();
      if (!group) return group.error();
      const uint64_t seq = group->sequence();
      next_seq_ = seq + 1;
      WrittenGroup& w = written_[seq];
      for (uint64_t k = 0; k < shape_.frames; ++k) {
        Result<Step> step = at(groups_written_, k);
        if (!step) return step.error();
        note_ended_tracks(seq);  // a track the fault ended owes nothing from this group on
        if (*step == Step::Stop) return {};
        if (*step == Step::AbortGroup) {
          affected_.insert(seq);
          group->abort(Error{0x2a, "fault: the publisher reset the group"});
          break;
        }
        if (Status st = group->write_frame(k, fault_payload(seq, k, shape_.frame_size)); !st)
          return st;
        ++w.frames;
        if (k + 1 == shape_.frames) {
          if (Status st = group->finish(); !st) return st;
          w.finished = true;
          w.finished_ns = world_.executor().now_ns();
        }
        if (Status st = world_.pass_time(shape_.frame_ns); !st) return st;
        note_ended_tracks(seq);
      }
    }
    return {};
  }
  // A FETCH read to where it ended: whole or cut short.
  void fetched(uint64_t frames, bool whole) {
    fetch_frames_ += frames;
    ++(whole ? fetches_whole_ : fetches_cut_);
  }
  // The fault strikes now: a subscription it ends owes only the groups that had time to cross
  // every hop whole before (see finish()).
  void strike() { strike_ns_ = world_.executor().now_ns(); }
  // A group the fault touched: no viewer owes it whole.
  void affected(uint64_t seq) { affected_.insert(seq); }
  uint64_t next_seq() const { return next_seq_; }

  // Runs the world until nothing is left on the way.
  Status drain() {
    if (Status st = world_.settle("draining"); !st) return st;
    note_ended_tracks(next_seq_ == 0 ? 0 : next_seq_ - 1);
    return {};
  }

  // Checks every subscription, tears the world down and checks nothing is left.
  harness::FaultOutcome finish(std::string failure) {
    harness::FaultOutcome out;
    uint64_t whole = 0, early = 0, frames = 0, unseen = 0;
    // A group still crossing the hops when a fault ended its subscription may be reset on the
    // way (a relay resets what it still sends when its upstream goes): owed whole are those
    // finished long enough before the fault to have crossed every hop.
    const uint64_t group_bits = (shape_.frame_size + 16) * shape_.frames * 8;
    const uint64_t crossing = hops_ * (shape_.link.latency_ns + shape_.link.jitter_ns +
                                       group_bits * 1'000'000'000 / shape_.link.bandwidth_bps) +
                              kMs;
    for (Watch& w : watches_) {
      std::set<uint64_t> expected;
      for (const auto& [seq, g] : written_) {
        if (seq < w.from_seq || (w.to_seq && seq > *w.to_seq)) continue;  // not its group
        ++unseen;
        const bool crossed = !w.to_seq || !strike_ns_ || g.finished_ns + crossing <= *strike_ns_;
        if (g.finished && crossed && !affected_.count(seq)) expected.insert(seq);
      }
      // Checked even after a failure, for the counts of the summary; the first failure stays.
      std::string broken = w.sink->check(written_, expected);
      if (failure.empty()) failure = std::move(broken);
      whole += w.sink->whole();
      early += w.sink->ended_early();
      frames += w.sink->frames();
    }
    unseen -= std::min(unseen, whole + early);
    // The viewers' tasks go first (dropping their subscriptions), then every session.
    world_.as(Role::kViewer, [&] { scope_.cancel(Error{0, "fault run over"}); });
    const std::string left = world_.teardown_leftovers();
    if (failure.empty() && !left.empty()) failure = "after teardown: " + left;
    out.failure = std::move(failure);
    out.trace = harness::hash_hex(trace_.value());
    out.summary = std::to_string(watches_.size()) + " subscriptions over " +
                  std::to_string(written_.size()) + " groups: " + std::to_string(whole) +
                  " whole, " + std::to_string(early) + " ended early, " + std::to_string(unseen) +
                  " unseen; " + std::to_string(frames) + " frames";
    if (fetches_whole_ + fetches_cut_ > 0)
      out.summary = std::to_string(fetches_whole_ + fetches_cut_) +
                    " FETCHes: " + std::to_string(fetches_whole_) + " whole, " +
                    std::to_string(fetches_cut_) + " cut short; " + std::to_string(fetch_frames_) +
                    " frames";
    return out;
  }

 private:
  // A subscription whose track ended is answerable only for groups appended before.
  void note_ended_tracks(uint64_t last_seq) {
    for (Watch& w : watches_)
      if (!w.to_seq && w.sink->track_over()) w.to_seq = last_seq;
  }

  session::Version version_;
  sim::net::SeededRandom rng_;
  Shape shape_;
  harness::Fnv64 trace_;
  Written written_;
  std::set<uint64_t> affected_;
  uint64_t next_seq_ = 0;
  uint64_t groups_written_ = 0;
  uint64_t fetches_whole_ = 0, fetches_cut_ = 0, fetch_frames_ = 0;
  uint32_t hops_ = 1;                  // links between the publisher and a viewer
  std::optional<uint64_t> strike_ns_;  // when a fault that ends subscriptions struck
  // Declaration order is teardown order in reverse: the viewer tasks (scope_) go before the
  // world their subscriptions belong to.
  ModelWorld world_;
  std::vector<Watch> watches_;
  Scope scope_{"fault viewers"};
};

using FaultBody = std::function<Status(FaultRun&)>;

// True before the frame the seed chose for the fault (frame k of the g-th group written).
bool strikes(const FaultRun& run, uint64_t g, uint64_t k) {
  return g == run.shape().fault_group && k == run.shape().fault_frame;
}

// The subscriptions must outlive a fault that does not end them.
Status expect_open(FaultRun& run) {
  for (Watch& w : run.watches())
    if (w.sink->track_over())
      return Error{0, "viewer " + std::to_string(w.viewer) +
                          ": the subscription ended, though the fault does not end it"};
  return {};
}

// The publisher resets one group mid-group; the subscription goes on.
Status group_reset(FaultRun& run) {
  if (Status st = run.build(0); !st) return st;
  if (Status st = run.subscribe_all(); !st) return st;
  auto at = [&](uint64_t g, uint64_t k) -> Result<Step> {
    return strikes(run, g, k) ? Step::AbortGroup : Step::Write;
  };
  if (Status st = run.write_groups(run.shape().groups, at); !st) return st;
  if (Status st = run.drain(); !st) return st;
  return expect_open(run);
}

// A viewer's FETCH of a long group is cut by its session closing (either end, by the seed);
// the other viewers' FETCHes complete. The fetched frames are checked as they are read.
Status close_mid_fetch(FaultRun& run) {
  Shape& s = run.shape();
  s.frames *= 4;
  if (Status st = run.build(0); !st) return st;
  auto never = [](uint64_t, uint64_t) -> Result<Step> { return Step::Write; };
  if (Status st = run.write_groups(s.groups, never); !st) return st;
  if (Status st = run.drain(); !st) return st;
  const uint64_t seq = run.written().rbegin()->first - run.rng().up_to(s.groups - 1);
  ModelWorld& world = run.world();
  std::vector<session::FetchConsumer> fetches;
  for (ModelViewer& v : world.viewers()) {
    Result<session::FetchConsumer> f = world.as(
        Role::kViewer, [&] { return v.session->fetch(world.publishers()[0].path, "video", seq); });
    if (!f) return Error{0, "FETCH: " + f.error().message};
    fetches.push_back(std::move(*f));
  }
  // Somewhere between the request and twice the time the group takes on the link.
  const uint64_t group_ns =
      s.frames * (s.frame_size + 16) * 8 * 1'000'000'000 / s.link.bandwidth_bps;
  if (Status st = world.pass_time(run.rng().up_to(2 * group_ns + s.link.latency_ns)); !st)
    return st;
  const bool viewer_closes = run.rng().up_to(1) == 1;
  ModelViewer& cut = world.viewers()[0];
  if (viewer_closes) {
    world.as(Role::kViewer, [&] { cut.session->close(0, "fault: session closed mid-fetch"); });
  } else {
    world.as(Role::kPublisher, [&] { cut.serving->close(0, "fault: session closed mid-fetch"); });
  }
  if (Status st = run.drain(); !st) return st;
  const WrittenGroup& w = run.written().at(seq);
  for (size_t v = 0; v < fetches.size(); ++v) {
    const std::string who =
        "viewer " + std::to_string(v) + " FETCH of group " + std::to_string(seq);
    FrameView frame;
    uint64_t k = 0;
    for (;;) {
      const Next next = fetches[v].next(frame);
      if (next == Next::Ready) {
        const Bytes expected = fault_payload(seq, k, s.frame_size);
        std::string got;
        for (const Bytes& c : frame.chunks)
          got.append(c.view());
        if (got != expected.view())
          return Error{0, who + ": frame " + std::to_string(k) + " is not the frame written there"};
        run.trace().add_u64(k++);
        continue;
      }
      run.trace().add_u64(static_cast<uint64_t>(next) + 3000);
      if (next == Next::Pending) return Error{0, who + ": still pending once the world is quiet"};
      if (next == Next::End && k != w.frames)
        return Error{0, who + ": ended after " + std::to_string(k) + " of " +
                            std::to_string(w.frames) + " frames with no error"};
      if (next == Next::Aborted && v != 0)
        return Error{
            0, who + ": aborted though its session stayed open: " + fetches[v].error().message};
      run.fetched(k, next == Next::End);
      break;
    }
  }
  return {};
}

// The publisher's relay session goes mid-group (its connection with it); the viewers, on the
// relay, see the group end early and their subscriptions end.
Status publisher_vanish(FaultRun& run) {
  if (Status st = run.build(1); !st) return st;
  if (Status st = run.subscribe_all(); !st) return st;
  bool vanished = false;
  auto at = [&](uint64_t g, uint64_t k) -> Result<Step> {
    if (!strikes(run, g, k)) return Step::Write;
    vanished = true;
    run.strike();
    run.affected(run.next_seq() - 1);
    if (Status st = run.world().drop_publisher(0); !st) return st.error();
    return Step::Stop;
  };
  if (Status st = run.write_groups(run.shape().groups, at); !st) return st;
  if (!vanished) return Error{0, "the fault never struck"};
  if (Status st = run.world().pass_time(5'000 * kMs); !st) return st;
  if (Status st = run.drain(); !st) return st;
  for (Watch& w : run.watches())
    if (!w.sink->track_over())
      return Error{0, "viewer " + std::to_string(w.viewer) +
                          ": the subscription is still open after its publisher vanished"};
  return {};
}

// Every connection's flow-control window is a few bytes: everything arrives whole, slowly.
Status tiny_window(FaultRun& run) {
  Shape& s = run.shape();
  s.frame_size = 16 + run.rng().up_to(48);
  s.groups = 4;
  s.link.latency_ns = run.rng().up_to(1) * kMs;
  if (Status st = run.build(0, 1 + run.rng().up_to(63)); !st) return st;
  if (Status st = run.subscribe_all(); !st) return st;
  auto never = [](uint64_t, uint64_t) -> Result<Step> { return Step::Write; };
  if (Status st = run.write_groups(s.groups, never); !st) return st;
  if (Status st = run.drain(); !st) return st;
  return expect_open(run);
}

// The publisher's side sends GOAWAY mid-group: the live subscriptions go on whole, and a new
// request on a session that received it fails.
Status goaway(FaultRun& run) {
  if (Status st = run.build(0); !st) return st;
  if (Status st = run.subscribe_all(); !st) return st;
  ModelWorld& world = run.world();
  auto at = [&](uint64_t g, uint64_t k) -> Result<Step> {
    if (!strikes(run, g, k)) return Step::Write;
    for (ModelViewer& v : world.viewers())
      if (Status st = world.as(Role::kPublisher, [&] { return v.serving->goaway(""); }); !st)
        return st.error();
    return Step::Write;
  };
  if (Status st = run.write_groups(run.shape().groups, at); !st) return st;
  if (Status st = run.drain(); !st) return st;
  for (size_t v = 0; v < world.viewers().size(); ++v) {
    session::Session& viewer = *world.viewers()[v].session;
    if (!viewer.peer_goaway())
      return Error{0, "viewer " + std::to_string(v) + ": the GOAWAY never arrived"};
    Result<TrackConsumer> late =
        world.as(Role::kViewer, [&] { return viewer.subscribe(Path("elsewhere"), "video"); });
    if (late) {
      if (Status st = world.settle("a request after GOAWAY"); !st) return st;
      GroupConsumer g;
      if (late->next(g) != Next::Aborted)
        return Error{0, "viewer " + std::to_string(v) + ": a request after GOAWAY did not fail"};
    }
  }
  return expect_open(run);
}

// The publisher's relay session is dropped mid-group and made again; a viewer whose
// subscription ended subscribes again, and the groups after that arrive whole.
Status relay_reconnect(FaultRun& run) {
  if (Status st = run.build(1 + static_cast<uint32_t>(run.rng().up_to(1))); !st) return st;
  if (Status st = run.subscribe_all(); !st) return st;
  ModelWorld& world = run.world();
  const uint64_t away_ns = run.rng().up_to(50) * kMs;
  auto at = [&](uint64_t g, uint64_t k) -> Result<Step> {
    if (!strikes(run, g, k)) return Step::Write;
    run.strike();
    if (Status st = world.drop_publisher(0); !st) return st.error();
    if (Status st = world.pass_time(away_ns); !st) return st.error();
    if (Status st = world.reconnect_publisher(0); !st) return st.error();
    // Relays let an upstream subscription linger; twice that lets every hop notice.
    if (Status st = world.let_relays_go(); !st) return st.error();
    // Each viewer's latest subscription: if it ended, the viewer subscribes again.
    std::vector<bool> ended(world.viewers().size(), false);
    for (const Watch& w : run.watches())
      ended[w.viewer] = w.sink->track_over();
    for (size_t v = 0; v < ended.size(); ++v)
      if (ended[v])
        if (Status st = run.subscribe(v); !st) return st.error();
    return Step::AbortGroup;  // the group being written is given up
  };
  if (Status st = run.write_groups(run.shape().groups, at); !st) return st;
  if (Status st = run.drain(); !st) return st;
  // Every viewer holds a subscription that is still open and got the groups after the fault.
  for (size_t v = 0; v < world.viewers().size(); ++v) {
    bool open = false;
    for (Watch& w : run.watches())
      open = open || (w.viewer == v && !w.sink->track_over());
    if (!open)
      return Error{0, "viewer " + std::to_string(v) +
                          " has no open subscription after the "
                          "publisher reconnected"};
  }
  return {};
}

harness::FaultDef fault(std::string name, std::string summary, FaultBody body) {
  harness::FaultDef def;
  def.name = std::move(name);
  def.summary = std::move(summary);
  def.run = [body = std::move(body)](const std::string& version_name, uint64_t seed) {
    std::optional<session::Version> version = session::parse_version(version_name);
    if (!version)
      return harness::FaultOutcome{"version '" + version_name + "' has no session engine", {}, {}};
    FaultRun run(*version, seed);
    Status st = body(run);
    return run.finish(st ? std::string() : st.error().message);
  };
  return def;
}

std::vector<harness::FaultDef> faults() {
  return {
      fault("group-reset", "the publisher resets a group stream mid-group", group_reset),
      fault("close-mid-fetch", "a viewer's session closes (either end) during a FETCH",
            close_mid_fetch),
      fault("publisher-vanish", "the publisher's session with its relay goes mid-group",
            publisher_vanish),
      fault("tiny-window", "every connection's flow-control window is 1 to 64 bytes", tiny_window),
      fault("goaway", "the publisher's side sends GOAWAY during live subscriptions", goaway),
      fault("relay-reconnect",
            "the publisher's relay session is dropped mid-group and made again; viewers "
            "subscribe again",
            relay_reconnect),
  };
}

}  // namespace

MOQ_REGISTER_FAULTS(faults);

}  // namespace moq::scenarios
