// Origin: publish/lookup by path, announcements under whole-segment prefixes with an initial
// snapshot, unannounce on unpublish and on broadcast close, teardown.
#include <gtest/gtest.h>

#include "tests/data/test_util.h"

namespace moq {
namespace {

using Kind = AnnounceEvent::Kind;

// "+a/b" for an announce, "-a/b" for an unannounce.
std::vector<std::string> drain(AnnounceConsumer& a) {
  std::vector<std::string> out;
  AnnounceEvent e;
  while (a.next(e) == Next::Ready)
    out.push_back((e.kind == Kind::Announce ? "+" : "-") + e.path.str());
  return out;
}

struct Fixture {
  test::World w;
  OriginProducer origin = OriginProducer::create();
  std::vector<BroadcastProducer> broadcasts;

  BroadcastConsumer make() {
    broadcasts.push_back(BroadcastProducer::create(w.clock));
    return broadcasts.back().consume();
  }
  void publish(const char* path) {
    Status st = origin.publish(Path(path), make());
    ASSERT_TRUE(st) << st.error().message;
  }
};

TEST(Origin, PublishLookupUnpublish) {
  Fixture f;
  BroadcastConsumer b = f.make();
  ASSERT_TRUE(f.origin.publish(Path("room/alice"), b));
  OriginConsumer oc = f.origin.consume();
  std::optional<BroadcastConsumer> found = oc.lookup(Path("/room//alice/"));
  ASSERT_TRUE(found);
  EXPECT_TRUE(*found == b);
  EXPECT_FALSE(oc.lookup(Path("room")));
  EXPECT_FALSE(oc.lookup(Path("room/alice/cam")));
  EXPECT_FALSE(oc.lookup(Path("room/al")));

  ASSERT_TRUE(f.origin.unpublish(Path("room/alice")));
  EXPECT_FALSE(oc.lookup(Path("room/alice")));
  Status again = f.origin.unpublish(Path("room/alice"));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, data_error::kNotFound);
}

TEST(Origin, PublishErrorsNameTheProblem) {
  Fixture f;
  f.publish("a/b");
  Status dup = f.origin.publish(Path("a/b"), f.make());
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, data_error::kDuplicate);
  EXPECT_NE(dup.error().message.find("'a/b'"), std::string::npos);

  Status empty = f.origin.publish(Path("/"), f.make());
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, data_error::kInvalid);

  Status null_handle = f.origin.publish(Path("x"), BroadcastConsumer());
  ASSERT_FALSE(null_handle);
  EXPECT_EQ(null_handle.error().code, data_error::kInvalid);

  BroadcastConsumer closed = f.make();
  f.broadcasts.back().close();
  Status st = f.origin.publish(Path("c"), closed);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, data_error::kClosed);
}

TEST(Origin, PrefixMatchesWholeSegments) {
  Fixture f;
  AnnounceConsumer ab = f.origin.consume().announced(Path("a/b"));
  EXPECT_EQ(ab.initial_count(), 0u);
  f.publish("a/b");
  f.publish("a/b/c");
  f.publish("a/bc");
  f.publish("a");
  f.publish("x/a/b");
  EXPECT_EQ(drain(ab), (std::vector<std::string>{"+a/b", "+a/b/c"}));
  ASSERT_TRUE(f.origin.unpublish(Path("a/bc")));
  ASSERT_TRUE(f.origin.unpublish(Path("a/b/c")));
  EXPECT_EQ(drain(ab), (std::vector<std::string>{"-a/b/c"}));
  EXPECT_EQ(ab.prefix().str(), "a/b");
}

TEST(Origin, InitialSnapshotThenLiveEventsInOrder) {
  Fixture f;
  f.publish("live/zed");
  f.publish("live/amy");
  f.publish("live/amy/screen");
  f.publish("other/bob");
  AnnounceConsumer live = f.origin.consume().announced(Path("live"));
  EXPECT_EQ(live.initial_count(), 3u);
  EXPECT_EQ(live.pending(), 3u);
  f.publish("live/new");
  ASSERT_TRUE(f.origin.unpublish(Path("live/amy")));
  f.publish("live/amy");  // back again
  EXPECT_EQ(drain(live), (std::vector<std::string>{"+live/amy", "+live/amy/screen", "+live/zed",
                                                   "+live/new", "-live/amy", "+live/amy"}));
  EXPECT_EQ(live.pending(), 0u);

  AnnounceConsumer all = f.origin.consume().announced(Path());
  EXPECT_EQ(all.initial_count(), 5u);
}

TEST(Origin, EventsCarryTheBroadcast) {
  Fixture f;
  AnnounceConsumer a = f.origin.consume().announced(Path("p"));
  BroadcastConsumer b = f.make();
  ASSERT_TRUE(f.origin.publish(Path("p/q"), b));
  AnnounceEvent e;
  ASSERT_EQ(a.next(e), Next::Ready);
  EXPECT_EQ(e.kind, Kind::Announce);
  EXPECT_TRUE(e.broadcast == b);
  EXPECT_EQ(e.path.strip_prefix(a.prefix())->str(), "q");
  ASSERT_TRUE(f.origin.unpublish(Path("p/q")));
  ASSERT_EQ(a.next(e), Next::Ready);
  EXPECT_EQ(e.kind, Kind::Unannounce);
  EXPECT_TRUE(e.broadcast == b);
  EXPECT_EQ(a.next(e), Next::Pending);
}

TEST(Origin, ListenerTaskIsWokenPerEventBatch) {
  Fixture f;
  AnnounceConsumer a = f.origin.consume().announced(Path("room"));
  test::WakeCounterTask watcher(f.w.executor, a.events());
  f.w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 1);
  f.publish("elsewhere");
  f.w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 1);  // not under the prefix
  f.publish("room/1");
  f.publish("room/2");
  f.w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 2);
  EXPECT_EQ(a.pending(), 2u);
}

TEST(Origin, ClosingABroadcastUnannouncesEveryPath) {
  Fixture f;
  AnnounceConsumer a = f.origin.consume().announced(Path());
  OriginProducer second = OriginProducer::create();
  AnnounceConsumer a2 = second.consume().announced(Path("mirror"));
  BroadcastConsumer b = f.make();
  ASSERT_TRUE(f.origin.publish(Path("one"), b));
  ASSERT_TRUE(f.origin.publish(Path("two/deep"), b));
  ASSERT_TRUE(second.publish(Path("mirror/b"), b));
  EXPECT_EQ(drain(a), (std::vector<std::string>{"+one", "+two/deep"}));
  EXPECT_EQ(drain(a2), (std::vector<std::string>{"+mirror/b"}));

  f.broadcasts.back() = BroadcastProducer();  // drop the producer
  EXPECT_EQ(drain(a), (std::vector<std::string>{"-one", "-two/deep"}));
  EXPECT_EQ(drain(a2), (std::vector<std::string>{"-mirror/b"}));
  EXPECT_FALSE(f.origin.consume().lookup(Path("one")));
  EXPECT_FALSE(second.consume().lookup(Path("mirror/b")));
  EXPECT_TRUE(b.is_closed());
}

TEST(Origin, DroppingTheOriginReleasesPublishedBroadcasts) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  {
    OriginProducer o = OriginProducer::create();
    ASSERT_TRUE(o.publish(Path("a/b/c"), b.consume()));
    ASSERT_TRUE(o.publish(Path("a/d"), b.consume()));
  }
  // The origin and its nodes are gone; closing the broadcast finds nothing to unpublish.
  b.close();
  EXPECT_TRUE(b.is_closed());
}

TEST(Origin, ListenersAndPublicationsComeAndGo) {
  Fixture f;
  OriginConsumer oc = f.origin.consume();
  for (int round = 0; round < 50; ++round) {
    AnnounceConsumer a = oc.announced(Path("x/y"));
    BroadcastProducer b = BroadcastProducer::create(f.w.clock);
    ASSERT_TRUE(f.origin.publish(Path("x/y").join(Path(std::to_string(round))), b.consume()));
    AnnounceConsumer moved = std::move(a);
    EXPECT_EQ(drain(moved).size(), 1u);
  }  // each round's broadcast closes as its producer drops: nothing accumulates
  AnnounceConsumer all = oc.announced(Path());
  EXPECT_EQ(all.initial_count(), 0u);
}

}  // namespace
}  // namespace moq

namespace moq {
namespace {

TEST(Origin, CloseEndsEveryListenerAfterItsQueuedEvents) {
  Fixture f;
  f.publish("a/b");
  AnnounceConsumer before = f.origin.consume().announced(Path("a"));
  ASSERT_TRUE(f.origin.unpublish(Path("a/b")));
  test::WakeCounterTask watcher(f.w.executor, before.events());
  f.w.executor.run_until_idle();
  const int polls = watcher.polls;
  f.origin.close(Error{7, "session closed"});
  f.w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, polls + 1);  // the close wakes the listener
  // The queued events first, then the end (not Pending forever).
  AnnounceEvent e;
  ASSERT_EQ(before.next(e), Next::Ready);
  ASSERT_EQ(before.next(e), Next::Ready);
  EXPECT_EQ(e.kind, Kind::Unannounce);
  ASSERT_EQ(before.next(e), Next::Aborted);
  EXPECT_EQ(before.error().code, 7u);
  EXPECT_EQ(before.error().message, "session closed");
  // A listener made after the close ends at once; publishing is refused.
  AnnounceConsumer after = f.origin.consume().announced(Path());
  EXPECT_EQ(after.next(e), Next::Aborted);
  Status st = f.origin.publish(Path("x"), f.make());
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, data_error::kClosed);
  EXPECT_NE(st.error().message.find("origin is closed"), std::string::npos);
  f.origin.close(Error{9, "again"});  // only the first close counts
  EXPECT_EQ(after.error().code, 7u);
}

}  // namespace
}  // namespace moq
