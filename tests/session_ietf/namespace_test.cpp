// Namespace publication and subscription under a prefix: SUBSCRIBE_NAMESPACE -> NAMESPACE /
// NAMESPACE_DONE (viewer announced()), PUBLISH_NAMESPACE from a publishing client, prefix
// overlap, and subscribing through an announced broadcast.
#include <gtest/gtest.h>

#include "tests/session_ietf/raw_fixture.h"

namespace moq::session::testing {
namespace {

using NamespaceTest = IetfPair;

std::vector<std::pair<AnnounceEvent::Kind, std::string>> drain(AnnounceConsumer& a) {
  std::vector<std::pair<AnnounceEvent::Kind, std::string>> out;
  AnnounceEvent ev;
  while (a.next(ev) == Next::Ready)
    out.emplace_back(ev.kind, ev.path.str());
  return out;
}

constexpr auto kAnnounce = AnnounceEvent::Kind::Announce;
constexpr auto kUnannounce = AnnounceEvent::Kind::Unannounce;

TEST_P(NamespaceTest, ViewerSeesAnnouncementsUnderItsPrefix) {
  auto ann = viewer->announced(Path("live"));
  ASSERT_TRUE(ann) << ann.error().message;
  settle();
  using Events = std::vector<std::pair<AnnounceEvent::Kind, std::string>>;
  EXPECT_EQ(drain(*ann), (Events{{kAnnounce, "live/cam"}}));
  BroadcastProducer mic = BroadcastProducer::create(clock);
  BroadcastProducer other = BroadcastProducer::create(clock);
  ASSERT_TRUE(origin.publish(Path("live/mic"), mic.consume()));
  ASSERT_TRUE(origin.publish(Path("lively/x"), other.consume()));  // not under "live"
  settle();
  EXPECT_EQ(drain(*ann), (Events{{kAnnounce, "live/mic"}}));
  ASSERT_TRUE(origin.unpublish(Path("live/mic")));
  settle();
  EXPECT_EQ(drain(*ann), (Events{{kUnannounce, "live/mic"}}));
  EXPECT_EQ(viewer->counters().opened(StreamKind::Announce), 1u);
}

TEST_P(NamespaceTest, AnnouncedBroadcastServesSubscriptions) {
  auto ann = viewer->announced(Path());
  ASSERT_TRUE(ann);
  settle();
  AnnounceEvent ev;
  ASSERT_EQ(ann->next(ev), Next::Ready);
  ASSERT_EQ(ev.path.str(), "live/cam");
  TrackPreferences prefs;
  prefs.group_start = 0;
  auto sub = ev.broadcast.subscribe("video", prefs);
  ASSERT_TRUE(sub) << sub.error().message;
  write_group(0, 3);
  settle();
  GroupConsumer g;
  ASSERT_EQ(sub->next(g), Next::Ready);
  Next last;
  EXPECT_EQ(read_all(g, &last).size(), 3u);
  EXPECT_EQ(last, Next::End);
}

TEST_P(NamespaceTest, NarrowerPrefixReusesTheRequestAndBroaderReplacesIt) {
  auto cam = viewer->announced(Path("live/cam"));
  ASSERT_TRUE(cam);
  settle();
  auto again = viewer->announced(Path("live/cam"));  // covered: no new request
  ASSERT_TRUE(again);
  settle();
  EXPECT_EQ(viewer->counters().opened(StreamKind::Announce), 1u);
  auto all = viewer->announced(Path());  // broader: replaces the first request
  ASSERT_TRUE(all);
  settle();
  EXPECT_EQ(viewer->counters().opened(StreamKind::Announce), 2u);
  EXPECT_FALSE(viewer->is_closed());
  EXPECT_FALSE(publisher->is_closed());
  AnnounceEvent ev;
  ASSERT_EQ(all->next(ev), Next::Ready);
  EXPECT_EQ(ev.path.str(), "live/cam");
  EXPECT_EQ(ev.kind, kAnnounce);
}

TEST_P(NamespaceTest, PublishingClientSendsPublishNamespace) {
  TearDown();
  client.reset();
  server.reset();
  start(/*publisher_is_client=*/true);
  EXPECT_EQ(publisher->counters().opened(StreamKind::Announce), 1u);  // PUBLISH_NAMESPACE
  EXPECT_EQ(viewer->counters().accepted(StreamKind::Announce), 1u);
  auto ann = viewer->announced(Path("live"));
  ASSERT_TRUE(ann);
  settle();
  AnnounceEvent ev;
  ASSERT_EQ(ann->next(ev), Next::Ready);
  EXPECT_EQ(ev.path.str(), "live/cam");
  // Unpublishing withdraws the PUBLISH_NAMESPACE (and the NAMESPACE): Unannounce.
  ASSERT_TRUE(origin.unpublish(Path("live/cam")));
  settle();
  ASSERT_EQ(ann->next(ev), Next::Ready);
  EXPECT_EQ(ev.kind, kUnannounce);
  EXPECT_EQ(ann->next(ev), Next::Pending);
  EXPECT_FALSE(viewer->is_closed());
}

INSTANTIATE_TEST_SUITE_P(Drafts, NamespaceTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

class NamespaceWireTest : public RawPair {};

TEST_P(NamespaceWireTest, PublishNamespaceFromThePeerIsAnnouncedUntilWithdrawn) {
  start(/*publish=*/false, /*session_is_server=*/true);
  RawRequest pn = peer->open_request();
  w::PublishNamespace m;
  m.request_id = 0;
  m.track_namespace.fields = {"room1", "cam"};
  send_message(*pn.stream.send, m, v());
  settle();
  auto reply = pn.in.next(v());
  ASSERT_TRUE(reply);
  EXPECT_TRUE(std::holds_alternative<w::RequestOk>(*reply));
  auto ann = session->announced(Path("room1"));
  ASSERT_TRUE(ann);
  settle();
  AnnounceEvent ev;
  ASSERT_EQ(ann->next(ev), Next::Ready);
  EXPECT_EQ(ev.path.str(), "room1/cam");
  ASSERT_TRUE(pn.stream.send->reset(uint64_t(w::StreamResetCode::Cancelled)));
  settle();
  ASSERT_EQ(ann->next(ev), Next::Ready);
  EXPECT_EQ(ev.kind, AnnounceEvent::Kind::Unannounce);
}

TEST_P(NamespaceWireTest, OverlappingSubscribeNamespaceIsRefusedWithPrefixOverlap) {
  start(/*publish=*/true, /*session_is_server=*/true);
  RawRequest a = peer->open_request();
  w::SubscribeNamespace m;
  m.request_id = 0;
  m.prefix.fields = {"live"};
  send_message(*a.stream.send, m, v());
  settle();
  auto ok = a.in.next(v());
  ASSERT_TRUE(ok);
  EXPECT_TRUE(std::holds_alternative<w::RequestOk>(*ok));
  auto ns = a.in.next(v());
  ASSERT_TRUE(ns);
  ASSERT_TRUE(std::holds_alternative<w::Namespace>(*ns));
  EXPECT_EQ(std::get<w::Namespace>(*ns).suffix.fields, std::vector<std::string>{"cam"});

  RawRequest b = peer->open_request();
  m.request_id = 2;
  m.prefix.fields = {"live", "cam"};
  send_message(*b.stream.send, m, v());
  settle();
  auto err = b.in.next(v());
  ASSERT_TRUE(err);
  ASSERT_TRUE(std::holds_alternative<w::RequestError>(*err));
  EXPECT_EQ(std::get<w::RequestError>(*err).error_code,
            uint64_t(w::RequestErrorCode::PrefixOverlap));
  b.in.pump();
  EXPECT_TRUE(b.in.fin());
  EXPECT_FALSE(session->is_closed());
}

TEST_P(NamespaceWireTest, NamespaceDoneWithoutNamespaceIsAViolation) {
  start();
  auto ann = session->announced(Path("live"));
  ASSERT_TRUE(ann);
  settle();
  w::SubscribeNamespace sn;
  RawRequest r = take_request(sn);
  EXPECT_EQ(sn.prefix.fields, std::vector<std::string>{"live"});
  send_message(*r.stream.send, w::RequestOk{}, v());
  w::NamespaceDone done;
  done.suffix.fields = {"nobody"};
  send_message(*r.stream.send, done, v());
  settle();
  ASSERT_TRUE(session->is_closed());
  EXPECT_EQ(session->error()->code, w::kProtocolViolation);
  EXPECT_NE(session->error()->message.find("NAMESPACE_DONE"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Drafts, NamespaceWireTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
