// The data plane under pressure: tiny flow-control windows (partial gather writes), few streams
// (requests waiting for stream credit), and FRAME bytes split at every possible chunk boundary.
#include <gtest/gtest.h>

#include "model/session/lite/frames.h"
#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

class Flow : public ::testing::TestWithParam<Version> {};

TEST_P(Flow, TinyWindowsStillDeliverEveryFrame) {
  sim::memory::PairConfig cfg;
  cfg.stream_window = 100;
  cfg.conn_window = 300;
  SessionPair w(GetParam(), cfg);
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  for (uint64_t g = 0; g < 3; ++g)
    SessionPair::write_group(pub.track, g, 40);
  auto fetched = w.viewer->fetch(Path("demo"), "video", 1);
  w.settle();
  for (uint64_t g = 0; g < 3; ++g) {
    GroupConsumer group;
    ASSERT_EQ(track.next(group), Next::Ready);
    Drained d = drain_frames(group);
    EXPECT_EQ(d.last, Next::End) << (d.last == Next::Aborted ? group.error().message : "");
    ASSERT_EQ(d.frames.size(), 40u);
    for (uint64_t f = 0; f < 40; ++f)
      EXPECT_EQ(d.frames[f], payload(group.sequence(), f));
  }
  Drained d = drain_frames(fetched.value());
  EXPECT_EQ(d.last, Next::End);
  EXPECT_EQ(d.frames.size(), 40u);
}

TEST_P(Flow, RequestsWaitForStreamCredit) {
  sim::memory::PairConfig cfg;
  cfg.max_bidi = 2;
  cfg.max_uni = 2;
  SessionPair w(GetParam(), cfg);
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  for (uint64_t g = 0; g < 6; ++g)
    SessionPair::write_group(pub.track, g, 3);
  std::vector<session::FetchConsumer> fetches;
  for (uint64_t g = 0; g < 6; ++g)
    fetches.push_back(std::move(w.viewer->fetch(Path("demo"), "video", g).value()));
  w.settle();
  for (uint64_t g = 0; g < 6; ++g) {
    Drained d = drain_frames(fetches[g]);
    EXPECT_EQ(d.last, Next::End) << "fetch " << g;
    EXPECT_EQ(d.frames.size(), 3u);
    GroupConsumer group;
    ASSERT_EQ(track.next(group), Next::Ready);
    EXPECT_EQ(drain_frames(group).frames.size(), 3u);
  }
}

// Requests waiting for the peer's stream credit are woken one at a time as credit comes back
// (model/session/core BidiOpenQueue), not all of them on every change: the executor's polls grow
// linearly with the requests waiting, and none is left behind.
TEST_P(Flow, RequestsWaitingForCreditAreWokenInTurn) {
  sim::memory::PairConfig cfg;
  cfg.max_bidi = 2;
  SessionPair w(GetParam(), cfg);
  auto pub = w.publish("demo");
  w.settle();
  SessionPair::write_group(pub.track, 0, 1);
  constexpr size_t kWaiting = 64;
  std::vector<session::FetchConsumer> fetches;
  const uint64_t before = w.executor.polls();
  for (size_t i = 0; i < kWaiting; ++i)
    fetches.push_back(std::move(w.viewer->fetch(Path("demo"), "video", 0).value()));
  w.settle();
  for (size_t i = 0; i < kWaiting; ++i)
    EXPECT_EQ(drain_frames(fetches[i]).last, Next::End) << "fetch " << i;
  // 475 polls (about 7.4 per fetch, both ends); with every waiter woken on each change of
  // credit, 1,344.
  EXPECT_LT(w.executor.polls() - before, 10 * kWaiting);
}

INSTANTIATE_TEST_SUITE_P(Lite, Flow, ::testing::Values(Version::Lite06, Version::Lite07Wip),
                         version_param_name);

// FRAMEs (header + payload, including an empty payload and a 300-byte one) cut into chunks at
// every pair of boundaries: the parser rebuilds the same frames without copying payloads.
TEST(FrameParser, RebuildsFramesFromAnyChunking) {
  for (auto v : {wire::lite::LiteVersion::Lite06, wire::lite::LiteVersion::Lite07Wip}) {
    const std::vector<std::string> payloads = {"abc", "", std::string(300, 'x'), "z"};
    const std::vector<uint64_t> stamps = {1000, 1033, 900, 5'000'000'000ull};
    std::vector<uint8_t> wire;
    uint64_t last = 0;
    for (size_t i = 0; i < payloads.size(); ++i) {
      uint8_t hdr[wire::lite::kMaxFrameHeaderSize];
      size_t n = wire::lite::encode_frame_header(static_cast<int64_t>(stamps[i] - last),
                                                 payloads[i].size(), v, hdr);
      ASSERT_GT(n, 0u);
      wire.insert(wire.end(), hdr, hdr + n);
      wire.insert(wire.end(), payloads[i].begin(), payloads[i].end());
      last = stamps[i];
    }
    const Bytes all = Bytes::copy(std::span<const uint8_t>(wire));
    // Each cut fed on its own (one read per chunk), or all of them in one call (a vectored
    // read's chunks).
    for (size_t a = 0; a <= wire.size(); a += 3) {
      for (size_t b = a; b <= wire.size(); b += 5) {
        for (const bool vectored : {false, true}) {
          session::lite::FrameParser parser;
          parser.reset();
          GroupProducer group = GroupProducer::create(0);
          std::vector<Bytes> chunks;
          for (auto [from, to] :
               {std::pair{size_t{0}, a}, std::pair{a, b}, std::pair{b, wire.size()}}) {
            if (to > from) chunks.push_back(all.slice(from, to - from));
          }
          if (vectored) {
            ASSERT_TRUE(parser.feed(std::span<Bytes>(chunks), group, v).ok());
          } else {
            for (Bytes& chunk : chunks)
              ASSERT_TRUE(parser.feed(std::move(chunk), group, v).ok());
          }
          ASSERT_TRUE(parser.at_boundary());
          EXPECT_EQ(parser.take_frames(), payloads.size());
          GroupConsumer c = group.consume();
          Drained d = drain_frames(c);
          EXPECT_EQ(d.frames, payloads) << "cuts at " << a << ", " << b;
          EXPECT_EQ(d.timestamps, stamps);
        }
      }
    }
  }
}

TEST(FrameParser, MalformedHeaderNamesTheField) {
  session::lite::FrameParser parser;
  parser.reset();
  GroupProducer group = GroupProducer::create(0);
  const uint8_t bad[] = {0x00, 0xc0, 0, 0, 0, 0x10, 0, 0, 0};  // -06: length 256 MiB
  Status st = parser.feed(Bytes::copy(std::span<const uint8_t>(bad, sizeof bad)), group,
                          wire::lite::LiteVersion::Lite06);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, 0x3u);
  EXPECT_NE(st.error().message.find("FRAME"), std::string::npos);
  EXPECT_NE(st.error().message.find("Message Length"), std::string::npos);
}

}  // namespace
}  // namespace moq::test
