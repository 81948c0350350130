// Allocation budget of the data plane: once a track's group pool and vectors are warm, a round
// (publish one group of F frames, a viewer task takes it and reads every frame) allocates the
// same for F = 4 and F = 256 (and in fact nothing). Counts come from moq_alloc_counter (in a
// sanitized build it sees operator new/delete only; every container here uses operator new).
#include <gtest/gtest.h>

#include <iostream>

#include "harness/counters/alloc_counter.h"
#include "tests/data/test_util.h"

namespace moq {
namespace {

// A viewer as a session's group sender would be: follows the track, drains each group.
class ViewerTask : public Task {
 public:
  ViewerTask(Executor& ex, TrackConsumer track)
      : Task(ex, "viewer"), track_(std::move(track)), track_waiter_(*this), group_waiter_(*this) {
    wake();
  }
  Poll poll() override {
    for (;;) {
      if (group_) {
        FrameView f;
        Next n;
        while ((n = group_.next(f)) == Next::Ready) {
          ++frames;
          bytes += f.size;
        }
        if (n == Next::Pending) {
          group_waiter_.wait(group_.readable());
          return Poll::Pending;
        }
        group_ = GroupConsumer();  // End or Aborted: release it
      }
      if (track_.next(group_) != Next::Ready) {
        track_waiter_.wait(track_.groups());
        return Poll::Pending;
      }
    }
  }
  uint64_t frames = 0;
  uint64_t bytes = 0;

 private:
  TrackConsumer track_;
  GroupConsumer group_;
  Waiter track_waiter_;
  Waiter group_waiter_;
};

struct Bench {
  test::World w;
  TrackProducer track;
  ViewerTask* viewer = nullptr;
  Bytes payload = Bytes::copy(std::string(100, 'p'));

  Bench() {
    TrackInfo info;
    info.cache.max_groups = 2;
    track = TrackProducer::create("video", w.clock, info);
    viewer = new ViewerTask(w.executor, track.consume());
    w.executor.run_until_idle();
  }
  ~Bench() { delete viewer; }

  void round(size_t frames) {
    Result<GroupProducer> g = track.append_group();
    ASSERT_TRUE(g);
    for (size_t i = 0; i < frames; ++i)
      ASSERT_TRUE(g->write_frame(i, payload));
    ASSERT_TRUE(g->finish());
    *g = GroupProducer();
    w.executor.run_until_idle();
  }
  counters::AllocSnapshot measure(size_t frames) {
    const uint64_t before = viewer->frames;
    counters::AllocScope scope;
    round(frames);
    counters::AllocSnapshot d = scope.delta();
    EXPECT_EQ(viewer->frames - before, frames);
    return d;
  }
};

TEST(DataAllocations, RoundOf4And256FramesAllocateTheSameOnceWarm) {
  if (!counters::alloc_counting_active()) GTEST_SKIP() << "allocation counting not active";
  Bench b;
  const counters::AllocSnapshot cold = b.measure(256);
  for (int i = 0; i < 4; ++i)
    b.round(256);  // every pooled group state has seen 256 frames
  const counters::AllocSnapshot f4 = b.measure(4);
  const counters::AllocSnapshot f256 = b.measure(256);
  const counters::AllocSnapshot f4_again = b.measure(4);
  std::cout << "coverage=" << counters::alloc_coverage_name(counters::alloc_counting_coverage())
            << " cold 256-frame round: " << cold.allocs << " allocs " << cold.bytes
            << " bytes; warm 4-frame round: " << f4.allocs
            << " allocs; warm 256-frame round: " << f256.allocs << " allocs\n";
  EXPECT_GT(cold.allocs, 0u);  // the counter does see this code allocate when cold
  EXPECT_EQ(f4.allocs, f256.allocs);
  EXPECT_EQ(f4.allocs, 0u);
  EXPECT_EQ(f256.allocs, 0u);
  EXPECT_EQ(f4_again.allocs, 0u);
  EXPECT_EQ(b.track.pooled_groups(), 1u);
}

// A reader that holds a burst of more groups than the pool's floor (8) and lets them all go at
// once, as a viewer with a burst of FETCHes does between rounds: the pool keeps them all, so
// after the first burst no round allocates (fetch_range at bursts above 8 did).
TEST(DataAllocations, ABurstOfGroupsReleasedTogetherIsRecycledWithoutAllocating) {
  if (!counters::alloc_counting_active()) GTEST_SKIP() << "allocation counting not active";
  test::World w;
  TrackInfo info;
  info.cache.max_groups = 1;
  TrackProducer track = TrackProducer::create("fetched groups", w.clock, info);
  const Bytes payload = Bytes::copy(std::string(10, 'p'));
  std::vector<GroupConsumer> held;
  held.reserve(32);
  auto burst = [&] {
    held.clear();  // the previous burst goes back to the pool at once
    for (int g = 0; g < 32; ++g) {
      Result<GroupProducer> group = track.append_group();
      ASSERT_TRUE(group);
      for (int f = 0; f < 4; ++f)
        ASSERT_TRUE(group->write_frame(f, payload));
      ASSERT_TRUE(group->finish());
      held.push_back(group->consume());
    }
  };
  burst();
  burst();
  for (int round = 0; round < 5; ++round) {
    counters::AllocScope scope;
    burst();
    EXPECT_EQ(scope.delta().allocs, 0u) << "round " << round;
  }
}

TEST(DataAllocations, SubscribingAndLeavingIsBoundedAndReleasesEverything) {
  if (!counters::alloc_counting_active()) GTEST_SKIP() << "allocation counting not active";
  Bench b;
  b.round(16);
  // Warm the preference heaps' capacity, then churn: no growth across rounds.
  {
    std::vector<TrackConsumer> warm;
    warm.reserve(8);
    for (int i = 0; i < 8; ++i)
      warm.push_back(b.track.consume());
  }
  counters::AllocScope scope;
  for (int i = 0; i < 100; ++i) {
    TrackConsumer c = b.track.consume();
    GroupConsumer g;
    ASSERT_EQ(c.next(g), Next::Ready);
  }
  const counters::AllocSnapshot d = scope.delta();
  EXPECT_EQ(d.allocs, 0u);
  EXPECT_EQ(d.allocs, d.frees);
}

}  // namespace
}  // namespace moq
