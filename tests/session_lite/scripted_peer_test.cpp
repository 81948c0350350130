// A viewer session against a scripted publisher (raw streams written by the test), for the
// behaviour a well-behaved publisher session never shows: the -07 tail grace period, and
// publisher errors the viewer must catch.
#include <gtest/gtest.h>

#include "model/wire/lite/messages.h"
#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

namespace wl = wire::lite;

struct ScriptedWorld {
  explicit ScriptedWorld(Version v) : version(v) {
    sim::memory::PairConfig cfg;
    cfg.alpn = std::string(session::version_alpn(v));
    conns = std::move(sim::memory::make_pair(executor, cfg).value());
    viewer = std::move(session::create_session(*conns.client, v).value());
  }
  wl::LiteVersion wire() const {
    return version == Version::Lite06 ? wl::LiteVersion::Lite06 : wl::LiteVersion::Lite07Wip;
  }
  void settle() { ASSERT_FALSE(executor.run_until_idle(1'000'000).budget_exhausted); }

  template <class M>
  Bytes encode(const M& m) {
    std::vector<uint8_t> out;
    Writer w(out, wl::varint_form(wire()));
    EXPECT_TRUE(m.encode(w, wire()).ok());
    return Bytes::copy(std::span<const uint8_t>(out));
  }
  static void send(SendStream& s, Bytes b) {
    BufChain chain;
    chain.push(std::move(b));
    ASSERT_TRUE(s.write(chain).ok());
  }
  // The next bidi stream the viewer opened, with its type byte read.
  BidiStream accept(uint8_t expected_type) {
    BidiStream b = std::move(conns.server->accept_bidi().value());
    EXPECT_TRUE(b);
    Bytes chunk;
    EXPECT_EQ(b.recv->read(chunk).status, ReadStatus::Data);
    EXPECT_FALSE(chunk.empty());
    if (!chunk.empty()) {
      EXPECT_EQ(chunk[0], expected_type);
    }
    return b;
  }

  Version version;
  sim::VirtualClock clock;
  Executor executor{clock};
  sim::memory::ConnectionPair conns;
  std::unique_ptr<session::Session> viewer;
};

// Answers the viewer's TRACK with TRACK_INFO + FIN and returns its SUBSCRIBE stream.
BidiStream answer_track_and_accept_subscribe(ScriptedWorld& w) {
  BidiStream track = w.accept(0x06);
  wl::TrackInfo info;
  info.timescale = 1000;
  ScriptedWorld::send(*track.send, w.encode(info));
  EXPECT_TRUE(track.send->finish().ok());
  w.settle();
  return w.accept(0x02);
}

TEST(ScriptedPublisher, SevenTailWaitsForAnnouncedStreamsThenAGracePeriod) {
  ScriptedWorld w(Version::Lite07Wip);
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  BidiStream sub = answer_track_and_accept_subscribe(w);
  ScriptedWorld::send(*sub.send, w.encode(wl::SubscribeOk{0}));
  // The end: group 1 is the first that will never come, and 1 group stream was opened (but its
  // header never arrives: reset before it, say).
  ScriptedWorld::send(*sub.send, w.encode(wl::SubscribeEnd{1, 1}));
  w.settle();
  Bytes chunk;
  EXPECT_EQ(sub.recv->read(chunk).status, ReadStatus::WouldBlock) << "FINed before the tail";
  // After the grace period the viewer gives up on the missing stream and FINs.
  w.executor.advance_to(w.clock.now_ns() + 2'000'000'000);
  EXPECT_EQ(sub.recv->read(chunk).status, ReadStatus::Fin);
  GroupConsumer g;
  EXPECT_EQ(track.next(g), Next::End);
  ASSERT_TRUE(sub.send->finish().ok());
  w.settle();
  EXPECT_FALSE(w.viewer->is_closed());
}

TEST(ScriptedPublisher, SevenTailEndsAsSoonAsEveryHeaderArrived) {
  ScriptedWorld w(Version::Lite07Wip);
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  BidiStream sub = answer_track_and_accept_subscribe(w);
  ScriptedWorld::send(*sub.send, w.encode(wl::SubscribeOk{0}));
  SendStreamPtr group = std::move(w.conns.server->open_uni().value());
  uint8_t header[wl::kMaxGroupStreamHeaderSize];
  const size_t n = wl::encode_group_stream_header({0, 0, 0}, w.wire(), header);
  ScriptedWorld::send(*group, Bytes::copy(std::span<const uint8_t>(header, n)));
  ASSERT_TRUE(group->finish().ok());
  ScriptedWorld::send(*sub.send, w.encode(wl::SubscribeEnd{1, 1}));
  w.settle();
  Bytes chunk;
  EXPECT_EQ(sub.recv->read(chunk).status, ReadStatus::Fin);
  GroupConsumer g;
  ASSERT_EQ(track.next(g), Next::Ready);
  EXPECT_EQ(g.sequence(), 0u);
  FrameView f;
  EXPECT_EQ(g.next(f), Next::End);  // an empty group
  EXPECT_EQ(track.next(g), Next::End);
}

class ScriptedBoth : public ::testing::TestWithParam<Version> {};

TEST_P(ScriptedBoth, FinWithoutSubscribeEndIsAViolation) {
  ScriptedWorld w(GetParam());
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  BidiStream sub = answer_track_and_accept_subscribe(w);
  ScriptedWorld::send(*sub.send, w.encode(wl::SubscribeOk{0}));
  ASSERT_TRUE(sub.send->finish().ok());
  w.settle();
  ASSERT_TRUE(w.viewer->is_closed());
  EXPECT_EQ(w.viewer->error()->code, 0x3u);
  EXPECT_NE(w.viewer->error()->message.find("SUBSCRIBE_END"), std::string::npos);
  EXPECT_EQ(track.status(), TrackStatus::Aborted);
}

TEST_P(ScriptedBoth, AnnounceEndOfAnUnknownIdIsAViolation) {
  ScriptedWorld w(GetParam());
  auto announced = w.viewer->announced(Path(""));
  w.settle();
  BidiStream ann = w.accept(0x01);
  ScriptedWorld::send(*ann.send, w.encode(wl::AnnounceOk{9, 1}));
  wl::AnnounceStart start;
  start.suffix = "demo";
  ScriptedWorld::send(*ann.send, w.encode(start));
  w.settle();
  AnnounceEvent e;
  ASSERT_EQ(announced.value().next(e), Next::Ready);
  EXPECT_EQ(e.path.str(), "demo");
  ScriptedWorld::send(*ann.send, w.encode(wl::AnnounceEnd{0}));
  w.settle();
  ASSERT_EQ(announced.value().next(e), Next::Ready);
  EXPECT_EQ(e.kind, AnnounceEvent::Kind::Unannounce);
  ScriptedWorld::send(*ann.send, w.encode(wl::AnnounceEnd{0}));  // retired already
  w.settle();
  ASSERT_TRUE(w.viewer->is_closed());
  EXPECT_EQ(w.viewer->error()->code, 0x3u);
  EXPECT_NE(w.viewer->error()->message.find("ANNOUNCE_END"), std::string::npos)
      << w.viewer->error()->message;
}

TEST_P(ScriptedBoth, AnnouncedLoopThroughUsIsIgnored) {
  ScriptedWorld w(GetParam());
  auto announced = w.viewer->announced(Path(""));
  w.settle();
  BidiStream ann = w.accept(0x01);
  ScriptedWorld::send(*ann.send, w.encode(wl::AnnounceOk{9, 0}));
  wl::AnnounceStart loop;
  loop.suffix = "looped";
  loop.hops = wl::HopList{1};  // the viewer's Hop ID (SessionConfig default)
  ScriptedWorld::send(*ann.send, w.encode(loop));
  wl::AnnounceStart ok;
  ok.suffix = "fine";
  ScriptedWorld::send(*ann.send, w.encode(ok));
  w.settle();
  AnnounceEvent e;
  ASSERT_EQ(announced.value().next(e), Next::Ready);
  EXPECT_EQ(e.path.str(), "fine");
  EXPECT_EQ(announced.value().next(e), Next::Pending);
  // Ending the stream withdraws its routes.
  ASSERT_TRUE(ann.send->finish().ok());
  w.settle();
  ASSERT_EQ(announced.value().next(e), Next::Ready);
  EXPECT_EQ(e.kind, AnnounceEvent::Kind::Unannounce);
  EXPECT_FALSE(w.viewer->is_closed());
}

INSTANTIATE_TEST_SUITE_P(Lite, ScriptedBoth, ::testing::Values(Version::Lite06, Version::Lite07Wip),
                         version_param_name);

}  // namespace
}  // namespace moq::test
