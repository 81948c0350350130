// The aggregate of subscriber preferences: maintained incrementally on join, leave, update and
// move; change notifications only on real changes; cross-checked against a brute-force
// recomputation under random churn.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>

#include "tests/data/test_util.h"

namespace moq {
namespace {

TrackPreferences prefs(uint8_t priority, uint64_t max_age_ms,
                       std::optional<uint64_t> start = std::nullopt,
                       std::optional<uint64_t> end = std::nullopt, bool ordered = false) {
  TrackPreferences p;
  p.priority = priority;
  p.max_age_ms = max_age_ms;
  p.group_start = start;
  p.group_end = end;
  p.ordered = ordered;
  return p;
}

TEST(Preferences, AggregateFollowsJoinLeaveAndUpdate) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  EXPECT_EQ(t.preferences(), PreferenceSummary{});

  auto a = std::make_unique<TrackConsumer>(t.consume(prefs(3, 100, 10, 20, true)));
  auto b = std::make_unique<TrackConsumer>(t.consume(prefs(7, 50, 5, 30, true)));
  auto c = std::make_unique<TrackConsumer>(t.consume(prefs(5, 500, std::nullopt, 25, false)));
  PreferenceSummary s = t.preferences();
  EXPECT_EQ(s.consumers, 3u);
  EXPECT_EQ(s.priority, 7);
  EXPECT_EQ(s.max_age_ms, 500u);
  EXPECT_EQ(s.group_start, 5u);
  EXPECT_EQ(s.group_end, 30u);
  EXPECT_FALSE(s.ordered);
  EXPECT_EQ(t.consumer_count(), 3u);

  b.reset();  // the max priority and the earliest floor leave
  s = t.preferences();
  EXPECT_EQ(s.consumers, 2u);
  EXPECT_EQ(s.priority, 5);
  EXPECT_EQ(s.group_start, 10u);
  EXPECT_EQ(s.group_end, 25u);

  c->update(prefs(9, 1, 2, std::nullopt, true));  // now unbounded, ordered, earliest
  s = t.preferences();
  EXPECT_EQ(s.priority, 9);
  EXPECT_EQ(s.max_age_ms, 100u);
  EXPECT_EQ(s.group_start, 2u);
  EXPECT_FALSE(s.group_end);
  EXPECT_TRUE(s.ordered);
  EXPECT_EQ(c->preferences().priority, 9);

  c->update(prefs(1, 1));  // live, unbounded, not ordered
  s = t.preferences();
  EXPECT_EQ(s.priority, 3);
  EXPECT_EQ(s.group_start, 10u);
  EXPECT_FALSE(s.group_end);
  EXPECT_FALSE(s.ordered);

  a.reset();
  c.reset();
  EXPECT_EQ(t.preferences(), PreferenceSummary{});
}

TEST(Preferences, ChangeIsNotifiedOnlyWhenTheAggregateChanges) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  test::WakeCounterTask watcher(w.executor, t.preferences_changed());
  w.executor.run_until_idle();
  ASSERT_EQ(watcher.polls, 1);

  TrackConsumer high = t.consume(prefs(9, 0));
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 2);  // a consumer joined

  TrackConsumer low = t.consume(prefs(1, 0));
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 3);  // the count changed

  low.update(prefs(2, 0));  // still below the max: the aggregate is the same
  low.update(prefs(2, 0));
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 3);

  low.update(prefs(10, 0));
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 4);
}

TEST(Preferences, UnusedIsNotifiedWhenTheLastConsumerLeaves) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  auto a = std::make_unique<TrackConsumer>(t.consume());
  auto b = std::make_unique<TrackConsumer>(t.consume());
  test::WakeCounterTask watcher(w.executor, t.unused());
  w.executor.run_until_idle();
  a.reset();
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 1);
  b.reset();
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 2);
  EXPECT_EQ(t.consumer_count(), 0u);
}

TEST(Preferences, MovedConsumersKeepTheirRegistration) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  std::vector<TrackConsumer> v;
  for (uint8_t p = 0; p < 20; ++p)
    v.push_back(t.consume(prefs(p, p)));  // the vector reallocates: every consumer moves
  EXPECT_EQ(t.preferences().priority, 19);
  v.erase(v.begin() + 19);
  EXPECT_EQ(t.preferences().priority, 18);
  v.erase(v.begin(), v.begin() + 10);  // move-assignments over released slots
  EXPECT_EQ(t.preferences().consumers, 9u);
  EXPECT_EQ(t.preferences().priority, 18);
  EXPECT_EQ(t.preferences().max_age_ms, 18u);
  v[0] = t.consume(prefs(200, 0));
  EXPECT_EQ(t.preferences().priority, 200);
  EXPECT_EQ(t.preferences().consumers, 9u);
  v.clear();
  EXPECT_EQ(t.preferences(), PreferenceSummary{});
}

PreferenceSummary brute_force(const std::vector<TrackConsumer>& consumers) {
  PreferenceSummary s;
  s.consumers = static_cast<uint32_t>(consumers.size());
  if (consumers.empty()) return s;
  bool unbounded = false;
  bool all_ordered = true;
  for (const TrackConsumer& c : consumers) {
    const TrackPreferences& p = c.preferences();
    s.priority = std::max(s.priority, p.priority);
    s.max_age_ms = std::max(s.max_age_ms, p.max_age_ms);
    if (p.group_start) s.group_start = std::min(s.group_start.value_or(UINT64_MAX), *p.group_start);
    if (p.group_end) {
      s.group_end = std::max(s.group_end.value_or(0), *p.group_end);
    } else {
      unbounded = true;
    }
    all_ordered = all_ordered && p.ordered;
  }
  if (unbounded) s.group_end.reset();
  s.ordered = all_ordered;
  return s;
}

TEST(Preferences, RandomChurnMatchesBruteForce) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  std::mt19937_64 rng(20240611);
  auto random_prefs = [&] {
    std::uniform_int_distribution<int> small(0, 20);
    TrackPreferences p;
    p.priority = static_cast<uint8_t>(small(rng));
    p.max_age_ms = static_cast<uint64_t>(small(rng)) * 10;
    if (small(rng) % 3) p.group_start = static_cast<uint64_t>(small(rng));
    if (small(rng) % 3) p.group_end = static_cast<uint64_t>(small(rng));
    p.ordered = small(rng) % 2;
    return p;
  };
  std::vector<TrackConsumer> consumers;
  for (int step = 0; step < 3000; ++step) {
    const uint64_t op = rng() % 3;
    if (op == 0 || consumers.empty()) {
      consumers.push_back(t.consume(random_prefs()));
    } else if (op == 1) {
      consumers.erase(consumers.begin() + static_cast<long>(rng() % consumers.size()));
    } else {
      consumers[rng() % consumers.size()].update(random_prefs());
    }
    ASSERT_EQ(t.preferences(), brute_force(consumers)) << "step " << step;
  }
}

}  // namespace
}  // namespace moq
