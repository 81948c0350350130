// Heap allocations per steady-state round, counted by harness/counters (in a sanitized build
// only operator new is counted, which is what the session code uses). A fetch round: the
// publisher writes one group of F 64-byte frames and the viewer FETCHes it and reads every
// frame. Budget: at most 32 allocations per round, and 4-frame and 256-frame rounds differ by
// at most 4 (no allocation per object). A subscription round (one group delivered on a live
// subscription) has the same budget.
#include <gtest/gtest.h>

#include "harness/counters/alloc_counter.h"
#include "tests/session_ietf/fixture.h"

namespace moq::session::testing {
namespace {

constexpr int kWarmUp = 24;  // past the track cache (16 groups): group storage recycles
constexpr int kRounds = 40;
constexpr double kBudget = 32;

class AllocTest : public IetfPair {
 protected:
  void SetUp() override {
    if (!counters::alloc_counting_active()) GTEST_SKIP() << "allocation counting is inactive";
    IetfPair::SetUp();
    payload = payload_of(0, 0);
  }

  bool fetch_round(size_t frames) {
    Result<GroupProducer> g = track.append_group();
    if (!g) return false;
    for (size_t i = 0; i < frames; ++i)
      if (!g->write_frame(i, payload)) return false;
    if (!g->finish()) return false;
    Result<FetchConsumer> f = viewer->fetch(Path("live/cam"), "video", g->sequence());
    if (!f) return false;
    if (executor.run_until_idle().budget_exhausted) return false;
    FrameView v;
    size_t got = 0;
    Next n;
    while ((n = f->next(v)) == Next::Ready)
      got += v.size == payload.size();
    return n == Next::End && got == frames;
  }

  bool subscribe_round(TrackConsumer& sub, size_t frames) {
    Result<GroupProducer> g = track.append_group();
    if (!g) return false;
    for (size_t i = 0; i < frames; ++i)
      if (!g->write_frame(i, payload)) return false;
    if (!g->finish()) return false;
    if (executor.run_until_idle().budget_exhausted) return false;
    GroupConsumer group;
    if (sub.next(group) != Next::Ready) return false;
    FrameView v;
    size_t got = 0;
    Next n;
    while ((n = group.next(v)) == Next::Ready)
      ++got;
    return n == Next::End && got == frames;
  }

  template <class Round>
  double per_round(size_t frames, Round&& round) {
    for (int i = 0; i < kWarmUp; ++i)
      EXPECT_TRUE(round(frames));
    counters::AllocScope scope;
    for (int i = 0; i < kRounds; ++i)
      EXPECT_TRUE(round(frames));
    return static_cast<double>(scope.delta().allocs) / kRounds;
  }

  Bytes payload;
};

TEST_P(AllocTest, FetchRoundAllocationsAreFewAndDoNotGrowWithObjects) {
  const double four = per_round(4, [&](size_t n) { return fetch_round(n); });
  const double many = per_round(256, [&](size_t n) { return fetch_round(n); });
  EXPECT_LE(four, kBudget);
  EXPECT_LE(many, kBudget);
  EXPECT_LE(many - four, 4.0) << "4 frames: " << four << ", 256 frames: " << many;
  EXPECT_GE(many - four, -4.0);
  RecordProperty("allocs_per_fetch_round_4", std::to_string(four));
  RecordProperty("allocs_per_fetch_round_256", std::to_string(many));
}

TEST_P(AllocTest, SubscriptionRoundAllocationsAreFewAndDoNotGrowWithObjects) {
  TrackConsumer sub = std::move(viewer->subscribe(Path("live/cam"), "video").value());
  settle();
  const double four = per_round(4, [&](size_t n) { return subscribe_round(sub, n); });
  const double many = per_round(256, [&](size_t n) { return subscribe_round(sub, n); });
  EXPECT_LE(four, kBudget);
  EXPECT_LE(many, kBudget);
  EXPECT_LE(many - four, 4.0) << "4 frames: " << four << ", 256 frames: " << many;
  EXPECT_GE(many - four, -4.0);
}

INSTANTIATE_TEST_SUITE_P(Drafts, AllocTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
