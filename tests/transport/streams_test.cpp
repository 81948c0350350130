// Ordered reliable streams: uni and bidi opened by either side, ids, zero-copy delivery, FIN,
// chunk slicing, incoming notifications and configuration errors.
#include <gtest/gtest.h>

#include "tests/transport/transport_fixture.h"

namespace moq::sim::memory::testing {
namespace {

using StreamsTest = TransportTest;

TEST_F(StreamsTest, UniStreamDeliversChunksInOrderByReference) {
  SendStreamPtr s = ok(client().open_uni());
  ASSERT_TRUE(s);
  Bytes a = pattern(100, 1), b = pattern(7, 2), c = pattern(3000, 3);
  BufChain data = chain_of({a, b, c});
  Result<size_t> n = s->write(data);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 3107u);
  EXPECT_TRUE(data.empty());
  ASSERT_TRUE(s->finish().ok());

  RecvStreamPtr r = ok(server().accept_uni());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->id(), s->id());
  const Bytes* expected[] = {&a, &b, &c};
  for (const Bytes* e : expected) {
    Bytes chunk;
    ASSERT_EQ(r->read(chunk).status, ReadStatus::Data);
    EXPECT_EQ(chunk.data(), e->data()) << "payload was copied";
    EXPECT_EQ(chunk.size(), e->size());
  }
  Bytes chunk;
  EXPECT_EQ(r->read(chunk).status, ReadStatus::Fin);
  // The end is sticky.
  EXPECT_EQ(r->read(chunk).status, ReadStatus::Fin);
  EXPECT_TRUE(chunk.empty());
}

TEST_F(StreamsTest, ReadAllMovesEveryQueuedChunkByReferenceAfterWhatTheChainHeld) {
  SendStreamPtr s = ok(client().open_uni());
  Bytes a = pattern(100, 1), b = pattern(7, 2), c = pattern(3000, 3), d = pattern(5, 4);
  BufChain first = chain_of({a, b});
  ASSERT_EQ(*s->write(first), 107u);
  BufChain second = chain_of({c});
  ASSERT_EQ(*s->write(second), 3000u);  // onto a queue that is not empty: chunk by chunk
  RecvStreamPtr r = ok(server().accept_uni());

  BufChain got = chain_of({d});  // a chain that holds chunks already keeps them first
  ASSERT_EQ(r->read_all(got).status, ReadStatus::Data);
  ASSERT_EQ(got.chunk_count(), 4u);
  EXPECT_EQ(got.size(), 3112u);
  const Bytes* expected[] = {&d, &a, &b, &c};
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(got.chunks()[i].data(), expected[i]->data()) << "payload was copied";
  EXPECT_EQ(client().stats().bytes_sent, 3107u);
  EXPECT_EQ(r->read_all(got).status, ReadStatus::WouldBlock);
  ASSERT_TRUE(s->finish().ok());
  EXPECT_EQ(r->read_all(got).status, ReadStatus::Fin);
  EXPECT_EQ(got.chunk_count(), 4u);
}

TEST_F(StreamsTest, ReadAllIntoAnEmptyChainTakesTheQueueWhole) {
  SendStreamPtr s = ok(client().open_uni());
  RecvStreamPtr r;
  BufChain got;
  for (int round = 0; round < 3; ++round) {
    BufChain data;
    std::vector<Bytes> sent;
    for (uint64_t i = 0; i < 64; ++i) {
      sent.push_back(pattern(10 + i, i));
      data.push(sent.back());
    }
    const size_t total = data.size();
    ASSERT_EQ(*s->write(data), total);
    if (!r) r = ok(server().accept_uni());
    ASSERT_EQ(r->read_all(got).status, ReadStatus::Data);
    ASSERT_EQ(got.chunk_count(), sent.size());
    for (size_t i = 0; i < sent.size(); ++i)
      EXPECT_EQ(got.chunks()[i].data(), sent[i].data());
    got.clear();
  }
}

TEST_F(StreamsTest, ReadWithMaxHandsOutSlicesOfTheSameBlock) {
  SendStreamPtr s = ok(client().open_uni());
  Bytes a = pattern(100, 4);
  BufChain data = chain_of({a});
  ASSERT_EQ(*s->write(data), 100u);
  RecvStreamPtr r = ok(server().accept_uni());
  ReadLog log;
  std::vector<const uint8_t*> starts;
  for (;;) {
    Bytes chunk;
    ReadResult res = r->read(chunk, 30);
    if (res.status != ReadStatus::Data) {
      EXPECT_EQ(res.status, ReadStatus::WouldBlock);
      break;
    }
    starts.push_back(chunk.data());
    log.data.append(chunk.view());
    log.chunk_sizes.push_back(chunk.size());
  }
  EXPECT_EQ(log.chunk_sizes, (std::vector<size_t>{30, 30, 30, 10}));
  EXPECT_EQ(log.data, std::string(a.view()));
  ASSERT_EQ(starts.size(), 4u);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(starts[i], a.data() + 30 * i);
}

TEST_F(StreamsTest, ReadWithMaxZeroReturnsAnEmptyChunk) {
  SendStreamPtr s = ok(client().open_uni());
  BufChain data = chain_of({pattern(5, 5)});
  ASSERT_EQ(*s->write(data), 5u);
  RecvStreamPtr r = ok(server().accept_uni());
  Bytes chunk = pattern(3, 6);
  EXPECT_EQ(r->read(chunk, 0).status, ReadStatus::Data);
  EXPECT_TRUE(chunk.empty());
  EXPECT_EQ(r->read(chunk).status, ReadStatus::Data);
  EXPECT_EQ(chunk.size(), 5u);
}

TEST_F(StreamsTest, EmptyReadWouldBlockUntilDataOrFin) {
  SendStreamPtr s = ok(client().open_uni());
  RecvStreamPtr r = ok(server().accept_uni());
  Bytes chunk;
  EXPECT_EQ(r->read(chunk).status, ReadStatus::WouldBlock);
  BufChain empty;
  EXPECT_EQ(*s->write(empty), 0u);
  EXPECT_EQ(r->read(chunk).status, ReadStatus::WouldBlock);
  ASSERT_TRUE(s->finish().ok());
  EXPECT_EQ(r->read(chunk).status, ReadStatus::Fin);
}

// A read with nothing to hand out empties the caller's chunk. A reader that kept its
// spent chunk while it waited held the sender's arena block out of its pool, and moq-transport
// fetch_range rounds allocated two blocks once every few dozen rounds.
TEST_F(StreamsTest, ReadWithoutDataLetsGoOfTheSpentChunk) {
  SendStreamPtr s = ok(client().open_uni());
  Bytes sent = pattern(8, 7);
  BufChain data = chain_of({sent});
  ASSERT_EQ(*s->write(data), 8u);
  RecvStreamPtr r = ok(server().accept_uni());
  Bytes chunk;
  ASSERT_EQ(r->read(chunk).status, ReadStatus::Data);
  EXPECT_EQ(sent.share_count(), 2u);
  chunk.advance(chunk.size());  // spent, as a reader leaves it
  EXPECT_EQ(r->read(chunk).status, ReadStatus::WouldBlock);
  EXPECT_EQ(sent.share_count(), 1u) << "the waiting reader still holds the sender's block";
}

TEST_F(StreamsTest, StreamIdsFollowQuicNumbering) {
  SendStreamPtr cu1 = ok(client().open_uni()), cu2 = ok(client().open_uni());
  SendStreamPtr su1 = ok(server().open_uni()), su2 = ok(server().open_uni());
  BidiStream cb1 = ok(client().open_bidi()), cb2 = ok(client().open_bidi());
  BidiStream sb1 = ok(server().open_bidi());
  EXPECT_EQ(cu1->id(), 2u);
  EXPECT_EQ(cu2->id(), 6u);
  EXPECT_EQ(su1->id(), 3u);
  EXPECT_EQ(su2->id(), 7u);
  EXPECT_EQ(cb1.send->id(), 0u);
  EXPECT_EQ(cb1.recv->id(), 0u);
  EXPECT_EQ(cb2.send->id(), 4u);
  EXPECT_EQ(sb1.send->id(), 1u);
}

TEST_F(StreamsTest, BidiStreamsCarryBothWaysWhicheverSideOpens) {
  for (int opener = 0; opener < 2; ++opener) {
    MemoryConnection& a = opener == 0 ? client() : server();
    MemoryConnection& b = opener == 0 ? server() : client();
    BidiStream ab = ok(a.open_bidi());
    ASSERT_TRUE(ab);
    Bytes ping = pattern(50, 10 + opener), pong = pattern(70, 20 + opener);
    BufChain out = chain_of({ping});
    ASSERT_EQ(*ab.send->write(out), 50u);
    ASSERT_TRUE(ab.send->finish().ok());

    BidiStream ba = ok(b.accept_bidi());
    ASSERT_TRUE(ba);
    EXPECT_EQ(ba.recv->id(), ab.send->id());
    ReadLog got;
    drain(*ba.recv, got);
    EXPECT_EQ(got.data, std::string(ping.view()));
    EXPECT_EQ(got.end.status, ReadStatus::Fin);

    BufChain back = chain_of({pong});
    ASSERT_EQ(*ba.send->write(back), 70u);
    ASSERT_TRUE(ba.send->finish().ok());
    ReadLog echoed;
    drain(*ab.recv, echoed);
    EXPECT_EQ(echoed.data, std::string(pong.view()));
    EXPECT_EQ(echoed.end.status, ReadStatus::Fin);
  }
}

TEST_F(StreamsTest, UniAndBidiAcceptQueuesAreSeparateAndFifo) {
  SendStreamPtr u1 = ok(client().open_uni());
  BidiStream b1 = ok(client().open_bidi());
  SendStreamPtr u2 = ok(client().open_uni());
  EXPECT_EQ((ok(server().accept_uni()))->id(), u1->id());
  EXPECT_EQ((ok(server().accept_uni()))->id(), u2->id());
  EXPECT_FALSE(ok(server().accept_uni()));
  BidiStream got = ok(server().accept_bidi());
  EXPECT_EQ(got.send->id(), b1.send->id());
  EXPECT_FALSE(ok(server().accept_bidi()));
  // Nothing leaks into the opener's own accept queues.
  EXPECT_FALSE(ok(client().accept_uni()));
  EXPECT_FALSE(ok(client().accept_bidi()));
}

TEST_F(StreamsTest, StreamWrittenFinishedAndDroppedBeforeAcceptIsStillDelivered) {
  Bytes a = pattern(300, 30);
  {
    SendStreamPtr s = ok(client().open_uni());
    BufChain data = chain_of({a});
    ASSERT_EQ(*s->write(data), 300u);
    ASSERT_TRUE(s->finish().ok());
  }
  RecvStreamPtr r = ok(server().accept_uni());
  ASSERT_TRUE(r);
  ReadLog log;
  drain(*r, log);
  EXPECT_EQ(log.data, std::string(a.view()));
  EXPECT_EQ(log.end.status, ReadStatus::Fin);
}

// Accepts one uni stream, parking on incoming().
class AcceptTask : public Task {
 public:
  AcceptTask(Executor& ex, Connection& c) : Task(ex, "acceptor"), c_(c), waiter_(*this) {}
  Poll poll() override {
    ++polls;
    Result<RecvStreamPtr> r = c_.accept_uni();
    if (!r.ok()) {
      error = r.error();
      return Poll::Done;
    }
    if (!*r) {
      waiter_.wait(c_.incoming());
      return Poll::Pending;
    }
    got = std::move(*r);
    return Poll::Done;
  }
  RecvStreamPtr got;
  std::optional<Error> error;
  int polls = 0;

 private:
  Connection& c_;
  Waiter waiter_;
};

TEST_F(StreamsTest, AcceptParksOnIncomingUntilThePeerOpens) {
  AcceptTask t(ex_, server());
  t.wake();
  settle();
  EXPECT_EQ(t.polls, 1);
  EXPECT_FALSE(t.done());
  SendStreamPtr s = ok(client().open_uni());
  settle();
  EXPECT_EQ(t.polls, 2);
  ASSERT_TRUE(t.got);
  EXPECT_EQ(t.got->id(), s->id());
}

TEST_F(StreamsTest, EndpointsReportRoleAndAlpn) {
  EXPECT_TRUE(client().is_client());
  EXPECT_FALSE(server().is_client());
  EXPECT_EQ(&client().executor(), &ex_);
  EXPECT_EQ(&server().executor(), &ex_);
}

TEST(MakePairTest, ReportsAlpnFromConfig) {
  VirtualClock clock;
  Executor ex(clock);
  PairConfig cfg;
  cfg.alpn = "moq-lite-06";
  Result<ConnectionPair> p = make_pair(ex, cfg);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->client->alpn(), "moq-lite-06");
  EXPECT_EQ(p->server->alpn(), "moq-lite-06");
}

TEST(MakePairTest, RejectsWindowsThatCannotCarryData) {
  VirtualClock clock;
  Executor ex(clock);
  PairConfig cfg;
  cfg.stream_window = 0;
  Result<ConnectionPair> p = make_pair(ex, cfg);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("PairConfig.stream_window = 0"), std::string::npos)
      << p.error().message;

  cfg.stream_window = 10;
  cfg.conn_window = uint64_t{1} << 62;
  p = make_pair(ex, cfg);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("PairConfig.conn_window = 4611686018427387904"),
            std::string::npos)
      << p.error().message;
}

}  // namespace
}  // namespace moq::sim::memory::testing
