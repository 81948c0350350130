// The promises of model/session/session.h, on every version through the version-agnostic
// interface: zero-length frames are delivered like any other (fetch and subscription), and every
// consumer a session handed out ends once the session closes or is destroyed (announcements
// included).
#include <gtest/gtest.h>

#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

class Contract : public ::testing::TestWithParam<Version> {};

// Frames 0 .. sizes.size()-1 of a new group g, with the given payload sizes.
GroupProducer write_sized_group(TrackProducer& track, uint64_t g, std::vector<size_t> sizes) {
  GroupProducer group = std::move(track.create_group(g).value());
  for (size_t f = 0; f < sizes.size(); ++f) {
    EXPECT_TRUE(group.write_frame(10 * f, Bytes::copy(std::string(sizes[f], 'x'))).ok());
  }
  EXPECT_TRUE(group.finish().ok());
  return group;
}

std::vector<size_t> sizes_of(const Drained& d) {
  std::vector<size_t> out;
  for (const std::string& f : d.frames)
    out.push_back(f.size());
  return out;
}

// Zero-length objects are legal on every version; runs of them must arrive whole.
const std::vector<std::vector<size_t>> kZeroLengthGroups = {
    {0}, {0, 0}, {0, 0, 0, 0}, {0, 5, 0, 0, 7, 0}, {3, 0, 0}};

TEST_P(Contract, FetchDeliversZeroLengthFrames) {
  for (const std::vector<size_t>& sizes : kZeroLengthGroups) {
    SessionPair w(GetParam());
    auto pub = w.publish("demo");
    write_sized_group(pub.track, 0, sizes);
    auto fetched = w.viewer->fetch(Path("demo"), "video", 0);
    ASSERT_TRUE(fetched) << fetched.error().message;
    w.settle();
    Drained d = drain_frames(*fetched);
    EXPECT_EQ(d.last, Next::End) << testing::PrintToString(sizes);
    EXPECT_EQ(sizes_of(d), sizes);
  }
}

TEST_P(Contract, SubscriptionDeliversZeroLengthFrames) {
  for (const std::vector<size_t>& sizes : kZeroLengthGroups) {
    SessionPair w(GetParam());
    auto pub = w.publish("demo");
    TrackPreferences prefs;
    prefs.group_start = 0;
    auto track = w.viewer->subscribe(Path("demo"), "video", prefs);
    ASSERT_TRUE(track) << track.error().message;
    w.settle();
    write_sized_group(pub.track, 0, sizes);
    write_sized_group(pub.track, 1, sizes);
    w.settle();
    for (uint64_t g = 0; g < 2; ++g) {
      GroupConsumer group;
      ASSERT_EQ(track->next(group), Next::Ready) << testing::PrintToString(sizes);
      EXPECT_EQ(group.sequence(), g);
      Drained d = drain_frames(group);
      EXPECT_EQ(d.last, Next::End) << testing::PrintToString(sizes);
      EXPECT_EQ(sizes_of(d), sizes);
    }
    EXPECT_EQ(w.publisher->counters().protocol_errors, 0u);
    EXPECT_EQ(w.viewer->counters().protocol_errors, 0u);
  }
}

TEST_P(Contract, AnnouncedConsumersEndWhenTheSessionCloses) {
  SessionPair w(GetParam());
  auto pub = w.publish("live/demo");
  auto announced = w.viewer->announced(Path("live"));
  ASSERT_TRUE(announced) << announced.error().message;
  w.settle();
  Next last;
  EXPECT_EQ(drain_announcements(*announced, last), std::vector<std::string>{"+live/demo"});
  EXPECT_EQ(last, Next::Pending);
  w.viewer->close(0x0, "done watching");
  w.settle();
  EXPECT_EQ(drain_announcements(*announced, last), std::vector<std::string>{"-live/demo"});
  ASSERT_EQ(last, Next::Aborted);
  EXPECT_EQ(announced->error().message, "done watching");
}

TEST_P(Contract, AnnouncedConsumersEndWhenTheSessionIsDestroyed) {
  SessionPair w(GetParam());
  auto pub = w.publish("live/demo");
  auto announced = w.viewer->announced(Path("live"));
  auto quiet = w.viewer->announced(Path("elsewhere"));
  ASSERT_TRUE(announced && quiet);
  w.settle();
  Next last;
  EXPECT_EQ(drain_announcements(*announced, last), std::vector<std::string>{"+live/demo"});
  w.viewer.reset();
  w.settle();
  EXPECT_EQ(drain_announcements(*announced, last), std::vector<std::string>{"-live/demo"});
  EXPECT_EQ(last, Next::Aborted);
  EXPECT_TRUE(drain_announcements(*quiet, last).empty());
  EXPECT_EQ(last, Next::Aborted);
}

INSTANTIATE_TEST_SUITE_P(AllVersions, Contract,
                         ::testing::ValuesIn(session::implemented_versions().begin(),
                                             session::implemented_versions().end()),
                         version_param_name);

}  // namespace
}  // namespace moq::test
