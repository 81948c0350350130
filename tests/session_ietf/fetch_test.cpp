// FETCH end to end: a whole group, a frame range, errors, and (per draft) the joining FETCH of
// -18 and the fill of -22 (through live subscriptions).
#include <gtest/gtest.h>

#include "tests/session_ietf/fixture.h"

namespace moq::session::testing {
namespace {

namespace w_request_error {
constexpr uint64_t kGoingAway = 0x6;
constexpr uint64_t kInvalidRange = 0x11;
}  // namespace w_request_error

using FetchTest = IetfPair;

TEST_P(FetchTest, WholeGroupArrivesIntactAndInOrder) {
  write_group(0, 4);
  write_group(1, 17);
  auto f = viewer->fetch(Path("live/cam"), "video", 1);
  ASSERT_TRUE(f) << f.error().message;
  settle();
  FrameView v;
  std::vector<Bytes> got;
  Next n;
  while ((n = f->next(v)) == Next::Ready)
    got.push_back(v.payload());
  EXPECT_EQ(n, Next::End) << (n == Next::Aborted ? f->error().message : "");
  ASSERT_EQ(got.size(), 17u);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], payload_of(1, i)) << "frame " << i;
  EXPECT_EQ(f->sequence(), 1u);
  EXPECT_FALSE(viewer->is_closed());
  EXPECT_FALSE(publisher->is_closed());
}

std::vector<Bytes> fetched(FetchConsumer& f, Next* last) {
  std::vector<Bytes> out;
  FrameView v;
  Next n;
  while ((n = f.next(v)) == Next::Ready)
    out.push_back(v.payload());
  *last = n;
  return out;
}

TEST_P(FetchTest, FrameRangeOfAGroup) {
  write_group(3, 10);
  FetchOptions o;
  o.frame_start = 2;
  o.frame_end = 5;
  auto f = viewer->fetch(Path("live/cam"), "video", 3, o);
  ASSERT_TRUE(f);
  settle();
  Next last;
  auto got = fetched(*f, &last);
  EXPECT_EQ(last, Next::End);
  EXPECT_EQ(f->frame_start(), 2u);
  ASSERT_EQ(got.size(), 4u);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], payload_of(3, i + 2));
  o.frame_end.reset();
  o.frame_start = 7;
  auto tail = viewer->fetch(Path("live/cam"), "video", 3, o);
  ASSERT_TRUE(tail);
  settle();
  got = fetched(*tail, &last);
  EXPECT_EQ(last, Next::End);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], payload_of(3, 7));
}

TEST_P(FetchTest, OpenGroupIsFetchedAsItStoodWhenTheRequestArrived) {
  write_group(0, 6, /*finish=*/false);
  auto f = viewer->fetch(Path("live/cam"), "video", 0);
  ASSERT_TRUE(f);
  settle();
  ASSERT_TRUE(open_groups[0].write_frame(6, payload_of(0, 6)));  // after the FETCH: not included
  settle();
  Next last;
  EXPECT_EQ(fetched(*f, &last).size(), 6u);
  EXPECT_EQ(last, Next::End);
}

TEST_P(FetchTest, ConcurrentFetchesEachGetTheirGroup) {
  for (uint64_t g = 0; g < 4; ++g)
    write_group(g, 3 + g);
  std::vector<FetchConsumer> fs;
  for (uint64_t g = 0; g < 4; ++g)
    fs.push_back(viewer->fetch(Path("live/cam"), "video", 3 - g).value());
  settle();
  for (uint64_t i = 0; i < 4; ++i) {
    Next last;
    auto got = fetched(fs[i], &last);
    EXPECT_EQ(last, Next::End);
    ASSERT_EQ(got.size(), 6 - i);
    EXPECT_EQ(got.back(), payload_of(3 - i, 5 - i));
  }
  EXPECT_EQ(viewer->counters().accepted(StreamKind::Fetch), 4u);
}

TEST_P(FetchTest, FutureGroupIsAnInvalidRange) {
  write_group(0, 2);
  auto f = viewer->fetch(Path("live/cam"), "video", 5);
  ASSERT_TRUE(f);
  settle();
  Next last;
  EXPECT_TRUE(fetched(*f, &last).empty());
  EXPECT_EQ(last, Next::Aborted);
  EXPECT_EQ(f->error().code, uint64_t(w_request_error::kInvalidRange)) << f->error().message;
  EXPECT_NE(f->error().message.find("INVALID_RANGE"), std::string::npos);
}

TEST_P(FetchTest, EmptyTrackIsAnInvalidRange) {
  auto f = viewer->fetch(Path("live/cam"), "video", 0);
  ASSERT_TRUE(f);
  settle();
  Next last;
  fetched(*f, &last);
  EXPECT_EQ(last, Next::Aborted);
  EXPECT_NE(f->error().message.find("INVALID_RANGE"), std::string::npos) << f->error().message;
}

TEST_P(FetchTest, MissingGroupAndUnknownTrackDoNotExist) {
  write_group(0, 2);
  write_group(2, 2);  // group 1 never existed
  auto gap = viewer->fetch(Path("live/cam"), "video", 1);
  auto unknown = viewer->fetch(Path("live/cam"), "audio", 0);
  ASSERT_TRUE(gap);
  ASSERT_TRUE(unknown);
  settle();
  for (FetchConsumer* f : {&*gap, &*unknown}) {
    Next last;
    fetched(*f, &last);
    EXPECT_EQ(last, Next::Aborted);
    EXPECT_EQ(f->error().code, data_error::kNotFound) << f->error().message;
    EXPECT_NE(f->error().message.find("DOES_NOT_EXIST"), std::string::npos);
  }
  EXPECT_FALSE(viewer->is_closed());
}

TEST_P(FetchTest, ArgumentsAreChecked) {
  FetchOptions o;
  o.frame_start = 4;
  o.frame_end = 2;
  auto f = viewer->fetch(Path("live/cam"), "video", 0, o);
  EXPECT_FALSE(f);
}

TEST_P(FetchTest, TrackInfoDescribesTheTrack) {
  TrackInfo info;
  info.priority = 9;
  info.cache.max_age_ns = 2'000'000'000;
  auto t = broadcast.create_track("meta", info);
  ASSERT_TRUE(t);
  auto r = viewer->track_info(Path("live/cam"), "meta");
  ASSERT_TRUE(r);
  auto missing = viewer->track_info(Path("live/cam"), "nothing");
  ASSERT_TRUE(missing);
  settle();
  TrackInfo got;
  ASSERT_EQ(r->get(got), Next::Ready);
  EXPECT_EQ(got.priority, 9);
  EXPECT_EQ(got.cache.max_age_ns, 2'000'000'000u);
  ASSERT_EQ(missing->get(got), Next::Aborted);
  EXPECT_EQ(missing->error().code, data_error::kNotFound);
  EXPECT_EQ(viewer->counters().opened(StreamKind::Track), 2u);
}

TEST_P(FetchTest, GoawayStopsNewRequests) {
  EXPECT_FALSE(client->goaway("moqt://elsewhere"));  // a client's URI must be empty
  ASSERT_TRUE(server->goaway("moqt://elsewhere"));
  EXPECT_FALSE(server->goaway(""));  // once per session
  settle();
  ASSERT_TRUE(client->peer_goaway());
  EXPECT_EQ(*client->peer_goaway(), "moqt://elsewhere");
  auto f = client->fetch(Path("live/cam"), "video", 0);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, uint64_t(w_request_error::kGoingAway));
  EXPECT_FALSE(client->is_closed());
}

INSTANTIATE_TEST_SUITE_P(Drafts, FetchTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
