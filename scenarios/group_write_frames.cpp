// group_write_frames: the data model alone (model/data), no session, no transport.
//
// Each round a track producer appends one group of `frames` frames of `frame_size` bytes and
// finishes it; a reader task with a live TrackConsumer reads every frame of every group. The
// executor runs after every `batch` frames written, so batch=1 wakes the reader once per frame
// and batch>=frames once per group. The track keeps one cached group, so the previous group's
// storage goes back to the track's pool and a warm round reuses it. The round's payload
// references are taken before it starts, so the measured round is the group's work: appends,
// wake-ups, reads, the group's creation and recycling, and the reader's delivery record.
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/payloads.h"
#include "harness/runner/registrar.h"
#include "harness/runner/stack_probe.h"
#include "model/data/data.h"
#include "scenarios/bench_util.h"
#include "scenarios/common_axes.h"
#include "scenarios/memory_costs.h"
#include "sim/clock.h"

namespace moq::scenarios {

namespace {

// Reads every frame of every group of a track, in order, into a delivery log: each wake-up
// takes every frame written so far in one pass (frame(i) over [index(), frame_count()), as a
// session's sender does), then next() for the end or an abort.
class TrackReader final : public Task {
 public:
  TrackReader(Executor& executor, TrackConsumer track, harness::DeliveryLog& log)
      : Task(executor, "group_write_frames reader"),
        track_(std::move(track)),
        log_(&log),
        waiter_(*this) {}

  Poll poll() override {
    for (;;) {
      if (!group_) {
        switch (track_.next(group_)) {
          case Next::Ready:
            break;
          case Next::Pending:
            waiter_.wait(track_.groups());
            return Poll::Pending;
          case Next::End:
          case Next::Aborted:
            failure_ = "the track ended: " + track_.error().message;
            return Poll::Done;
        }
      }
      const size_t written = group_.frame_count();
      for (size_t i = group_.index(); i < written; ++i)
        log_->record(group_.frame(i).chunks);
      group_.seek(written);
      FrameView frame;
      switch (group_.next(frame)) {
        case Next::Ready:  // a frame written since frame_count() was read: none, single-threaded
          log_->record(frame.chunks);
          continue;
        case Next::Pending:
          waiter_.wait(group_.readable());
          return Poll::Pending;
        case Next::End:
          group_ = GroupConsumer();
          continue;
        case Next::Aborted:
          failure_ = "group aborted: " + group_.error().message;
          return Poll::Done;
      }
    }
  }

  const std::string& failure() const { return failure_; }

 private:
  TrackConsumer track_;
  GroupConsumer group_;
  harness::DeliveryLog* log_;
  Waiter waiter_;
  std::string failure_;
};

class GroupWriteFrames final : public harness::Case {
 public:
  GroupWriteFrames(uint64_t frames, uint64_t batch, uint64_t frame_size)
      : frames_(frames), batch_(batch), frame_size_(frame_size) {}

  Status setup() override {
    // Three rounds' worth of distinct payloads: consecutive rounds deliver different bytes.
    payloads_ = harness::PayloadSource(frame_size_, kDistinctRounds * frames_);
    TrackInfo info;
    info.cache.max_groups = 1;
    track_ = TrackProducer::create("video", clock_, info);
    log_.reserve(frames_);
    staged_.resize(frames_);
    reader_ = &scope_.spawn<TrackReader>(executor_, track_.consume(), log_);
    probe_.set_executor(&executor_);
    return settle(executor_, "setup");
  }

  // The round's payload references are taken here, outside the measured round: what the round
  // pays for is the group's work, not the payload source's.
  void prepare_round(uint64_t round) override {
    log_.clear();
    const uint64_t base = (round % kDistinctRounds) * frames_;
    for (uint64_t k = 0; k < frames_; ++k)
      staged_[k] = payloads_.payload(base + k);
  }

  Status run_round(uint64_t round) override {
    Result<GroupProducer> made = track_.append_group();
    if (!made) return made.error();
    GroupProducer& group = *made;
    uint64_t until_settle = batch_;
    for (uint64_t k = 0; k < frames_; ++k) {
      if (!group.append(round * frames_ + k, std::move(staged_[k]))) [[unlikely]]
        return group.write_frame(round * frames_ + k, staged_[k]);
      if (--until_settle == 0) {
        until_settle = batch_;
        if (Status st = settle(executor_, "writing"); !st) return st;
      }
    }
    if (Status st = group.finish(); !st) return st;
    if (Status st = settle(executor_, "finishing the group"); !st) return st;
    if (!reader_->failure().empty()) return Error{0, "reader: " + reader_->failure()};
    return {};
  }

  harness::RoundCheck check_round(uint64_t round) override {
    harness::DeliveryHasher expected;
    const uint64_t base = (round % kDistinctRounds) * frames_;
    for (uint64_t k = 0; k < frames_; ++k)
      expected.add_frame(payloads_.payload(base + k));
    return {log_.delivery(), expected.result(), {}};
  }

  harness::StackCounts stack_counts() const override { return probe_.read(); }

 private:
  static constexpr uint64_t kDistinctRounds = 3;
  const uint64_t frames_, batch_, frame_size_;
  sim::VirtualClock clock_;
  Executor executor_{clock_};
  harness::PayloadSource payloads_;
  std::vector<Bytes> staged_;  // this round's payloads, moved into the group as it is written
  TrackProducer track_;
  harness::DeliveryLog log_;
  harness::StackProbe probe_;
  Scope scope_{"group_write_frames"};  // after everything its task refers to: destroyed first
  TrackReader* reader_ = nullptr;
};

harness::ScenarioDef group_write_frames_scenario() {
  harness::ScenarioDef def;
  def.name = "group_write_frames";
  def.summary =
      "the data model alone: each round a track producer writes one group of `frames` frames and "
      "a reader task reads them, woken after every `batch` frames written";
  def.axes = {
      frames_axis(),
      harness::AxisSpec::integer("batch", "frames written between executor runs", 1, 1, 1 << 16,
                                 {1, 16}),
      frame_size_axis(),
  };
  def.check_axes = [](const harness::CaseSpec& spec) -> Status {
    Result<GroupShape> group = group_shape(spec);
    if (!group) return group.error();
    return {};
  };
  def.make = [](const harness::CaseSpec& spec) -> Result<std::unique_ptr<harness::Case>> {
    Result<GroupShape> group = group_shape(spec);
    if (!group) return group.error();
    auto batch = static_cast<uint64_t>(spec.integer("batch"));
    return std::unique_ptr<harness::Case>(
        new GroupWriteFrames(group->frames, batch, group->frame_size));
  };
  // The group being written and the one cached, the reader's log (with the round's staged payload
  // references, well inside a viewer frame's cost), the payload block.
  def.estimate_memory = [](const harness::CaseSpec& spec) {
    const auto frames = static_cast<uint64_t>(spec.integer("frames"));
    const auto frame_size = static_cast<uint64_t>(spec.integer("frame_size"));
    harness::MemoryEstimate e;
    e.add("the process", kProcessBytes, {});
    e.add("the cached and the written group", kCachedFrameBytes,
          {{"groups", 2}, {"frames", frames}}, {"frames"});
    e.add("the reader's delivery log", kViewerFrameBytes, {{"frames", frames}}, {"frames"});
    e.add("the payload block", 1,
          {{"copies", 2}, {"bytes", frame_size + uint64_t{8} * 3 * frames}});
    return e;
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(group_write_frames_scenario);

}  // namespace moq::scenarios
