// Group requests (model/data/broadcast.h): a FETCH of a group a track's cache does not hold
// reaches the producer side of a broadcast that serves them, and only then; the group is the
// requester's and never enters the cache; a closing broadcast aborts the requests it still holds.
#include <gtest/gtest.h>

#include "tests/data/test_util.h"

namespace moq {
namespace {

using test::text_bytes;

// A broadcast whose track "video" has groups 0..count-1 (one frame each), its cache holding the
// latest `kept` of them.
struct Served {
  Served(Clock& clock, bool serve_group_requests, uint64_t count, uint32_t kept) {
    producer = BroadcastProducer::create(clock);
    if (serve_group_requests) producer.serve_group_requests();
    TrackInfo info;
    info.cache.max_groups = kept;
    track = std::move(producer.create_track("video", info).value());
    for (uint64_t g = 0; g < count; ++g) {
      GroupProducer group = std::move(track.create_group(g).value());
      EXPECT_TRUE(group.write_frame(0, text_bytes("frame")));
      EXPECT_TRUE(group.finish());
    }
    reader = std::move(producer.consume().subscribe("video").value());
  }
  BroadcastProducer producer;
  TrackProducer track;
  TrackConsumer reader;
};

TEST(GroupRequest, AGroupTheCacheLetGoIsAskedOfTheProducerSide) {
  test::World w;
  Served s(w.clock, true, 4, 2);
  ASSERT_FALSE(s.reader.get_group(0));
  test::WakeCounterTask requests_watch(w.executor, s.producer.requests());
  w.executor.run_until_idle();

  std::optional<GroupConsumer> fetched = s.reader.request_group(0, 7);
  ASSERT_TRUE(fetched);
  EXPECT_EQ(fetched->sequence(), 0u);
  EXPECT_EQ(fetched->status(), GroupStatus::Open);
  w.executor.run_until_idle();
  EXPECT_EQ(requests_watch.polls, 2);

  std::optional<GroupRequest> r = s.producer.next_group_request();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->track, "video");
  EXPECT_EQ(r->group.sequence(), 0u);
  EXPECT_EQ(r->priority, 7);
  EXPECT_FALSE(s.producer.next_group_request());
  ASSERT_TRUE(r->group.write_frame(0, text_bytes("again")));
  ASSERT_TRUE(r->group.finish());
  FrameView f;
  ASSERT_EQ(fetched->next(f), Next::Ready);
  EXPECT_EQ(f.size, 5u);
  EXPECT_EQ(fetched->next(f), Next::End);
  // The answer is the requester's: the cache still holds the latest two only.
  EXPECT_FALSE(s.reader.get_group(0));
  EXPECT_EQ(s.track.cached_groups(), 2u);
}

TEST(GroupRequest, OnlyBelowTheLatestGroupAndOnlyWhereTheBroadcastServesThem) {
  test::World w;
  Served serving(w.clock, true, 4, 2);
  EXPECT_FALSE(serving.reader.request_group(3, 0));  // the latest (cached: ask get_group)
  EXPECT_FALSE(serving.reader.request_group(9, 0));  // not made yet: it comes by subscription
  EXPECT_FALSE(serving.producer.next_group_request());

  Served plain(w.clock, false, 4, 2);
  EXPECT_FALSE(plain.reader.request_group(0, 0));

  // A track with no group yet may ask for any.
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.serve_requests();
  b.serve_group_requests();
  TrackConsumer pending = std::move(b.consume().subscribe("audio").value());
  EXPECT_EQ(pending.status(), TrackStatus::Pending);
  EXPECT_TRUE(pending.request_group(5, 0));
  ASSERT_TRUE(b.next_group_request());

  // An aborted track asks nothing.
  serving.track.abort(Error{9, "gone"});
  EXPECT_FALSE(serving.reader.request_group(0, 0));
}

TEST(GroupRequest, ClosingTheBroadcastAbortsTheRequestsItHolds) {
  test::World w;
  Served s(w.clock, true, 4, 2);
  std::optional<GroupConsumer> fetched = s.reader.request_group(1, 0);
  ASSERT_TRUE(fetched);
  s.producer.close(Error{5, "publisher left"});
  EXPECT_EQ(fetched->status(), GroupStatus::Aborted);
  EXPECT_EQ(fetched->error().code, 5u);
  EXPECT_NE(fetched->error().message.find("publisher left"), std::string::npos);
  EXPECT_NE(fetched->error().message.find("group 1 of track 'video'"), std::string::npos);
  EXPECT_FALSE(s.producer.next_group_request());
  // The closed broadcast no longer lists the track: nothing more is asked.
  EXPECT_FALSE(s.reader.request_group(0, 0));
}

}  // namespace
}  // namespace moq
