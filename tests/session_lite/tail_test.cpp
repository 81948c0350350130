// The tail of a moq-lite subscription: SUBSCRIBE_END (and on -06 the publisher's FIN, which
// follows the group streams it wrote, not their arrival) may reach the subscriber before the
// last group streams do. The mirror track must take those streams and end only after them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

constexpr uint64_t kGroups = 3;
constexpr uint64_t kFrames = 4;
constexpr size_t kFrameSize = 20'000;

// A link slow enough that the groups' bytes are still on it when the tiny SUBSCRIBE_END (sent
// as the track ends, before the group streams are written) and the publisher's FIN arrive.
sim::net::LinkConfig slow_link() {
  sim::net::LinkConfig link;
  link.latency_ns = 1'000'000;
  link.bandwidth_bps = 8'000'000;  // a byte a microsecond: 80 ms a group
  return link;
}

Bytes frame_bytes(uint64_t g, uint64_t f) {
  return Bytes::copy(std::string(kFrameSize, static_cast<char>('a' + (g * kFrames + f) % 26)));
}

size_t frame_size(const FrameView& f) {
  size_t n = 0;
  for (const Bytes& c : f.chunks)
    n += c.size();
  return n;
}

class Tail : public ::testing::TestWithParam<Version> {};

TEST_P(Tail, GroupStreamsStillInFlightWhenTheTrackEndsAllArriveBeforeTheEnd) {
  SessionPair w(GetParam(), {}, slow_link());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.pass(100'000'000);  // TRACK and SUBSCRIBE reach the publisher
  for (uint64_t g = 0; g < kGroups; ++g) {
    GroupProducer group = std::move(pub.track.create_group(g).value());
    for (uint64_t f = 0; f < kFrames; ++f)
      ASSERT_TRUE(group.write_frame(f, frame_bytes(g, f)).ok());
    ASSERT_TRUE(group.finish().ok());
  }
  ASSERT_TRUE(pub.track.finish().ok());

  // Read as a consumer reads, while the bytes arrive: every group, each whole, then the end.
  std::vector<GroupConsumer> groups;
  std::vector<uint64_t> sequences;
  bool ended = false;
  for (int step = 0; step < 2'000 && !ended; ++step) {
    ASSERT_NO_FATAL_FAILURE(w.pass(1'000'000));
    GroupConsumer g;
    for (Next n = track.next(g); n != Next::Pending; n = track.next(g)) {
      if (n == Next::End) {
        ended = true;
        break;
      }
      ASSERT_EQ(n, Next::Ready) << track.error().message;
      EXPECT_FALSE(ended) << "group " << g.sequence() << " after the end";
      sequences.push_back(g.sequence());
      groups.push_back(std::move(g));
    }
  }
  ASSERT_TRUE(ended) << "the track never ended";
  EXPECT_EQ(sequences, (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(track.end_sequence(), kGroups);
  w.settle();
  for (GroupConsumer& g : groups) {
    FrameView f;
    uint64_t frames = 0;
    Next n;
    while ((n = g.next(f)) == Next::Ready) {
      EXPECT_EQ(frame_size(f), kFrameSize) << "group " << g.sequence();
      ++frames;
    }
    EXPECT_EQ(n, Next::End) << "group " << g.sequence();
    EXPECT_EQ(frames, kFrames) << "group " << g.sequence();
  }
  EXPECT_EQ(w.viewer->counters().protocol_errors, 0u);
  EXPECT_EQ(w.publisher->counters().protocol_errors, 0u);
}

INSTANTIATE_TEST_SUITE_P(Lite, Tail, ::testing::Values(Version::Lite06, Version::Lite07Wip),
                         version_param_name);

}  // namespace
}  // namespace moq::test
