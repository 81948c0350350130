// Track: group cache (count, bytes, age), latest group, consumer cursors, finish/abort,
// producer teardown, fetch by sequence.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tests/data/test_util.h"

namespace moq {
namespace {

using test::text_bytes;

constexpr uint64_t kMs = 1'000'000;

TrackInfo limits(uint32_t groups, uint64_t bytes = UINT64_MAX, uint64_t age_ns = UINT64_MAX) {
  TrackInfo info;
  info.cache.max_groups = groups;
  info.cache.max_bytes = bytes;
  info.cache.max_age_ns = age_ns;
  return info;
}

// Creates and finishes a group holding one frame of `size` bytes.
void add_group(TrackProducer& t, uint64_t seq, size_t size = 1) {
  Result<GroupProducer> g = t.create_group(seq);
  ASSERT_TRUE(g) << g.error().message;
  ASSERT_TRUE(g->write_frame(0, Bytes::copy(std::string(size, 'x'))));
  ASSERT_TRUE(g->finish());
}

std::vector<uint64_t> drain(TrackConsumer& c) {
  std::vector<uint64_t> seqs;
  GroupConsumer g;
  while (c.next(g) == Next::Ready)
    seqs.push_back(g.sequence());
  return seqs;
}

TEST(Track, LiveConsumerStartsAtTheLatestGroup) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  add_group(t, 0);
  add_group(t, 1);
  TrackConsumer live = t.consume();
  add_group(t, 2);
  EXPECT_EQ(drain(live), (std::vector<uint64_t>{1, 2}));
  GroupConsumer g;
  EXPECT_EQ(live.next(g), Next::Pending);
  EXPECT_EQ(live.latest_sequence(), 2u);
  ASSERT_TRUE(live.latest());
  EXPECT_EQ(live.latest()->sequence(), 2u);
}

TEST(Track, ConsumerOnAnEmptyTrackGetsTheFirstGroup) {
  test::World w;
  TrackProducer t = TrackProducer::create("audio", w.clock);
  TrackConsumer c = t.consume();
  EXPECT_FALSE(c.latest());
  EXPECT_FALSE(c.latest_sequence());
  GroupConsumer g;
  EXPECT_EQ(c.next(g), Next::Pending);
  add_group(t, 5);
  EXPECT_EQ(drain(c), (std::vector<uint64_t>{5}));
}

TEST(Track, ConsumerFromAFloorGetsCachedGroupsThenLiveOnes) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  for (uint64_t s = 0; s < 5; ++s)
    add_group(t, s);
  TrackPreferences from2;
  from2.group_start = 2;
  TrackConsumer c = t.consume(from2);
  EXPECT_EQ(drain(c), (std::vector<uint64_t>{2, 3, 4}));
  add_group(t, 5);
  EXPECT_EQ(drain(c), (std::vector<uint64_t>{5}));
}

TEST(Track, ConsumersHaveIndependentCursors) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  TrackPreferences from0;
  from0.group_start = 0;
  TrackConsumer a = t.consume(from0);
  add_group(t, 0);
  add_group(t, 1);
  TrackConsumer b = t.consume(from0);
  EXPECT_EQ(drain(a), (std::vector<uint64_t>{0, 1}));
  add_group(t, 2);
  TrackConsumer a2 = a.clone();  // same position
  EXPECT_EQ(drain(b), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(drain(a), (std::vector<uint64_t>{2}));
  EXPECT_EQ(drain(a2), (std::vector<uint64_t>{2}));
  TrackConsumer moved = std::move(a2);
  add_group(t, 3);
  EXPECT_EQ(drain(moved), (std::vector<uint64_t>{3}));
}

TEST(Track, GroupsAreReadableWhileBeingWritten) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  TrackConsumer c = t.consume();
  test::TrackFollowerTask follower(w.executor, t.consume());
  w.executor.run_until_idle();
  Result<GroupProducer> g = t.create_group(0);
  ASSERT_TRUE(g);
  w.executor.run_until_idle();
  EXPECT_EQ(follower.sequences, (std::vector<uint64_t>{0}));
  GroupConsumer gc;
  ASSERT_EQ(c.next(gc), Next::Ready);
  test::GroupReaderTask reader(w.executor, gc);
  ASSERT_TRUE(g->write_frame(0, text_bytes("k")));
  w.executor.run_until_idle();
  EXPECT_EQ(reader.frames, (std::vector<std::string>{"k"}));
}

TEST(Track, FollowerIsWokenOncePerNewGroup) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  test::TrackFollowerTask follower(w.executor, t.consume());
  w.executor.run_until_idle();
  EXPECT_EQ(follower.polls, 1);
  add_group(t, 0);  // writing frames into a group does not wake track followers
  w.executor.run_until_idle();
  EXPECT_EQ(follower.polls, 2);
  add_group(t, 1);
  add_group(t, 2);
  w.executor.run_until_idle();
  EXPECT_EQ(follower.polls, 3);
  EXPECT_EQ(follower.sequences, (std::vector<uint64_t>{0, 1, 2}));
  w.executor.run_until_idle();
  EXPECT_EQ(follower.polls, 3);
}

TEST(Track, EvictsByCountButNeverTheLatest) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock, limits(3));
  TrackConsumer c = t.consume();
  add_group(t, 0);
  std::optional<GroupConsumer> held = c.get_group(0);
  ASSERT_TRUE(held);
  for (uint64_t s = 1; s < 5; ++s)
    add_group(t, s);
  EXPECT_EQ(t.cached_groups(), 3u);
  EXPECT_FALSE(c.get_group(0));
  EXPECT_FALSE(c.get_group(1));
  EXPECT_TRUE(c.get_group(2));
  EXPECT_TRUE(c.get_group(4));
  // A consumer holding an evicted group still reads it.
  FrameView f;
  EXPECT_EQ(held->next(f), Next::Ready);
  EXPECT_EQ(held->next(f), Next::End);

  TrackProducer one = TrackProducer::create("one", w.clock, limits(0));
  add_group(one, 0);
  add_group(one, 1);
  EXPECT_EQ(one.cached_groups(), 1u);  // 0 still keeps the latest
  EXPECT_EQ(one.latest_sequence(), 1u);
}

TEST(Track, EvictsByBytesIncludingWhileAGroupGrows) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock, limits(100, 100));
  add_group(t, 0, 40);
  add_group(t, 1, 40);
  EXPECT_EQ(t.cached_bytes(), 80u);
  add_group(t, 2, 40);  // 120 > 100: the oldest goes
  EXPECT_EQ(t.cached_groups(), 2u);
  EXPECT_EQ(t.cached_bytes(), 80u);

  // Growth of the latest group pushes older groups out as it happens.
  Result<GroupProducer> g = t.create_group(3);
  ASSERT_TRUE(g);
  EXPECT_EQ(t.cached_groups(), 3u);
  ASSERT_TRUE(g->write_frame(0, Bytes::copy(std::string(20, 'y'))));
  EXPECT_EQ(t.cached_groups(), 3u);  // 100: at the bound, not over
  EXPECT_EQ(t.cached_bytes(), 100u);
  ASSERT_TRUE(g->write_frame(1, Bytes::copy(std::string(1, 'y'))));
  EXPECT_EQ(t.cached_groups(), 2u);  // 101: group 1 goes
  EXPECT_EQ(t.cached_bytes(), 61u);

  // A latest group larger than the whole budget stays.
  ASSERT_TRUE(g->write_frame(2, Bytes::copy(std::string(500, 'z'))));
  EXPECT_EQ(t.cached_groups(), 1u);
  EXPECT_EQ(t.cached_bytes(), 521u);
  ASSERT_TRUE(g->finish());
}

TEST(Track, EvictsByAgeSinceSuperseded) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock, limits(100, UINT64_MAX, 10 * kMs));
  TrackConsumer c = t.consume();
  add_group(t, 0);  // t=0
  w.clock.advance_to(5 * kMs);
  add_group(t, 1);  // t=5: group 0 superseded at 5
  w.clock.advance_to(14 * kMs);
  add_group(t, 2);  // t=14: group 0 is 9 ms old, kept; group 1 superseded at 14
  EXPECT_EQ(t.cached_groups(), 3u);
  w.clock.advance_to(15 * kMs);
  t.expire();  // group 0 is 10 ms old: gone
  EXPECT_EQ(t.cached_groups(), 2u);
  EXPECT_FALSE(c.get_group(0));
  w.clock.advance_to(100 * kMs);
  t.expire();  // group 1 gone; group 2 is the latest and stays
  EXPECT_EQ(t.cached_groups(), 1u);
  EXPECT_TRUE(c.get_group(2));
}

TEST(Track, AgeExpiryRunsWhenAGroupIsCreatedOnTheExecutorClock) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock, limits(100, UINT64_MAX, 10 * kMs));
  add_group(t, 0);
  add_group(t, 1);
  w.executor.advance_to(30 * kMs);
  add_group(t, 2);  // reads the clock once: 0 and 1 are 30 ms past being superseded
  EXPECT_EQ(t.cached_groups(), 2u);  // 1 was superseded only now
  TrackConsumer c = t.consume();
  EXPECT_FALSE(c.get_group(0));
  EXPECT_TRUE(c.get_group(1));
}

TEST(Track, MaxAgeZeroKeepsOnlyTheLatest) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock, limits(100, UINT64_MAX, 0));
  add_group(t, 0);
  add_group(t, 1);
  add_group(t, 2);
  EXPECT_EQ(t.cached_groups(), 1u);
  EXPECT_EQ(t.latest_sequence(), 2u);
}

TEST(Track, OutOfOrderArrivalsAreFoundAndDeliveredInArrivalOrder) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  TrackPreferences from0;
  from0.group_start = 0;
  TrackConsumer all = t.consume(from0);
  add_group(t, 5);
  TrackConsumer live = t.consume();  // starts at 5: older stragglers are skipped
  add_group(t, 3);
  add_group(t, 4);
  add_group(t, 6);
  EXPECT_EQ(drain(all), (std::vector<uint64_t>{5, 3, 4, 6}));
  EXPECT_EQ(drain(live), (std::vector<uint64_t>{5, 6}));
  EXPECT_EQ(t.latest_sequence(), 6u);
  for (uint64_t s : {3, 4, 5, 6})
    EXPECT_TRUE(all.get_group(s)) << s;
  EXPECT_FALSE(all.get_group(2));
  EXPECT_FALSE(all.get_group(7));
  Result<GroupProducer> dup = t.create_group(4);
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, data_error::kDuplicate);
  EXPECT_NE(dup.error().message.find("group 4 already exists"), std::string::npos);
}

TEST(Track, LookupStaysCorrectAsOutOfOrderEntriesAreEvicted) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock, limits(4));
  TrackConsumer c = t.consume();
  // Sequences arrive shuffled; the cache keeps the last 4 arrivals (never the latest).
  const std::vector<uint64_t> order{10, 8, 9, 12, 11, 13, 14, 15, 16};
  for (uint64_t s : order)
    add_group(t, s);
  EXPECT_EQ(t.cached_groups(), 4u);
  for (uint64_t s : {13, 14, 15, 16})
    EXPECT_TRUE(c.get_group(s)) << s;
  for (uint64_t s : {8, 9, 10, 11, 12})
    EXPECT_FALSE(c.get_group(s)) << s;
}

TEST(Track, NewestFirstArrivalsStayWithinBounds) {
  test::World w;
  // The latest group arrives first and the older ones after it: eviction must reach past the
  // latest (at the front of the arrival order) to the oldest other group.
  TrackProducer t = TrackProducer::create("video", w.clock, limits(2));
  TrackPreferences from0;
  from0.group_start = 0;
  TrackConsumer all = t.consume(from0);
  for (uint64_t s : {10, 9, 8, 7})
    add_group(t, s);
  EXPECT_EQ(t.cached_groups(), 2u);
  EXPECT_TRUE(all.get_group(10));
  EXPECT_TRUE(all.get_group(7));
  EXPECT_FALSE(all.get_group(9));
  EXPECT_FALSE(all.get_group(8));
  EXPECT_EQ(drain(all), (std::vector<uint64_t>{10, 7}));
  add_group(t, 11);
  EXPECT_EQ(t.cached_groups(), 2u);
  EXPECT_FALSE(all.get_group(10));
  EXPECT_TRUE(all.get_group(7));
  EXPECT_EQ(drain(all), (std::vector<uint64_t>{11}));

  TrackProducer live_only = TrackProducer::create("a", w.clock, limits(100, UINT64_MAX, 0));
  add_group(live_only, 5);
  add_group(live_only, 4);  // superseded on arrival, so at once too old
  EXPECT_EQ(live_only.cached_groups(), 1u);
  EXPECT_EQ(live_only.latest_sequence(), 5u);

  TrackProducer small = TrackProducer::create("b", w.clock, limits(100, 50));
  add_group(small, 5, 30);
  add_group(small, 4, 30);  // over the byte bound: the straggler goes, the latest stays
  EXPECT_EQ(small.cached_groups(), 1u);
  EXPECT_EQ(small.cached_bytes(), 30u);
}

TEST(Track, RandomArrivalsKeepTheCacheInvariants) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    test::World w;
    const uint32_t max_groups = 1 + rng() % 6;
    TrackProducer t = TrackProducer::create("video", w.clock, limits(max_groups));
    TrackPreferences from0;
    from0.group_start = 0;
    TrackConsumer c = t.consume(from0);
    // Sequences 0..199 arrive in a locally shuffled order (windows of up to 8).
    std::vector<uint64_t> order(200);
    for (uint64_t i = 0; i < order.size(); ++i)
      order[i] = i;
    for (size_t i = 0; i < order.size(); i += 8)
      std::shuffle(order.begin() + i,
                   order.begin() + static_cast<ptrdiff_t>(std::min(order.size(), i + 8)), rng);
    std::vector<uint64_t> arrived;
    std::vector<bool> gone(order.size(), false);
    std::vector<uint64_t> yielded;
    uint64_t max_seq = 0;
    for (uint64_t s : order) {
      add_group(t, s);
      arrived.push_back(s);
      max_seq = std::max(max_seq, s);
      ASSERT_LE(t.cached_groups(), max_groups) << "seed " << seed;
      ASSERT_EQ(t.latest_sequence(), max_seq);
      size_t present = 0;
      for (uint64_t a : arrived) {
        const bool found = c.get_group(a).has_value();
        ASSERT_FALSE(found && gone[a]) << "seed " << seed << ": group " << a << " came back";
        if (!found) gone[a] = true;
        present += found;
      }
      ASSERT_EQ(present, t.cached_groups()) << "seed " << seed;
      ASSERT_TRUE(c.get_group(max_seq)) << "the latest is always cached";
      for (uint64_t y : drain(c))
        yielded.push_back(y);
    }
    // The consumer saw each group at most once, in arrival order.
    std::vector<uint64_t> positions;
    positions.reserve(yielded.size());
    for (uint64_t y : yielded)
      positions.push_back(std::find(arrived.begin(), arrived.end(), y) - arrived.begin());
    EXPECT_TRUE(std::is_sorted(positions.begin(), positions.end())) << "seed " << seed;
    EXPECT_EQ(std::adjacent_find(positions.begin(), positions.end()), positions.end());
  }
}

TEST(Track, SlowConsumerSkipsEvictedGroups) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock, limits(2));
  TrackPreferences from0;
  from0.group_start = 0;
  TrackConsumer c = t.consume(from0);
  for (uint64_t s = 0; s < 6; ++s)
    add_group(t, s);
  EXPECT_EQ(drain(c), (std::vector<uint64_t>{4, 5}));
}

TEST(Track, GroupEndBoundsTheConsumer) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  TrackPreferences range;
  range.group_start = 1;
  range.group_end = 3;
  TrackConsumer c = t.consume(range);
  add_group(t, 0);
  add_group(t, 1);
  add_group(t, 2);
  GroupConsumer g;
  EXPECT_EQ(drain(c), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(c.next(g), Next::Pending);
  add_group(t, 4);  // beyond the end: skipped, and the range is over once 3 is passed
  add_group(t, 3);
  EXPECT_EQ(drain(c), (std::vector<uint64_t>{3}));
  EXPECT_EQ(c.next(g), Next::End);
}

TEST(Track, FinishLetsConsumersDrainThenEnd) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  TrackPreferences from0;
  from0.group_start = 0;
  test::TrackFollowerTask follower(w.executor, t.consume(from0));
  add_group(t, 0);
  add_group(t, 1);
  ASSERT_TRUE(t.finish());
  w.executor.run_until_idle();
  EXPECT_TRUE(follower.ended);
  EXPECT_EQ(follower.sequences, (std::vector<uint64_t>{0, 1}));
  TrackConsumer late = t.consume(from0);
  EXPECT_EQ(late.end_sequence(), 2u);
  EXPECT_EQ(drain(late), (std::vector<uint64_t>{0, 1}));
  GroupConsumer g;
  EXPECT_EQ(late.next(g), Next::End);

  Result<GroupProducer> beyond = t.create_group(2);
  ASSERT_FALSE(beyond);
  EXPECT_EQ(beyond.error().code, data_error::kClosed);
  EXPECT_FALSE(t.finish());
}

TEST(Track, StragglersBelowTheEndAreAccepted) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  add_group(t, 0);
  add_group(t, 2);
  ASSERT_TRUE(t.finish());
  EXPECT_TRUE(t.create_group(1));
  Status below = TrackProducer::create("x", w.clock).finish_at(0);
  EXPECT_TRUE(below);  // an empty track may end at 0
  TrackProducer u = TrackProducer::create("u", w.clock);
  add_group(u, 4);
  Status bad = u.finish_at(4);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, data_error::kInvalid);
  EXPECT_TRUE(u.finish_at(10));
}

TEST(Track, AbortReachesConsumersAndEmptiesTheCache) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock);
  test::TrackFollowerTask follower(w.executor, t.consume());
  TrackConsumer c = t.consume();
  add_group(t, 0);
  w.executor.run_until_idle();
  t.abort(Error{7, "publisher gone"});
  w.executor.run_until_idle();
  EXPECT_TRUE(follower.aborted);
  EXPECT_EQ(follower.error.code, 7u);
  EXPECT_EQ(t.cached_groups(), 0u);
  EXPECT_FALSE(c.get_group(0));
  GroupConsumer g;
  EXPECT_EQ(c.next(g), Next::Aborted);
  EXPECT_EQ(c.error().message, "publisher gone");
  EXPECT_FALSE(t.create_group(1));
}

TEST(Track, ProducerDroppedAbortsForWaitingConsumers) {
  test::World w;
  auto* t = new TrackProducer(TrackProducer::create("video", w.clock));
  test::TrackFollowerTask follower(w.executor, t->consume());
  w.executor.run_until_idle();
  delete t;
  ASSERT_TRUE(w.executor.run_until([&] { return follower.done(); }));
  EXPECT_TRUE(follower.aborted);
  EXPECT_EQ(follower.error.code, data_error::kProducerDropped);
  EXPECT_NE(follower.error.message.find("'video'"), std::string::npos);
}

TEST(Track, GroupStatesAreRecycledThroughThePool) {
  test::World w;
  TrackProducer t = TrackProducer::create("video", w.clock, limits(2));
  EXPECT_EQ(t.pooled_groups(), 0u);
  add_group(t, 0);
  add_group(t, 1);
  add_group(t, 2);  // evicts 0, unreferenced: its state waits in the pool
  EXPECT_EQ(t.pooled_groups(), 1u);
  add_group(t, 3);  // reuses it; evicting 1 returns another
  EXPECT_EQ(t.pooled_groups(), 1u);
  TrackConsumer c = t.consume();
  std::optional<GroupConsumer> kept = c.get_group(3);
  add_group(t, 4);  // reuses the pooled state; evicts 2 back into the pool
  add_group(t, 5);  // reuses it; evicts 3, which is still held: not pooled
  EXPECT_EQ(t.pooled_groups(), 0u);
  kept.reset();
  EXPECT_EQ(t.pooled_groups(), 1u);
}

TEST(Track, GroupsOutliveTheirTrack) {
  test::World w;
  GroupConsumer g;
  GroupProducer writer;
  {
    TrackProducer t = TrackProducer::create("video", w.clock);
    Result<GroupProducer> p = t.create_group(0);
    ASSERT_TRUE(p);
    writer = std::move(*p);
    g = writer.consume();
    ASSERT_TRUE(t.finish_at(1));
  }
  ASSERT_TRUE(writer.write_frame(0, text_bytes("after")));
  ASSERT_TRUE(writer.finish());
  FrameView f;
  ASSERT_EQ(g.next(f), Next::Ready);
  EXPECT_EQ(test::text(f), "after");
}

}  // namespace
}  // namespace moq
