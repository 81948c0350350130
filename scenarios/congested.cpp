// congested: a live track through a link slower than the publisher's rate, timed on the virtual
// clock. One publisher writes one group of `frames` frames of `frame_size` bytes every `group_ms`,
// a frame every group_ms / frames; each viewer's connection carries overload_pct percent less:
// bandwidth = the payload rate x 100 / overload_pct, one way latency_ms. A round is one group
// duration: each frame is written, then the world runs until the next one is due.
//
// Each viewer is a task woken by its consumers, so it reads a frame when the frame arrives and
// stamps it then. It subscribes newest first with Max Age one group duration (`drop=yes`; on
// moq-transport a SUBGROUP_DELIVERY_TIMEOUT of the same), or with no bound (`drop=no`): the
// publisher then lets a group go once it has waited that long behind a newer one (model/session/
// core/stale_groups.h), and the connection's flow-control window (two frames) keeps what waits
// at the sender, where send order applies, instead of in the link.
//
// Results carry DeliveryTiming: per frame, write -> read; per group and viewer, write of its first
// frame -> read of the last frame the viewer read of it (whole or not), and each viewer's groups
// read whole, ended early by a reset, or never seen. Every round checks the bytes read against
// the frames they claim to be, that a group's frames come once and in order, and that a group
// which ends (not reset) ended whole.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/delivery.h"
#include "harness/runner/payloads.h"
#include "harness/runner/registrar.h"
#include "scenarios/arrival_viewer.h"
#include "scenarios/common_axes.h"
#include "scenarios/memory_costs.h"
#include "scenarios/model_world.h"

namespace moq::scenarios {

namespace {

// Payloads cycle over this many groups, so consecutive groups deliver different bytes.
constexpr uint64_t kDistinctGroups = 3;
constexpr uint64_t kNsPerMs = 1'000'000;

struct CongestedShape {
  uint64_t frames = 8;
  uint64_t frame_size = 1000;
  uint64_t group_ns = 100 * kNsPerMs;
  uint64_t overload_pct = 200;
  bool drop = true;
};

// When the publisher wrote frame k of the group with sequence seq: the pace is exact on the
// virtual clock, so it follows from the first group's sequence and start.
struct Pace {
  uint64_t first_seq = 0;
  uint64_t first_ns = 0;
  CongestedShape shape;
  uint64_t written_ns(uint64_t seq, uint64_t k) const {
    return first_ns + (seq - first_seq) * shape.group_ns + k * (shape.group_ns / shape.frames);
  }
};

// What one viewer saw in the current round (cleared between rounds, reserved: recording inside
// the measured round allocates nothing).
class ViewerRound final : public ArrivalSink {
 public:
  std::vector<uint64_t> frame_latency;
  std::vector<uint64_t> group_latency;
  std::vector<std::pair<uint64_t, uint64_t>> frames;  // (sequence, index) in read order
  results::ViewerGroups groups;
  harness::DeliveryLog log;
  std::string first_broken;  // the first broken promise, if any
  const Pace* pace = nullptr;

  void clear() {
    frame_latency.clear();
    group_latency.clear();
    frames.clear();
    groups = {};
    log.clear();
  }

  void frame(uint64_t seq, uint64_t index, const FrameView& f, uint64_t now_ns) override {
    frame_latency.push_back(now_ns - pace->written_ns(seq, index));
    frames.emplace_back(seq, index);
    log.record(f.chunks);
  }
  void group_ended(uint64_t seq, GroupEnd how, uint64_t read, uint64_t last_read_ns) override {
    const bool whole = how == GroupEnd::Finished && read == pace->shape.frames;
    if (how == GroupEnd::Finished && !whole)
      broken("group " + std::to_string(seq) + " ended after " + std::to_string(read) + " of its " +
             std::to_string(pace->shape.frames) + " frames without a reset");
    ++(whole ? groups.whole : groups.reset);
    if (read > 0) group_latency.push_back(last_read_ns - pace->written_ns(seq, 0));
  }
  void skipped(uint64_t count) override { groups.skipped += count; }
  void track_ended(Next, const Error& error) override {
    broken("the subscription ended: " + error.message);
  }
  void broken(std::string why) override {
    if (first_broken.empty()) first_broken = std::move(why);
  }
};

class Congested final : public harness::Case {
 public:
  Congested(ModelWorldConfig config, CongestedShape shape)
      : config_(std::move(config)), shape_(shape) {}

  harness::StackCounts stack_counts() const override { return world_.probe().read(); }

  Status setup() override {
    if (Status st = world_.build(config_); !st) return st;
    payloads_ = harness::PayloadSource(shape_.frame_size, kDistinctGroups * shape_.frames);
    pace_.shape = shape_;
    ModelPublisher& pub = world_.publishers()[0];
    std::vector<ModelViewer>& viewers = world_.viewers();
    rounds_.resize(viewers.size());
    TrackPreferences prefs;
    prefs.max_age_ms = shape_.drop ? shape_.group_ns / kNsPerMs : UINT64_MAX / kNsPerMs;
    for (size_t v = 0; v < viewers.size(); ++v) {
      // Frames a viewer may read in one round: this group's and what older ones still deliver.
      const size_t most = shape_.frames * (ArrivalViewer::kSlots + 1);
      ViewerRound& r = rounds_[v];
      r.pace = &pace_;
      r.frame_latency.reserve(most);
      r.group_latency.reserve(ArrivalViewer::kSlots + 2);
      r.frames.reserve(most);
      r.log.reserve(most);
      Result<TrackConsumer> sub = world_.as(
          Role::kViewer, [&] { return viewers[v].session->subscribe(pub.path, "video", prefs); });
      if (!sub) return Error{0, "viewer " + std::to_string(v) + ": " + sub.error().message};
      world_.as(Role::kViewer,
                [&] { scope_.spawn<ArrivalViewer>(world_.executor(), std::move(*sub), r); });
    }
    return world_.settle("subscribing");
  }

  void prepare_round(uint64_t /*round*/) override {
    for (ViewerRound& r : rounds_)
      r.clear();
  }

  Status run_round(uint64_t round) override {
    TrackProducer& track = world_.publishers()[0].track;
    Result<GroupProducer> group = track.append_group();
    if (!group) return group.error();
    if (round == 0) {
      pace_.first_seq = group->sequence();
      pace_.first_ns = world_.executor().now_ns();
    }
    const uint64_t frame_ns = shape_.group_ns / shape_.frames;
    for (uint64_t k = 0; k < shape_.frames; ++k) {
      const Bytes& payload = payloads_.payload(payload_index(group->sequence(), k));
      if (Status st = group->write_frame(round * shape_.frames + k, payload); !st) return st;
      if (k + 1 == shape_.frames) {
        if (Status st = group->finish(); !st) return st;
      }
      // The last frame's interval runs to the next group (the round's end).
      const uint64_t next = k + 1 == shape_.frames ? shape_.group_ns - k * frame_ns : frame_ns;
      if (Status st = world_.pass_time(next); !st) return st;
    }
    return {};
  }

  harness::RoundCheck check_round(uint64_t round) override {
    harness::DeliveryCombiner delivered, expected;
    std::string broken;
    for (size_t v = 0; v < rounds_.size(); ++v) {
      ViewerRound& r = rounds_[v];
      harness::DeliveryHasher h;
      for (const auto& [seq, k] : r.frames)
        h.add_frame(payloads_.payload(payload_index(seq, k)));
      delivered.add(r.log.delivery());
      expected.add(h.result());
      if (broken.empty() && !r.first_broken.empty())
        broken = "viewer " + std::to_string(v) + ": " + r.first_broken;
      if (broken.empty()) broken = check_order(r);
      if (round >= samples_.size()) samples_.resize(round + 1);
      RoundSamples& s = samples_[round];
      s.frame_latency.insert(s.frame_latency.end(), r.frame_latency.begin(), r.frame_latency.end());
      s.group_latency.insert(s.group_latency.end(), r.group_latency.begin(), r.group_latency.end());
      s.groups.push_back(r.groups);
    }
    return {delivered.result(), expected.result(), broken};
  }

  std::optional<results::DeliveryTiming> delivery_timing(uint64_t first_measured) const override {
    results::DeliveryTiming t;
    t.group_duration_ns = shape_.group_ns;
    t.viewers.resize(rounds_.size());
    std::vector<uint64_t> frames, groups;
    for (uint64_t round = first_measured; round < samples_.size(); ++round) {
      const RoundSamples& s = samples_[round];
      frames.insert(frames.end(), s.frame_latency.begin(), s.frame_latency.end());
      groups.insert(groups.end(), s.group_latency.begin(), s.group_latency.end());
      for (size_t v = 0; v < s.groups.size(); ++v) {
        t.viewers[v].whole += s.groups[v].whole;
        t.viewers[v].reset += s.groups[v].reset;
        t.viewers[v].skipped += s.groups[v].skipped;
      }
    }
    t.frame_latency_ns = results::latency_stats(frames);
    t.group_latency_ns = results::latency_stats(groups);
    return t;
  }

  // Enough groups for the viewers' caches and the backlog to reach their steady state.
  uint32_t min_warmup_rounds() const override { return CacheLimits{}.max_groups + 4; }

 private:
  struct RoundSamples {
    std::vector<uint64_t> frame_latency;
    std::vector<uint64_t> group_latency;
    std::vector<results::ViewerGroups> groups;  // per viewer
  };

  uint64_t payload_index(uint64_t seq, uint64_t k) const {
    return (seq % kDistinctGroups) * shape_.frames + k;
  }

  // Within a group, frames come once each and in order from the first.
  static std::string check_order(const ViewerRound& r) {
    for (size_t i = 0; i < r.frames.size(); ++i) {
      const auto& [seq, k] = r.frames[i];
      // The viewer numbers frames by their order in the group; a repeat or a gap would show as
      // a payload that does not match (check_round's hashes).
      for (size_t j = i + 1; j < r.frames.size(); ++j)
        if (r.frames[j].first == seq && r.frames[j].second <= k)
          return "group " + std::to_string(seq) + ": frame " + std::to_string(k) +
                 " read again or out of order";
    }
    return {};
  }

  ModelWorldConfig config_;
  const CongestedShape shape_;
  Pace pace_;
  harness::PayloadSource payloads_;
  std::vector<ViewerRound> rounds_;  // per viewer; sized once (the viewers point into it)
  std::vector<RoundSamples> samples_;
  ModelWorld world_;
  Scope scope_{"congested viewers"};  // after the world: its viewers are dropped first
};

// The case's group and pace, or an Error naming the axes and values a rule refuses.
Result<CongestedShape> congested_shape(const harness::CaseSpec& spec) {
  Result<GroupShape> group = group_shape(spec);
  if (!group) return group.error();
  CongestedShape shape;
  shape.frames = group->frames;
  shape.frame_size = group->frame_size;
  shape.group_ns = static_cast<uint64_t>(spec.integer("group_ms")) * kNsPerMs;
  shape.overload_pct = static_cast<uint64_t>(spec.integer("overload_pct"));
  shape.drop = spec.text("drop") == "yes";
  // The publisher's pace is exact on the virtual clock only in whole ns per frame.
  if (shape.group_ns % shape.frames != 0)
    return Error{0, "group_ms=" + std::to_string(spec.integer("group_ms")) + " (" +
                        std::to_string(shape.group_ns) +
                        " ns) does not divide by frames=" + std::to_string(shape.frames) +
                        ": a group's time must split into whole ns per frame"};
  return shape;
}

harness::ScenarioDef congested_scenario() {
  harness::ScenarioDef def;
  def.name = "congested";
  def.summary =
      "a live track through a viewer link slower than the publisher's rate, timed on the "
      "virtual clock: frame and group latency, groups whole, reset or skipped per viewer";
  harness::AxisSpec drop = harness::AxisSpec::choice(
      "drop", "the viewer asks the publisher to let groups older than one group duration go",
      {"yes", "no"});
  def.axes = {
      harness::AxisSpec::version(),
      harness::AxisSpec::integer("viewers", "viewers, each behind its own congested link", 1, 1,
                                 64),
      harness::AxisSpec::integer("overload_pct",
                                 "the publisher's payload rate in percent of a viewer link's "
                                 "bandwidth",
                                 200, 10, 1000, {200}),
      harness::AxisSpec::integer("frames", "frames per group", 8, 1, 256),
      harness::AxisSpec::integer("group_ms", "one group every this many ms (virtual time)", 100, 1,
                                 10'000),
      harness::AxisSpec::integer("latency_ms", "one way latency of a viewer's link", 10, 0, 1000),
      drop,
      frame_size_axis(),
  };
  def.check_axes = [](const harness::CaseSpec& spec) -> Status {
    Result<CongestedShape> shape = congested_shape(spec);
    if (!shape) return shape.error();
    return {};
  };
  def.make = [](const harness::CaseSpec& spec) -> Result<std::unique_ptr<harness::Case>> {
    Result<session::Version> version = case_version(spec.version());
    if (!version) return version.error();
    Result<CongestedShape> shaped = congested_shape(spec);
    if (!shaped) return shaped.error();
    const CongestedShape shape = *shaped;
    ModelWorldConfig config;
    config.version = *version;
    config.viewers = static_cast<uint32_t>(spec.integer("viewers"));
    config.cached_groups = 2;
    config.link.latency_ns = static_cast<uint64_t>(spec.integer("latency_ms")) * kNsPerMs;
    const uint64_t rate_bps = shape.frames * shape.frame_size * 8 * 1'000'000'000 / shape.group_ns;
    config.link.bandwidth_bps = std::max<uint64_t>(rate_bps * 100 / shape.overload_pct, 1);
    // Two frames in flight (8 bytes for headers each): one on the link while the next waits.
    config.conn_window = 2 * (shape.frame_size + 8);
    return std::unique_ptr<harness::Case>(new Congested(config, shape));
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(congested_scenario);

}  // namespace moq::scenarios
