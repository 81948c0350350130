// PeerOrigin: one request per new track name reaches the engine, and so does a group a copy
// lacks; announcements are counted per path, the last withdrawal closes the broadcast, and close()
// ends every listener.
#include "model/session/core/peer_origin.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/clock.h"

namespace moq::session::core {
namespace {

struct World {
  sim::VirtualClock clock;
  Executor executor{clock};
  std::vector<std::string> served;
  std::vector<TrackRequest> requests;
  std::vector<std::string> forwarded;
  PeerOrigin peer{
      executor,
      [this](const Path& path, TrackRequest r) {
        served.push_back(path.str() + " " + r.name());
        requests.push_back(std::move(r));
      },
      [this](const Path& path, GroupRequest r) {
        forwarded.push_back(path.str() + " " + r.track + " " + std::to_string(r.group.sequence()));
        r.group.abort(Error{7, "not upstream either"});
      }};
};

std::vector<std::string> events(AnnounceConsumer& a, Next& last) {
  std::vector<std::string> out;
  AnnounceEvent e;
  while ((last = a.next(e)) == Next::Ready)
    out.push_back((e.kind == AnnounceEvent::Kind::Announce ? "+" : "-") + e.path.str());
  return out;
}

TEST(PeerOrigin, EachNewTrackIsOneRequest) {
  World w;
  auto a = w.peer.broadcast(Path("room/cam")).subscribe("video");
  auto b = w.peer.broadcast(Path("room/cam")).subscribe("video");
  auto c = w.peer.broadcast(Path("room/cam")).subscribe("audio");
  ASSERT_TRUE(a && b && c);
  w.executor.run_until_idle();
  EXPECT_EQ(w.served, (std::vector<std::string>{"room/cam video", "room/cam audio"}));
}

TEST(PeerOrigin, AGroupTheCopyLacksIsForwardedToTheEngine) {
  World w;
  auto track = w.peer.broadcast(Path("room/cam")).subscribe("video");
  ASSERT_TRUE(track);
  w.executor.run_until_idle();
  ASSERT_EQ(w.requests.size(), 1u);
  TrackProducer copy = std::move(w.requests[0].accept(TrackInfo{}).value());
  for (int g = 0; g < 2; ++g)
    ASSERT_TRUE(copy.append_group());
  std::optional<GroupConsumer> old = track->request_group(0, 0);
  ASSERT_TRUE(old);
  w.executor.run_until_idle();
  EXPECT_EQ(w.forwarded, std::vector<std::string>{"room/cam video 0"});
  EXPECT_EQ(old->status(), GroupStatus::Aborted);
  EXPECT_EQ(old->error().message, "not upstream either");
}

TEST(PeerOrigin, AnnouncementsAreCountedAndTheLastWithdrawalClosesTheBroadcast) {
  World w;
  AnnounceConsumer listener = w.peer.announced(Path("room"));
  w.peer.announce(Path("room/cam"));
  w.peer.announce(Path("room/cam"));  // a second announce request carries it too
  Next last;
  EXPECT_EQ(events(listener, last), std::vector<std::string>{"+room/cam"});
  w.peer.unannounce(Path("room/cam"));
  EXPECT_TRUE(events(listener, last).empty());
  BroadcastConsumer held = w.peer.broadcast(Path("room/cam"));
  w.peer.unannounce(Path("room/cam"));
  EXPECT_EQ(events(listener, last), std::vector<std::string>{"-room/cam"});
  EXPECT_TRUE(held.is_closed());
  // A later use starts a new broadcast.
  EXPECT_FALSE(w.peer.broadcast(Path("room/cam")).is_closed());
}

TEST(PeerOrigin, CloseEndsBroadcastsThenListeners) {
  World w;
  AnnounceConsumer listener = w.peer.announced(Path());
  w.peer.announce(Path("a"));
  Next last;
  EXPECT_EQ(events(listener, last), std::vector<std::string>{"+a"});
  w.peer.close(Error{0x3, "violation"});
  EXPECT_EQ(events(listener, last), std::vector<std::string>{"-a"});
  EXPECT_EQ(last, Next::Aborted);
  EXPECT_EQ(listener.error().message, "violation");
  w.peer.announce(Path("b"));  // nothing more after the close
  EXPECT_TRUE(events(listener, last).empty());
}

}  // namespace
}  // namespace moq::session::core
