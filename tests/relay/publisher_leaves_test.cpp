// A publisher that ends its track cleanly and closes its session at once: the relay still holds
// groups it has not passed on to a viewer behind a slow link. Every complete group must reach
// the viewer, and the track's end must reach it as a clean end, not an error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/relay/relay.h"
#include "model/wire/version.h"
#include "tests/relay/relay_world.h"
#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

constexpr uint64_t kGroups = 3;
constexpr uint64_t kFrames = 4;
constexpr size_t kFrameSize = 20'000;

// The viewer's link: a byte a microsecond, so the relay passes each group on in about 80 ms.
sim::net::LinkConfig slow_link() {
  sim::net::LinkConfig link;
  link.latency_ns = 1'000'000;
  link.bandwidth_bps = 8'000'000;
  return link;
}

size_t frame_size(const FrameView& f) {
  size_t n = 0;
  for (const Bytes& c : f.chunks)
    n += c.size();
  return n;
}

// Lets ns of virtual time pass, running what becomes due on the way (arrivals included).
void pass(RelayWorld& w, uint64_t ns) {
  RunReport r = w.executor.advance_to(w.executor.now_ns() + ns, 1'000'000);
  ASSERT_FALSE(r.budget_exhausted) << r.detail;
}

// The versions the relay serves in its benchmarks: the interop-only draft is left out (its
// subscription through the relay is another matter, tested with its JavaScript peer).
std::vector<Version> relayed_versions() {
  std::vector<Version> out;
  for (Version v : session::implemented_versions())
    if (!version_interop_only(v)) out.push_back(v);
  return out;
}

class PublisherLeaves : public ::testing::TestWithParam<Version> {};

TEST_P(PublisherLeaves, EveryCompleteGroupAndACleanEndReachTheViewer) {
  RelayWorld w;
  Client& pub = w.connect(GetParam(), true);
  auto live = w.publish(pub, "demo");
  w.settle();
  Client& viewer = w.connect(GetParam(), false, 0, false, slow_link());
  TrackConsumer track = std::move(viewer.session->subscribe(Path("demo"), "video").value());
  ASSERT_NO_FATAL_FAILURE(pass(w, 100'000'000));

  for (uint64_t g = 0; g < kGroups; ++g) {
    GroupProducer group = std::move(live.track.create_group(g).value());
    for (uint64_t f = 0; f < kFrames; ++f)
      ASSERT_TRUE(group.write_frame(f, Bytes::copy(std::string(kFrameSize, 'x'))).ok());
    ASSERT_TRUE(group.finish().ok());
  }
  ASSERT_TRUE(live.track.finish().ok());
  // Everything reaches the relay (the publisher's link is ideal); then the publisher leaves, and
  // the relay drops its session, as a relay server does when the connection closes.
  w.settle();
  pub.session->close(0, "done");
  w.relay.remove(*pub.relay_side);
  w.settle();

  std::vector<GroupConsumer> groups;
  std::vector<uint64_t> sequences;
  Next last = Next::Pending;
  for (int step = 0; step < 2'000 && last == Next::Pending; ++step) {
    ASSERT_NO_FATAL_FAILURE(pass(w, 1'000'000));
    GroupConsumer g;
    while ((last = track.next(g)) == Next::Ready) {
      sequences.push_back(g.sequence());
      groups.push_back(std::move(g));
    }
  }
  EXPECT_EQ(last, Next::End) << track.error().message;
  EXPECT_EQ(sequences, (std::vector<uint64_t>{0, 1, 2}));
  for (GroupConsumer& g : groups) {
    FrameView f;
    uint64_t frames = 0;
    Next n;
    while ((n = g.next(f)) == Next::Ready) {
      EXPECT_EQ(frame_size(f), kFrameSize) << "group " << g.sequence();
      ++frames;
    }
    EXPECT_EQ(n, Next::End) << "group " << g.sequence() << ": " << g.error().message;
    EXPECT_EQ(frames, kFrames) << "group " << g.sequence();
  }
}

INSTANTIATE_TEST_SUITE_P(Relayed, PublisherLeaves, ::testing::ValuesIn(relayed_versions()),
                         version_param_name);

}  // namespace
}  // namespace moq::test
