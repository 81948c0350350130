// How sessions fail: vanishing publishers, resets, unknown streams, malformed messages, closes
// with streams open, and the version registry.
#include <gtest/gtest.h>

#include "model/base/varint.h"
#include "tests/session_lite/session_fixture.h"

namespace moq::test {
namespace {

class Failure : public ::testing::TestWithParam<Version> {};

// Writes raw bytes on a stream opened outside the sessions (a misbehaving peer).
void write_raw(SendStream& s, std::initializer_list<uint8_t> bytes) {
  std::vector<uint8_t> v(bytes);
  BufChain chain;
  chain.push(Bytes::copy(std::span<const uint8_t>(v)));
  ASSERT_TRUE(s.write(chain).ok());
}

TEST_P(Failure, PublisherDroppingAGroupMidwayAbortsTheViewersGroup) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  {
    GroupProducer group = SessionPair::write_group(pub.track, 0, 2, /*finish=*/false);
    w.settle();
  }  // dropped unfinished
  w.settle();
  GroupConsumer got;
  ASSERT_EQ(track.next(got), Next::Ready);
  FrameView f;
  EXPECT_EQ(got.next(f), Next::Aborted);
  EXPECT_NE(got.error().message.find("reset by the peer"), std::string::npos);
  EXPECT_FALSE(w.viewer->is_closed());
}

TEST_P(Failure, PublisherVanishingMidGroupEndsTheViewersGroupWithAnError) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  auto fetched = w.viewer->fetch(Path("demo"), "video", 0);
  GroupProducer group = SessionPair::write_group(pub.track, 0, 2, /*finish=*/false);
  w.settle();
  GroupConsumer got;
  ASSERT_EQ(track.next(got), Next::Ready);
  EXPECT_EQ(drain_frames(got).frames.size(), 2u);
  // The whole publisher goes: its session and its connection.
  w.publisher.reset();
  w.conns.server.reset();
  w.settle();
  FrameView f;
  EXPECT_EQ(got.next(f), Next::Aborted);
  EXPECT_EQ(drain_frames(fetched.value()).last, Next::Aborted);
  EXPECT_EQ(track.next(got), Next::Aborted);
  EXPECT_TRUE(w.viewer->is_closed());
  ASSERT_TRUE(w.viewer->error().has_value());
  EXPECT_NE(w.viewer->error()->message.find("dropped"), std::string::npos);
}

TEST_P(Failure, ResetGroupStreamAbortsOnlyThatGroup) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  GroupProducer bad = SessionPair::write_group(pub.track, 0, 1, /*finish=*/false);
  w.settle();
  bad.abort(Error{0x34, "superseded"});  // the group stream is reset with code 0x34
  SessionPair::write_group(pub.track, 1, 3);
  w.settle();
  GroupConsumer g0, g1;
  ASSERT_EQ(track.next(g0), Next::Ready);
  FrameView f;
  EXPECT_EQ(g0.next(f), Next::Aborted);
  EXPECT_EQ(g0.error().code, 0x34u);
  ASSERT_EQ(track.next(g1), Next::Ready);
  Drained d = drain_frames(g1);
  EXPECT_EQ(d.last, Next::End);
  EXPECT_EQ(d.frames.size(), 3u);
  EXPECT_EQ(track.status(), TrackStatus::Active);
  EXPECT_FALSE(w.viewer->is_closed());
  EXPECT_EQ(w.viewer->counters().resets_received, 1u);
}

TEST_P(Failure, UnknownStreamTypesAreStoppedAndTheSessionLives) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  SessionPair::write_group(pub.track, 0, 2);
  w.settle();
  SendStreamPtr uni = std::move(w.conns.client->open_uni().value());
  write_raw(*uni, {0x3f, 1, 2, 3});
  BidiStream bidi = std::move(w.conns.client->open_bidi().value());
  write_raw(*bidi.send, {0x3e, 1, 2, 3});
  BidiStream probe = std::move(w.conns.client->open_bidi().value());
  write_raw(*probe.send, {0x04, 0x02, 0x00, 0x00});  // PROBE: never offered, so reset
  w.settle();
  EXPECT_FALSE(w.publisher->is_closed());
  EXPECT_EQ(w.publisher->counters().unknown_streams, 2u);
  EXPECT_EQ(w.publisher->counters().accepted(session::StreamKind::Unknown), 2u);
  EXPECT_EQ(w.publisher->counters().accepted(session::StreamKind::Probe), 1u);
  EXPECT_TRUE(uni->stop_code().has_value());
  EXPECT_TRUE(bidi.send->stop_code().has_value());
  Bytes chunk;
  EXPECT_EQ(bidi.recv->read(chunk).status, ReadStatus::Reset);
  EXPECT_EQ(probe.recv->read(chunk).status, ReadStatus::Reset);
  // The session still serves requests.
  auto fetched = w.viewer->fetch(Path("demo"), "video", 0);
  w.settle();
  EXPECT_EQ(drain_frames(fetched.value()).frames.size(), 2u);
}

TEST_P(Failure, MalformedMessageClosesTheSessionNamingTheMessage) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  BidiStream bad = std::move(w.conns.client->open_bidi().value());
  // SUBSCRIBE whose Broadcast Path length runs past the 3-byte body.
  write_raw(*bad.send, {0x02, 0x03, 0x00, 0x09, 0x61});
  w.settle();
  ASSERT_TRUE(w.publisher->is_closed());
  ASSERT_TRUE(w.publisher->error().has_value());
  EXPECT_EQ(w.publisher->error()->code, 0x3u);
  EXPECT_NE(w.publisher->error()->message.find("SUBSCRIBE"), std::string::npos)
      << w.publisher->error()->message;
  EXPECT_EQ(w.publisher->counters().protocol_errors, 1u);
  // The peer learns the code and the reason; its consumers end.
  ASSERT_TRUE(w.viewer->is_closed());
  EXPECT_EQ(w.viewer->error()->code, 0x3u);
  EXPECT_NE(w.viewer->error()->message.find("SUBSCRIBE"), std::string::npos);
  EXPECT_EQ(track.status(), TrackStatus::Aborted);
}

TEST_P(Failure, MalformedFrameClosesTheSession) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  // A group stream for the viewer's subscription 0 whose FRAME length is above 64 MiB.
  SendStreamPtr uni = std::move(w.conns.server->open_uni().value());
  const bool quic = GetParam() == Version::Lite06;
  if (quic) {
    write_raw(*uni, {0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0xc0, 0, 0, 0, 0x10, 0, 0, 0});
  } else {
    write_raw(*uni, {0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0xff, 0, 0, 0, 0, 0x10, 0, 0, 0});
  }
  w.settle();
  ASSERT_TRUE(w.viewer->is_closed());
  EXPECT_EQ(w.viewer->error()->code, 0x3u);
  EXPECT_NE(w.viewer->error()->message.find("FRAME"), std::string::npos)
      << w.viewer->error()->message;
}

TEST_P(Failure, SecondSetupStreamIsAViolation) {
  SessionPair w(GetParam());
  w.settle();
  SendStreamPtr uni = std::move(w.conns.client->open_uni().value());
  write_raw(*uni, {0x01, 0x01, 0x00});
  ASSERT_TRUE(uni->finish().ok());
  w.settle();
  ASSERT_TRUE(w.publisher->is_closed());
  EXPECT_EQ(w.publisher->error()->code, 0x3u);
  EXPECT_NE(w.publisher->error()->message.find("SETUP"), std::string::npos);
}

TEST_P(Failure, ClosingWithStreamsOpenEndsEveryConsumerAndLeaksNothing) {
  SessionPair w(GetParam());
  auto pub = w.publish("live/demo");
  GroupProducer open_group = SessionPair::write_group(pub.track, 0, 2, /*finish=*/false);
  TrackConsumer track = std::move(w.viewer->subscribe(Path("live/demo"), "video").value());
  auto fetched = w.viewer->fetch(Path("live/demo"), "video", 0);
  auto announced = w.viewer->announced(Path("live"));
  auto info = w.viewer->track_info(Path("live/demo"), "video");
  w.settle();
  EXPECT_GT(w.conns.client->live_streams(), 2u);
  w.viewer->close(0x0, "done watching");
  EXPECT_TRUE(w.viewer->is_closed());
  EXPECT_EQ(w.viewer->error()->message, "done watching");
  w.settle();
  EXPECT_EQ(track.status(), TrackStatus::Aborted);
  EXPECT_EQ(drain_frames(fetched.value()).last, Next::Aborted);
  AnnounceEvent e;
  Next n;
  while ((n = announced.value().next(e)) == Next::Ready) {
  }
  EXPECT_EQ(e.kind, AnnounceEvent::Kind::Unannounce);
  EXPECT_TRUE(w.publisher->is_closed());
  EXPECT_EQ(w.publisher->error()->message, "done watching");
  EXPECT_FALSE(w.viewer->fetch(Path("live/demo"), "video", 0).ok());
  // Dropping the sessions releases every stream handle; ASan checks the rest at exit.
  w.viewer.reset();
  w.publisher.reset();
  EXPECT_EQ(w.conns.client->live_streams(), 0u);
  EXPECT_EQ(w.executor.live_tasks(), 0u);
}

TEST_P(Failure, DroppingSessionsMidTransferLeaksNothing) {
  SessionPair w(GetParam());
  auto pub = w.publish("demo");
  TrackConsumer track = std::move(w.viewer->subscribe(Path("demo"), "video").value());
  w.settle();
  GroupProducer group = SessionPair::write_group(pub.track, 0, 100, /*finish=*/false);
  auto fetched = w.viewer->fetch(Path("demo"), "video", 0);
  // No settle: streams are mid-flight when both sessions go.
  w.viewer.reset();
  w.publisher.reset();
  w.settle();
  EXPECT_EQ(w.conns.client->live_streams(), 0u);
  EXPECT_EQ(track.status(), TrackStatus::Aborted);
  EXPECT_EQ(drain_frames(fetched.value()).last, Next::Aborted);
  EXPECT_EQ(w.executor.live_tasks(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Lite, Failure, ::testing::Values(Version::Lite06, Version::Lite07Wip),
                         version_param_name);

TEST(Versions, RegistryNamesAndAlpns) {
  using session::parse_version;
  using session::version_from_alpn;
  EXPECT_EQ(parse_version("moq-lite-06"), Version::Lite06);
  EXPECT_EQ(parse_version("moq-lite-07-wip"), Version::Lite07Wip);
  EXPECT_EQ(parse_version("moq-transport-18"), Version::Transport18);
  EXPECT_EQ(parse_version("moq-transport-22"), Version::Transport22);
  EXPECT_EQ(parse_version("moqt-18"), std::nullopt);
  EXPECT_EQ(version_from_alpn("moqt-22"), Version::Transport22);
  EXPECT_EQ(version_from_alpn("moq-lite-07-wip"), Version::Lite07Wip);
  EXPECT_EQ(version_from_alpn("moq-lite-05"), std::nullopt);
  for (const session::VersionInfo& v : session::kVersions) {
    EXPECT_EQ(session::version_name(v.version), v.name);
    EXPECT_EQ(session::version_alpn(v.version), v.alpn);
  }
  auto implemented = session::implemented_versions();
  ASSERT_GE(implemented.size(), 2u);
  EXPECT_EQ(implemented[0], Version::Lite06);
  EXPECT_EQ(implemented[1], Version::Lite07Wip);
  EXPECT_EQ(session::version_family(Version::Lite07Wip), session::Family::Lite);
  EXPECT_EQ(session::version_family(Version::Transport18), session::Family::Transport);
}

TEST(Versions, AlpnMismatchIsAVersionNegotiationFailure) {
  sim::VirtualClock clock;
  Executor ex(clock);
  sim::memory::PairConfig cfg;
  cfg.alpn = "moq-lite-06";
  auto pair = std::move(sim::memory::make_pair(ex, cfg).value());
  auto wrong = session::create_session(*pair.client, Version::Lite07Wip);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, 0x15u);
  auto by_alpn = session::create_session(*pair.client);
  ASSERT_TRUE(by_alpn.ok());
  EXPECT_EQ(by_alpn.value()->version(), Version::Lite06);
  cfg.alpn = "h3";
  auto other = std::move(sim::memory::make_pair(ex, cfg).value());
  EXPECT_FALSE(session::create_session(*other.client).ok());
}

}  // namespace
}  // namespace moq::test
