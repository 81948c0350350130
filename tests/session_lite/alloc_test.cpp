// The per-round allocation budget of the fetch path: one publisher session and one viewer
// session over sim/memory, 64-byte frames; a round = the publisher writes one group of F frames
// and the viewer FETCHes it and reads every frame. In steady state a round allocates at most 32
// times, and a 256-frame round at most 4 times more than a 4-frame round (nothing per frame).
// Counts come from harness/counters (operator new only in the sanitized build).
#include <gtest/gtest.h>

#include <cstdio>

#include "harness/counters/alloc_counter.h"
#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

class FetchRound {
 public:
  explicit FetchRound(Version v) : w_(v) {
    pub_ = w_.publish("bench/pub0");
    std::vector<uint8_t> bytes(64);
    for (size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = static_cast<uint8_t>(i * 7 + 1);
    payload_ = Bytes::copy(std::span<const uint8_t>(bytes));
    w_.settle();
  }

  // One round; returns false when the viewer did not get exactly the group.
  bool run(size_t frames) {
    Result<GroupProducer> made = pub_.track.append_group();
    if (!made) return false;
    GroupProducer& group = *made;
    const uint64_t seq = group.sequence();
    for (size_t f = 0; f < frames; ++f) {
      if (!group.write_frame(seq * 1000 + f, payload_)) return false;
    }
    if (!group.finish()) return false;
    Result<session::FetchConsumer> fetched = w_.viewer->fetch(Path("bench/pub0"), "video", seq);
    if (!fetched) return false;
    if (w_.executor.run_until_idle(1'000'000).budget_exhausted) return false;
    size_t got = 0;
    FrameView frame;
    Next n;
    while ((n = fetched->next(frame)) == Next::Ready) {
      if (frame.size != payload_.size()) return false;
      ++got;
    }
    return n == Next::End && got == frames;
  }

  // A subscription round: the publisher writes one group, the subscribed viewer reads it.
  bool run_subscribed(size_t frames) {
    if (!track_) {
      Result<TrackConsumer> t = w_.viewer->subscribe(Path("bench/pub0"), "video");
      if (!t) return false;
      track_ = std::move(*t);
      w_.settle();
    }
    Result<GroupProducer> made = pub_.track.append_group();
    if (!made) return false;
    for (size_t f = 0; f < frames; ++f) {
      if (!made->write_frame(f, payload_)) return false;
    }
    if (!made->finish()) return false;
    if (w_.executor.run_until_idle(1'000'000).budget_exhausted) return false;
    GroupConsumer group;
    if (track_.next(group) != Next::Ready) return false;
    size_t got = 0;
    FrameView frame;
    Next n;
    while ((n = group.next(frame)) == Next::Ready)
      ++got;
    return n == Next::End && got == frames;
  }

  uint64_t subscribed_allocs_per_round(size_t frames, int rounds) {
    for (int i = 0; i < 20; ++i)
      EXPECT_TRUE(run_subscribed(256));
    for (int i = 0; i < 4; ++i)
      EXPECT_TRUE(run_subscribed(frames));
    bool ok = true;
    counters::AllocScope scope;
    for (int i = 0; i < rounds; ++i)
      ok &= run_subscribed(frames);
    const uint64_t allocs = scope.delta().allocs;
    EXPECT_TRUE(ok);
    return (allocs + rounds - 1) / rounds;
  }

  // Allocations of `rounds` measured rounds of `frames` frames each, after a warm-up long enough
  // to fill the publisher track's cache (16 groups) so that its groups recycle.
  uint64_t allocs_per_round(size_t frames, int rounds) {
    for (int i = 0; i < 20; ++i)
      EXPECT_TRUE(run(256));
    for (int i = 0; i < 4; ++i)
      EXPECT_TRUE(run(frames));
    bool ok = true;
    counters::AllocScope scope;
    for (int i = 0; i < rounds; ++i)
      ok &= run(frames);
    const uint64_t allocs = scope.delta().allocs;
    EXPECT_TRUE(ok);
    return (allocs + rounds - 1) / rounds;  // rounded up
  }

 private:
  SessionPair w_;
  SessionPair::Published pub_;
  TrackConsumer track_;
  Bytes payload_;
};

class FetchAllocations : public ::testing::TestWithParam<Version> {};

TEST_P(FetchAllocations, SteadyStateRoundStaysWithinBudgetAndDoesNotGrowWithFrames) {
  if (!counters::alloc_counting_active()) GTEST_SKIP() << "allocation counting is not active";
  FetchRound bench(GetParam());
  const uint64_t small = bench.allocs_per_round(4, 16);
  const uint64_t large = bench.allocs_per_round(256, 16);
  std::printf("%s: allocations per fetch round: 4 frames %llu, 256 frames %llu (%s)\n",
              std::string(session::version_name(GetParam())).c_str(),
              static_cast<unsigned long long>(small), static_cast<unsigned long long>(large),
              counters::alloc_coverage_name(counters::alloc_counting_coverage()));
  EXPECT_LE(small, 32u);
  EXPECT_LE(large, 32u);
  EXPECT_LE(large > small ? large - small : small - large, 4u);
}

// The same budget for a live subscription's round (one group stream per round).
TEST_P(FetchAllocations, SubscribedRoundAllocatesNothingPerFrame) {
  if (!counters::alloc_counting_active()) GTEST_SKIP() << "allocation counting is not active";
  FetchRound bench(GetParam());
  const uint64_t small = bench.subscribed_allocs_per_round(4, 16);
  const uint64_t large = bench.subscribed_allocs_per_round(256, 16);
  std::printf("%s: allocations per subscribed round: 4 frames %llu, 256 frames %llu\n",
              std::string(session::version_name(GetParam())).c_str(),
              static_cast<unsigned long long>(small), static_cast<unsigned long long>(large));
  EXPECT_LE(small, 32u);
  EXPECT_LE(large, 32u);
  EXPECT_LE(large > small ? large - small : small - large, 4u);
}

INSTANTIATE_TEST_SUITE_P(Lite, FetchAllocations,
                         ::testing::Values(Version::Lite06, Version::Lite07Wip),
                         version_param_name);

}  // namespace
}  // namespace moq::test
