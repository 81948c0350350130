// Closing or destroying a session with requests and streams open ends every consumer it handed
// out with an error (no reader waits forever), leaves no task behind, and leaks nothing (the
// suite runs under ASan, which fails the binary on a leak).
#include <gtest/gtest.h>

#include "tests/session_ietf/raw_fixture.h"

namespace moq::session::testing {
namespace {

class TeardownTest : public IetfPair {
 protected:
  // Opens one of everything: a live subscription mid-group, a fetch of an open group waiting for
  // nothing, a namespace subscription, a track status request, a subgroup stream in flight.
  void open_everything() {
    write_group(0, 3);
    write_group(1, 2, /*finish=*/false);
    sub = std::move(viewer->subscribe(Path("live/cam"), "video").value());
    ann = std::move(viewer->announced(Path("live")).value());
    info = viewer->track_info(Path("live/cam"), "video").value();
    settle();
    ASSERT_EQ(sub.status(), TrackStatus::Active);
    ASSERT_EQ(sub.next(current), Next::Ready);  // group 1, still open
    ASSERT_TRUE(open_groups[0].write_frame(2, payload_of(1, 2)));
    // Frames written but not yet delivered when the session goes.
    ASSERT_TRUE(open_groups[0].write_frame(3, payload_of(1, 3)));
  }

  TrackConsumer sub;
  GroupConsumer current;
  AnnounceConsumer ann;
  Reply<TrackInfo> info;
};

TEST_P(TeardownTest, CloseWithStreamsOpenEndsEveryConsumer) {
  open_everything();
  auto f = viewer->fetch(Path("live/cam"), "video", 0);
  ASSERT_TRUE(f);
  viewer->close(0x0, "bye");
  EXPECT_TRUE(viewer->is_closed());
  EXPECT_EQ(viewer->error()->message, "bye");
  settle();
  EXPECT_TRUE(publisher->is_closed());
  EXPECT_EQ(publisher->error()->code, 0u);
  EXPECT_EQ(publisher->error()->message, "bye");
  GroupConsumer g;
  EXPECT_EQ(sub.next(g), Next::Aborted);
  EXPECT_EQ(sub.status(), TrackStatus::Aborted);
  FrameView fv;
  Next n;
  while ((n = current.next(fv)) == Next::Ready) {
  }
  EXPECT_EQ(n, Next::Aborted);
  while ((n = f->next(fv)) == Next::Ready) {
  }
  EXPECT_EQ(n, Next::Aborted);
  EXPECT_TRUE(info.done());
  // New requests fail at once.
  EXPECT_FALSE(viewer->fetch(Path("live/cam"), "video", 0));
  EXPECT_FALSE(viewer->subscribe(Path("live/cam"), "video"));
  EXPECT_FALSE(viewer->announced(Path()));
  // Every task of both sessions ended.
  EXPECT_EQ(executor.live_tasks(), 0u) << executor.describe_parked();
}

TEST_P(TeardownTest, DestroyingSessionsWithEverythingOpenLeavesNothing) {
  open_everything();
  client.reset();
  server.reset();
  settle();
  EXPECT_EQ(executor.live_tasks(), 0u);
  GroupConsumer g;
  EXPECT_EQ(sub.next(g), Next::Aborted);
  EXPECT_EQ(client_conn->live_streams(), 0u);
}

TEST_P(TeardownTest, ProtocolViolationClosesBothEndsAndEndsConsumers) {
  open_everything();
  // The viewer's peer (the publisher) is made to misbehave: a SETUP on a second control stream.
  auto s = (viewer == client.get() ? server_conn : client_conn)->open_uni();
  ASSERT_TRUE(s && *s);
  std::vector<uint8_t> setup = frame_message(w::Setup{}, *w::ietf_version(GetParam()));
  write_bytes(**s, setup);
  settle();
  ASSERT_TRUE(viewer->is_closed());
  EXPECT_EQ(viewer->error()->code, w::kProtocolViolation);
  EXPECT_NE(viewer->error()->message.find("SETUP"), std::string::npos);
  EXPECT_TRUE(publisher->is_closed());
  EXPECT_EQ(publisher->error()->code, w::kProtocolViolation);
  EXPECT_EQ(sub.status(), TrackStatus::Aborted);
  EXPECT_EQ(executor.live_tasks(), 0u) << executor.describe_parked();
}

TEST_P(TeardownTest, RequestsWaitingForStreamCreditEndWhenTheSessionCloses) {
  client.reset();
  server.reset();
  max_bidi = 1;  // one request stream at a time
  start();
  auto first = viewer->subscribe(Path("live/cam"), "video");  // holds the only stream
  ASSERT_TRUE(first);
  settle();
  ASSERT_EQ(first->status(), TrackStatus::Active);
  write_group(0, 2);
  auto waiting_sub = viewer->subscribe(Path("live/cam"), "other");
  auto waiting_fetch = viewer->fetch(Path("live/cam"), "video", 0);
  ASSERT_TRUE(waiting_sub);
  ASSERT_TRUE(waiting_fetch);
  settle();
  EXPECT_EQ(waiting_sub->status(), TrackStatus::Pending);  // no stream credit yet
  viewer->close(0x0, "done");
  settle();
  EXPECT_EQ(waiting_sub->status(), TrackStatus::Aborted);
  FrameView f;
  EXPECT_EQ(waiting_fetch->next(f), Next::Aborted);
  EXPECT_EQ(first->status(), TrackStatus::Aborted);
  EXPECT_EQ(executor.live_tasks(), 0u) << executor.describe_parked();
}

TEST_P(TeardownTest, ManySubscriptionsComeAndGoWithoutLeftovers) {
  const size_t baseline = executor.live_tasks();
  for (int round = 0; round < 20; ++round) {
    {
      auto s = viewer->subscribe(Path("live/cam"), "video");
      ASSERT_TRUE(s);
      settle();
      write_group(static_cast<uint64_t>(round), 2);
      settle();
      GroupConsumer g;
      ASSERT_EQ(s->next(g), Next::Ready);
    }
    settle();
  }
  // One remote broadcast stays known; every subscription's tasks ended.
  EXPECT_EQ(executor.live_tasks(), baseline + 1) << executor.describe_parked();
  EXPECT_FALSE(viewer->is_closed());
}

INSTANTIATE_TEST_SUITE_P(Drafts, TeardownTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
