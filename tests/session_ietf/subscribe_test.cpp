// SUBSCRIBE end to end: G groups x F objects intact and in order; a live subscription joins the
// current group from its first object (-18 joining FETCH, -22 fill); absolute starts; the end of
// a track (PUBLISH_DONE); refusal; cancellation by dropping the consumer.
#include <gtest/gtest.h>

#include "tests/session_ietf/fixture.h"

namespace moq::session::testing {
namespace {

using SubscribeTest = IetfPair;

// Reads the next group of sub, which must be there now.
GroupConsumer next_group(TrackConsumer& sub) {
  GroupConsumer g;
  EXPECT_EQ(sub.next(g), Next::Ready);
  return g;
}

void expect_group(GroupConsumer g, uint64_t seq, size_t frames) {
  ASSERT_TRUE(g);
  EXPECT_EQ(g.sequence(), seq);
  Next last;
  std::vector<Bytes> got = IetfPair::read_all(g, &last);
  EXPECT_EQ(last, Next::End) << (last == Next::Aborted ? g.error().message : "");
  ASSERT_EQ(got.size(), frames) << "group " << seq;
  for (size_t i = 0; i < frames; ++i)
    EXPECT_EQ(got[i], payload_of(seq, i)) << "group " << seq << " frame " << i;
}

TEST_P(SubscribeTest, GroupsOfObjectsArriveIntactAndInOrder) {
  auto sub = viewer->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(sub) << sub.error().message;
  settle();
  EXPECT_EQ(sub->status(), TrackStatus::Active);
  constexpr size_t kGroups = 6, kFrames = 9;
  for (uint64_t g = 0; g < kGroups; ++g) {
    write_group(g, kFrames);
    settle();
  }
  for (uint64_t g = 0; g < kGroups; ++g)
    expect_group(next_group(*sub), g, kFrames);
  EXPECT_EQ(viewer->counters().frames_received, kGroups * kFrames);
  EXPECT_EQ(publisher->counters().frames_sent, kGroups * kFrames);
  EXPECT_EQ(viewer->counters().accepted(StreamKind::Group), kGroups);
}

TEST_P(SubscribeTest, FramesWrittenWhileSubscribedArriveAsTheyAreWritten) {
  auto sub = viewer->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(sub);
  settle();
  auto g = track.create_group(0);
  ASSERT_TRUE(g);
  GroupConsumer got;
  for (size_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(g->write_frame(i, payload_of(0, i)));
    settle();
    if (i == 0) {
      ASSERT_EQ(sub->next(got), Next::Ready);
    }
    EXPECT_EQ(got.frame_count(), i + 1);
  }
  ASSERT_TRUE(g->finish());
  settle();
  expect_group(got, 0, 5);
}

TEST_P(SubscribeTest, LiveSubscriptionJoinsTheCurrentGroupFromItsFirstObject) {
  // The publisher is in the middle of group 3 when the viewer subscribes.
  write_group(2, 4);
  auto open = track.create_group(3);
  ASSERT_TRUE(open);
  for (size_t i = 0; i < 5; ++i)
    ASSERT_TRUE(open->write_frame(i, payload_of(3, i)));
  settle();
  auto sub = viewer->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(sub);
  settle();
  // The rest of group 3 and group 4 are written after the subscription started.
  for (size_t i = 5; i < 8; ++i)
    ASSERT_TRUE(open->write_frame(i, payload_of(3, i)));
  ASSERT_TRUE(open->finish());
  write_group(4, 3);
  settle();
  expect_group(next_group(*sub), 3, 8);  // objects 0-4 joined/filled, 5-7 on the subgroup stream
  expect_group(next_group(*sub), 4, 3);
  GroupConsumer none;
  EXPECT_EQ(sub->next(none), Next::Pending);
  // -18 joins with a FETCH request stream of its own.
  if (GetParam() == Version::Transport18) {
    EXPECT_EQ(viewer->counters().opened(StreamKind::Fetch), 1u);
  } else {
    EXPECT_EQ(viewer->counters().opened(StreamKind::Fetch), 0u);
    EXPECT_EQ(publisher->counters().opened(StreamKind::Fetch), 1u);  // the fill stream
  }
}

TEST_P(SubscribeTest, LiveSubscriptionWhenTheLatestGroupIsCompleteStartsWithIt) {
  write_group(0, 3);
  write_group(1, 2);
  settle();
  auto sub = viewer->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(sub);
  settle();
  write_group(2, 2);
  settle();
  expect_group(next_group(*sub), 1, 2);
  expect_group(next_group(*sub), 2, 2);
}

TEST_P(SubscribeTest, AbsoluteStartDeliversCachedGroupsFirst) {
  write_group(0, 2);
  write_group(1, 3);
  write_group(2, 4);
  settle();
  TrackPreferences prefs;
  prefs.group_start = 1;
  auto sub = viewer->subscribe(Path("live/cam"), "video", prefs);
  ASSERT_TRUE(sub);
  settle();
  write_group(3, 1);
  settle();
  expect_group(next_group(*sub), 1, 3);
  expect_group(next_group(*sub), 2, 4);
  expect_group(next_group(*sub), 3, 1);
}

TEST_P(SubscribeTest, TrackEndEndsTheSubscriptionAfterItsStreams) {
  auto sub = viewer->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(sub);
  settle();
  write_group(0, 2);
  write_group(1, 2);
  ASSERT_TRUE(track.finish());
  settle();
  expect_group(next_group(*sub), 0, 2);
  expect_group(next_group(*sub), 1, 2);
  GroupConsumer g;
  EXPECT_EQ(sub->next(g), Next::End);
  EXPECT_EQ(sub->status(), TrackStatus::Finished);
  EXPECT_FALSE(viewer->is_closed());
  // Both request streams closed cleanly: no task is left behind but the sessions' own.
  EXPECT_EQ(client_conn->stats().resets_sent + server_conn->stats().resets_sent, 0u);
}

TEST_P(SubscribeTest, BoundedSubscriptionEndsAtItsLastGroup) {
  TrackPreferences prefs;
  prefs.group_start = 0;
  prefs.group_end = 1;
  auto sub = viewer->subscribe(Path("live/cam"), "video", prefs);
  ASSERT_TRUE(sub);
  settle();
  write_group(0, 1);
  write_group(1, 1);
  write_group(2, 1);
  settle();
  expect_group(next_group(*sub), 0, 1);
  expect_group(next_group(*sub), 1, 1);
  GroupConsumer g;
  EXPECT_EQ(sub->next(g), Next::End);
}

TEST_P(SubscribeTest, UnknownTrackIsRefused) {
  auto sub = viewer->subscribe(Path("live/cam"), "audio");
  ASSERT_TRUE(sub);
  settle();
  EXPECT_EQ(sub->status(), TrackStatus::Aborted);
  EXPECT_EQ(sub->error().code, data_error::kNotFound) << sub->error().message;
  EXPECT_NE(sub->error().message.find("DOES_NOT_EXIST"), std::string::npos) << sub->error().message;
  auto other = viewer->subscribe(Path("live/other"), "video");
  ASSERT_TRUE(other);
  settle();
  EXPECT_EQ(other->status(), TrackStatus::Aborted);
  EXPECT_FALSE(viewer->is_closed());
}

TEST_P(SubscribeTest, SecondSubscriberSharesOneUpstreamSubscription) {
  auto a = viewer->subscribe(Path("live/cam"), "video");
  auto b = viewer->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  settle();
  write_group(0, 2);
  settle();
  expect_group(next_group(*a), 0, 2);
  expect_group(next_group(*b), 0, 2);
  EXPECT_EQ(viewer->counters().opened(StreamKind::Subscribe), 1u);
}

TEST_P(SubscribeTest, DroppingEveryConsumerCancelsTheSubscription) {
  {
    auto sub = viewer->subscribe(Path("live/cam"), "video");
    ASSERT_TRUE(sub);
    settle();
    write_group(0, 2);
    settle();
  }
  settle();
  // The publisher stopped serving: new groups open no stream.
  const uint64_t before = publisher->counters().opened(StreamKind::Group);
  write_group(1, 2);
  settle();
  EXPECT_EQ(publisher->counters().opened(StreamKind::Group), before);
  EXPECT_FALSE(viewer->is_closed());
  // Subscribing again starts a new subscription, live: from the current group (1).
  auto again = viewer->subscribe(Path("live/cam"), "video");
  ASSERT_TRUE(again);
  settle();
  write_group(2, 3);
  settle();
  expect_group(next_group(*again), 1, 2);
  expect_group(next_group(*again), 2, 3);
  EXPECT_EQ(viewer->counters().opened(StreamKind::Subscribe), 2u);
}

INSTANTIATE_TEST_SUITE_P(Drafts, SubscribeTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
