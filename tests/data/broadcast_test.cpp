// Broadcast: named tracks, tracks served on demand (accepted, rejected, cancelled, coalesced),
// closing.
#include <gtest/gtest.h>

#include "tests/data/test_util.h"

namespace moq {
namespace {

using test::text_bytes;

// Serves track requests as a session would: waits on requests() and answers each one.
class RequestServerTask : public Task {
 public:
  RequestServerTask(Executor& ex, BroadcastProducer& b, bool accept)
      : Task(ex, "request server"), b_(&b), accept_(accept), waiter_(*this) {
    wake();
  }
  Poll poll() override {
    ++polls;
    while (std::optional<TrackRequest> r = b_->next_request()) {
      names.push_back(r->name());
      priorities.push_back(r->preferences().priority);
      if (accept_) {
        Result<TrackProducer> p = r->accept(TrackInfo{});
        EXPECT_TRUE(p);
        if (p) served.push_back(std::move(*p));
      } else {
        r->reject(Error{404, "no track " + r->name()});
      }
    }
    waiter_.wait(b_->requests());
    return Poll::Pending;
  }
  int polls = 0;
  std::vector<std::string> names;
  std::vector<uint8_t> priorities;
  std::vector<TrackProducer> served;

 private:
  BroadcastProducer* b_;
  bool accept_;
  Waiter waiter_;
};

TEST(Broadcast, SubscribersGetTheListedTrack) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  Result<TrackProducer> video = b.create_track("video");
  ASSERT_TRUE(video);
  BroadcastConsumer bc = b.consume();
  Result<TrackConsumer> c = bc.subscribe("video");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->status(), TrackStatus::Active);
  EXPECT_EQ(c->name(), "video");
  Result<GroupProducer> g = video->append_group();
  ASSERT_TRUE(g);
  GroupConsumer gc;
  EXPECT_EQ(c->next(gc), Next::Ready);

  Result<TrackConsumer> missing = bc.subscribe("audio");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, data_error::kNotFound);
  EXPECT_NE(missing.error().message.find("'audio'"), std::string::npos);

  Result<TrackProducer> dup = b.create_track("video");
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, data_error::kDuplicate);
  EXPECT_EQ(b.track_count(), 1u);
}

TEST(Broadcast, OnDemandRequestIsAccepted) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.serve_requests();
  TrackPreferences p;
  p.priority = 4;
  Result<TrackConsumer> c = b.consume().subscribe("video", p);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->status(), TrackStatus::Pending);
  test::WakeCounterTask state_watch(w.executor, c->state_changed());
  test::TrackFollowerTask follower(w.executor, c->clone());
  w.executor.run_until_idle();
  EXPECT_EQ(state_watch.polls, 1);
  EXPECT_EQ(follower.polls, 1);

  RequestServerTask server(w.executor, b, /*accept=*/true);
  w.executor.run_until_idle();
  EXPECT_EQ(server.polls, 1);
  EXPECT_EQ(server.names, (std::vector<std::string>{"video"}));
  EXPECT_EQ(server.priorities, (std::vector<uint8_t>{4}));
  EXPECT_EQ(c->status(), TrackStatus::Active);
  EXPECT_EQ(state_watch.polls, 2);
  EXPECT_EQ(follower.polls, 1);  // accepting is not a new group

  ASSERT_EQ(server.served.size(), 1u);
  Result<GroupProducer> g = server.served[0].append_group();
  ASSERT_TRUE(g);
  w.executor.run_until_idle();
  EXPECT_EQ(follower.sequences, (std::vector<uint64_t>{0}));

  // The accepted track is listed: a second subscriber joins it without a new request.
  Result<TrackConsumer> again = b.consume().subscribe("video");
  ASSERT_TRUE(again);
  w.executor.run_until_idle();
  EXPECT_EQ(server.polls, 1);
  EXPECT_EQ(server.served[0].consumer_count(), 3u);

  // A new name wakes the server.
  Result<TrackConsumer> audio = b.consume().subscribe("audio");
  ASSERT_TRUE(audio);
  w.executor.run_until_idle();
  EXPECT_EQ(server.polls, 2);
  EXPECT_EQ(server.names, (std::vector<std::string>{"video", "audio"}));
  EXPECT_EQ(audio->status(), TrackStatus::Active);
}

TEST(Broadcast, ConcurrentSubscriptionsShareOneRequest) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.serve_requests();
  BroadcastConsumer bc = b.consume();
  TrackPreferences low, high;
  low.priority = 1;
  high.priority = 8;
  Result<TrackConsumer> c1 = bc.subscribe("video", low);
  Result<TrackConsumer> c2 = bc.subscribe("video", high);
  ASSERT_TRUE(c1 && c2);
  std::optional<TrackRequest> r = b.next_request();
  ASSERT_TRUE(r);
  EXPECT_FALSE(b.next_request());
  EXPECT_EQ(r->consumer_count(), 2u);
  EXPECT_EQ(r->preferences().priority, 8);
  Result<TrackProducer> p = r->accept(TrackInfo{});
  ASSERT_TRUE(p);
  EXPECT_EQ(c1->status(), TrackStatus::Active);
  EXPECT_EQ(c2->status(), TrackStatus::Active);
  Result<TrackProducer> twice = r->accept(TrackInfo{});
  EXPECT_FALSE(twice);
}

TEST(Broadcast, RejectedRequestReachesWaitingConsumers) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.serve_requests();
  RequestServerTask server(w.executor, b, /*accept=*/false);
  Result<TrackConsumer> c = b.consume().subscribe("nope");
  ASSERT_TRUE(c);
  test::TrackFollowerTask follower(w.executor, std::move(*c));
  ASSERT_TRUE(w.executor.run_until([&] { return follower.done(); }));
  EXPECT_TRUE(follower.aborted);
  EXPECT_EQ(follower.error.code, 404u);
  EXPECT_EQ(follower.error.message, "no track nope");
  EXPECT_EQ(b.track_count(), 0u);  // unlisted: the next subscriber asks again

  Result<TrackConsumer> retry = b.consume().subscribe("nope");
  ASSERT_TRUE(retry);
  w.executor.run_until_idle();
  EXPECT_EQ(server.names, (std::vector<std::string>{"nope", "nope"}));
  EXPECT_EQ(retry->status(), TrackStatus::Aborted);
}

TEST(Broadcast, QueuedRequestIsWithdrawnWhenItsConsumersLeave) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.serve_requests();
  {
    Result<TrackConsumer> c = b.consume().subscribe("video");
    ASSERT_TRUE(c);
    EXPECT_EQ(b.track_count(), 1u);
  }
  EXPECT_EQ(b.track_count(), 0u);
  EXPECT_FALSE(b.next_request());
}

TEST(Broadcast, RequestHandedOutThenDroppedRejectsIt) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.serve_requests();
  Result<TrackConsumer> c = b.consume().subscribe("video");
  ASSERT_TRUE(c);
  {
    std::optional<TrackRequest> r = b.next_request();
    ASSERT_TRUE(r);
  }
  EXPECT_EQ(c->status(), TrackStatus::Aborted);
  EXPECT_EQ(c->error().code, data_error::kRequestDropped);
}

TEST(Broadcast, RequestHolderSeesConsumersLeave) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.serve_requests();
  auto c = std::make_unique<TrackConsumer>(std::move(*b.consume().subscribe("video")));
  std::optional<TrackRequest> r = b.next_request();
  ASSERT_TRUE(r);
  test::WakeCounterTask watcher(w.executor, r->unused());
  w.executor.run_until_idle();
  c.reset();
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 2);
  EXPECT_EQ(r->consumer_count(), 0u);
  r->reject(Error{data_error::kCancelled, "nobody left"});
  EXPECT_EQ(b.track_count(), 0u);
}

TEST(Broadcast, CreateTrackAnswersAPendingRequest) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.serve_requests();
  Result<TrackConsumer> c = b.consume().subscribe("video");
  ASSERT_TRUE(c);
  TrackInfo info;
  info.priority = 3;
  info.timescale = 90000;
  Result<TrackProducer> p = b.create_track("video", info);
  ASSERT_TRUE(p);
  EXPECT_EQ(c->status(), TrackStatus::Active);
  EXPECT_EQ(c->info().timescale, 90000u);
  EXPECT_FALSE(b.next_request());  // answered: no longer queued
}

TEST(Broadcast, FinishedTrackStaysListedAndAbortedOneDoesNot) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  Result<TrackProducer> done = b.create_track("done");
  Result<TrackProducer> broken = b.create_track("broken");
  ASSERT_TRUE(done && broken);
  {
    Result<GroupProducer> g = done->append_group();
    ASSERT_TRUE(g);
    ASSERT_TRUE(g->write_frame(0, text_bytes("last")));
    ASSERT_TRUE(g->finish());
  }
  ASSERT_TRUE(done->finish());
  broken->abort(Error{5, "broken"});
  EXPECT_EQ(b.track_count(), 1u);

  TrackPreferences from0;
  from0.group_start = 0;
  Result<TrackConsumer> late = b.consume().subscribe("done", from0);
  ASSERT_TRUE(late);
  GroupConsumer g;
  EXPECT_EQ(late->next(g), Next::Ready);
  EXPECT_EQ(late->next(g), Next::End);
  EXPECT_FALSE(b.consume().subscribe("broken"));
  // The name is free again.
  EXPECT_TRUE(b.create_track("broken"));
}

TEST(Broadcast, DroppingTheProducerClosesEverything) {
  test::World w;
  auto* b = new BroadcastProducer(BroadcastProducer::create(w.clock));
  b->serve_requests();
  BroadcastConsumer bc = b->consume();
  Result<TrackProducer> live = b->create_track("live");
  ASSERT_TRUE(live);
  Result<TrackConsumer> live_c = bc.subscribe("live");
  Result<TrackConsumer> pending_c = bc.subscribe("pending");
  ASSERT_TRUE(live_c && pending_c);
  test::WakeCounterTask closed_watch(w.executor, bc.closed());
  test::TrackFollowerTask pending_follower(w.executor, std::move(*pending_c));
  w.executor.run_until_idle();

  delete b;
  w.executor.run_until_idle();
  EXPECT_TRUE(bc.is_closed());
  EXPECT_EQ(bc.error().code, data_error::kProducerDropped);
  EXPECT_EQ(closed_watch.polls, 2);
  EXPECT_TRUE(pending_follower.aborted);
  EXPECT_EQ(pending_follower.error.code, data_error::kProducerDropped);

  Result<TrackConsumer> after = bc.subscribe("live");
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().code, data_error::kClosed);

  // A track with a live producer goes on for the consumers it has.
  EXPECT_EQ(live_c->status(), TrackStatus::Active);
  ASSERT_TRUE(live->append_group());
  GroupConsumer g;
  EXPECT_EQ(live_c->next(g), Next::Ready);
}

TEST(Broadcast, ClosedBroadcastRefusesNewTracks) {
  test::World w;
  BroadcastProducer b = BroadcastProducer::create(w.clock);
  b.close(Error{9, "done"});
  EXPECT_TRUE(b.is_closed());
  Result<TrackProducer> t = b.create_track("x");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, data_error::kClosed);
  EXPECT_NE(t.error().message.find("done"), std::string::npos);
}

}  // namespace
}  // namespace moq
