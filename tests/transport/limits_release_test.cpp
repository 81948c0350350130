// Concurrent-stream limits with credit returned when a stream is done, and what dropping a
// stream handle does.
#include <gtest/gtest.h>

#include "tests/transport/transport_fixture.h"

namespace moq::sim::memory::testing {
namespace {

class LimitsTest : public TransportTest {
 protected:
  LimitsTest() : TransportTest(limits()) {}
  static PairConfig limits() {
    PairConfig c;
    c.max_uni = 2;
    c.max_bidi = 1;
    return c;
  }
};

TEST_F(LimitsTest, OpenReturnsNullAtTheLimitAndEachDirectionCountsSeparately) {
  SendStreamPtr a = ok(client().open_uni()), b = ok(client().open_uni());
  ASSERT_TRUE(a && b);
  Result<SendStreamPtr> c = client().open_uni();
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(*c);
  // The server's own streams and the client's bidi streams have their own limits.
  EXPECT_TRUE(ok(server().open_uni()));
  BidiStream bidi = ok(client().open_bidi());
  EXPECT_TRUE(bidi);
  EXPECT_FALSE(ok(client().open_bidi()));
}

TEST_F(LimitsTest, UniCreditComesBackWhenTheReceiverReadsTheFin) {
  SendStreamPtr a = ok(client().open_uni()), b = ok(client().open_uni());
  ASSERT_TRUE(a->finish().ok());
  EXPECT_FALSE(ok(client().open_uni())) << "finishing alone does not return credit";
  RecvStreamPtr ra = ok(server().accept_uni());
  EXPECT_FALSE(ok(client().open_uni())) << "accepting alone does not return credit";
  Bytes chunk;
  ASSERT_EQ(ra->read(chunk).status, ReadStatus::Fin);
  EXPECT_TRUE(ok(client().open_uni()));
}

TEST_F(LimitsTest, CreditComesBackOnResetSeenStopOrDroppedReceiver) {
  SendStreamPtr a = ok(client().open_uni()), b = ok(client().open_uni());
  RecvStreamPtr ra = ok(server().accept_uni()), rb = ok(server().accept_uni());
  ASSERT_TRUE(a->reset(1).ok());
  EXPECT_FALSE(ok(client().open_uni())) << "the reset has not been read yet";
  Bytes chunk;
  ASSERT_EQ(ra->read(chunk).status, ReadStatus::Reset);
  SendStreamPtr c = ok(client().open_uni());
  ASSERT_TRUE(c);
  rb->stop(2);
  SendStreamPtr d = ok(client().open_uni());
  ASSERT_TRUE(d);
  EXPECT_FALSE(ok(client().open_uni()));
  RecvStreamPtr rc = ok(server().accept_uni());
  rc.reset();  // dropped unread: stopped with code 0
  EXPECT_EQ(c->stop_code(), std::optional<uint64_t>(0));
  EXPECT_TRUE(ok(client().open_uni()));
}

TEST_F(LimitsTest, BidiCreditNeedsBothDirectionsDone) {
  BidiStream mine = ok(client().open_bidi());
  BidiStream theirs = ok(server().accept_bidi());
  ASSERT_TRUE(mine.send->finish().ok());
  Bytes chunk;
  ASSERT_EQ(theirs.recv->read(chunk).status, ReadStatus::Fin);
  EXPECT_FALSE(ok(client().open_bidi())) << "the server's direction is still open";
  ASSERT_TRUE(theirs.send->finish().ok());
  ASSERT_EQ(mine.recv->read(chunk).status, ReadStatus::Fin);
  EXPECT_TRUE(ok(client().open_bidi()));
}

TEST_F(LimitsTest, OpenerParksAtTheLimitAndResumesWhenAStreamCloses) {
  OpenerTask opener(ex_, client(), 5);
  opener.wake();
  settle();
  EXPECT_EQ(opener.opened.size(), 2u);
  EXPECT_EQ(opener.parks, 1u);
  // Accept-and-read-FIN one stream at a time: each returns one credit.
  for (size_t done = 1; done <= 3; ++done) {
    RecvStreamPtr r = ok(server().accept_uni());
    ASSERT_TRUE(r);
    Bytes chunk;
    ASSERT_EQ(r->read(chunk).status, ReadStatus::Fin);
    settle();
    EXPECT_EQ(opener.opened.size(), 2 + done);
  }
  EXPECT_TRUE(opener.done());
  EXPECT_EQ(client().stats().uni_opened, 5u);
}

using ReleaseTest = TransportTest;

TEST_F(ReleaseTest, DroppingAnUnfinishedSendStreamResetsItWithCodeZero) {
  SendStreamPtr s = ok(client().open_uni());
  BufChain d = chain_of({pattern(20, 1)});
  ASSERT_EQ(*s->write(d), 20u);
  RecvStreamPtr r = ok(server().accept_uni());
  s.reset();
  Bytes chunk;
  ReadResult res = r->read(chunk);
  EXPECT_EQ(res.status, ReadStatus::Reset);
  EXPECT_EQ(res.code, 0u);
  EXPECT_EQ(client().stats().resets_sent, 1u);
}

TEST_F(ReleaseTest, DroppingAFinishedSendStreamKeepsItsDataDeliverable) {
  SendStreamPtr s = ok(client().open_uni());
  Bytes a = pattern(20, 1);
  BufChain d = chain_of({a});
  ASSERT_EQ(*s->write(d), 20u);
  ASSERT_TRUE(s->finish().ok());
  s.reset();
  RecvStreamPtr r = ok(server().accept_uni());
  ReadLog log;
  drain(*r, log);
  EXPECT_EQ(log.data, std::string(a.view()));
  EXPECT_EQ(log.end.status, ReadStatus::Fin);
  EXPECT_EQ(client().stats().resets_sent, 0u);
}

TEST_F(ReleaseTest, DroppingAnUnreadRecvStreamStopsItWithCodeZero) {
  SendStreamPtr s = ok(client().open_uni());
  BufChain d = chain_of({pattern(20, 1)});
  ASSERT_EQ(*s->write(d), 20u);
  server().accept_uni()->reset();  // accept and drop at once
  EXPECT_EQ(s->stop_code(), std::optional<uint64_t>(0));
  Result<size_t> w = s->write(d);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, 0u);
  EXPECT_EQ(server().stats().stops_sent, 1u);
}

TEST_F(ReleaseTest, DroppingAFullyReadRecvStreamBeforeSeeingTheFinDoesNotStopIt) {
  PairConfig cfg;
  cfg.max_uni = 1;
  Result<ConnectionPair> p = make_pair(ex_, cfg);
  ASSERT_TRUE(p.ok());
  SendStreamPtr s = ok(p->client->open_uni());
  BufChain d = chain_of({pattern(20, 1)});
  ASSERT_EQ(*s->write(d), 20u);
  ASSERT_TRUE(s->finish().ok());
  RecvStreamPtr r = ok(p->server->accept_uni());
  Bytes chunk;
  ASSERT_EQ(r->read(chunk).status, ReadStatus::Data);
  r.reset();
  EXPECT_EQ(s->stop_code(), std::nullopt);
  EXPECT_EQ(p->server->stats().stops_sent, 0u);
  EXPECT_TRUE(ok(p->client->open_uni())) << "the stream is done: its credit is back";
}

TEST_F(ReleaseTest, StreamStateIsRecycledOnceEveryHandleIsDropped) {
  for (int round = 0; round < 50; ++round) {
    BidiStream b = ok(client().open_bidi());
    SendStreamPtr u = ok(server().open_uni());
    BidiStream got = ok(server().accept_bidi());
    RecvStreamPtr ru = ok(client().accept_uni());
    BufChain d = chain_of({pattern(10, round)});
    ASSERT_EQ(*b.send->write(d), 10u);
    EXPECT_EQ(client().live_streams(), 2u);
    // Drop in varying orders.
    if (round % 2) {
      b = BidiStream{};
      got = BidiStream{};
    } else {
      got = BidiStream{};
      b = BidiStream{};
    }
    u.reset();
    EXPECT_EQ(client().live_streams(), 1u);
    ru.reset();
    EXPECT_EQ(client().live_streams(), 0u);
  }
  EXPECT_EQ(client().pooled_capacity(), 2u) << "stream objects are reused, not reallocated";
}

TEST_F(ReleaseTest, HalvesOfABidiStreamReleaseIndependently) {
  BidiStream mine = ok(client().open_bidi());
  BidiStream theirs = ok(server().accept_bidi());
  mine.recv.reset();  // stop the server's direction with code 0
  EXPECT_EQ(theirs.send->stop_code(), std::optional<uint64_t>(0));
  Bytes a = pattern(20, 1);
  BufChain d = chain_of({a});
  ASSERT_EQ(*mine.send->write(d), 20u);
  ASSERT_TRUE(mine.send->finish().ok());
  ReadLog log;
  drain(*theirs.recv, log);
  EXPECT_EQ(log.data, std::string(a.view()));
  EXPECT_EQ(log.end.status, ReadStatus::Fin);
}

}  // namespace
}  // namespace moq::sim::memory::testing
