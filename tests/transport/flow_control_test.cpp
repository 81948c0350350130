// Per-stream and per-connection flow control, backpressure on tasks, and strict priority by
// send order when connection credit is scarce.
#include <gtest/gtest.h>

#include "tests/transport/transport_fixture.h"

namespace moq::sim::memory::testing {
namespace {

PairConfig windows(uint64_t stream_window, uint64_t conn_window) {
  PairConfig c;
  c.stream_window = stream_window;
  c.conn_window = conn_window;
  return c;
}

class StreamWindowTest : public TransportTest {
 protected:
  StreamWindowTest() : TransportTest(windows(100, 1000)) {}
};

TEST_F(StreamWindowTest, WriteTakesWhatTheStreamWindowAllowsAndReadingReturnsCredit) {
  SendStreamPtr s = ok(client().open_uni());
  Bytes a = pattern(150, 1);
  BufChain data = chain_of({a});
  EXPECT_EQ(*s->write(data), 100u);
  // The rest stays in the caller's chain, as a slice of the same block.
  ASSERT_EQ(data.size(), 50u);
  EXPECT_EQ(data.front().data(), a.data() + 100);
  EXPECT_EQ(*s->write(data), 0u);

  RecvStreamPtr r = ok(server().accept_uni());
  Bytes chunk;
  ASSERT_EQ(r->read(chunk, 40).status, ReadStatus::Data);
  EXPECT_EQ(*s->write(data), 40u);
  EXPECT_EQ(*s->write(data), 0u);
  ReadLog log;
  drain(*r, log);
  EXPECT_EQ(*s->write(data), 10u);
  EXPECT_TRUE(data.empty());
}

TEST_F(StreamWindowTest, ReadAllReturnsTheCreditOfEveryChunkItTakes) {
  SendStreamPtr s = ok(client().open_uni());
  Bytes a = pattern(60, 1), b = pattern(90, 2);
  BufChain data = chain_of({a, b});
  EXPECT_EQ(*s->write(data), 100u);
  RecvStreamPtr r = ok(server().accept_uni());
  BufChain got;
  ASSERT_EQ(r->read_all(got).status, ReadStatus::Data);
  EXPECT_EQ(got.size(), 100u);
  EXPECT_EQ(*s->write(data), 50u);  // the whole window came back
  ASSERT_EQ(r->read_all(got).status, ReadStatus::Data);
  EXPECT_EQ(got.size(), 150u);
  EXPECT_EQ(got.chunks().back().data(), b.data() + 40);
}

TEST_F(StreamWindowTest, OtherStreamsKeepTheirOwnWindows) {
  SendStreamPtr s1 = ok(client().open_uni()), s2 = ok(client().open_uni());
  BufChain d1 = chain_of({pattern(200, 2)}), d2 = chain_of({pattern(200, 3)});
  EXPECT_EQ(*s1->write(d1), 100u);
  EXPECT_EQ(*s2->write(d2), 100u);
}

class ConnWindowTest : public TransportTest {
 protected:
  ConnWindowTest() : TransportTest(windows(80, 100)) {}
};

TEST_F(ConnWindowTest, ConnectionWindowIsSharedByAllStreamsOfOneDirection) {
  SendStreamPtr s1 = ok(client().open_uni()), s2 = ok(client().open_uni());
  BufChain d1 = chain_of({pattern(80, 4)}), d2 = chain_of({pattern(80, 5)});
  EXPECT_EQ(*s1->write(d1), 80u);
  EXPECT_EQ(*s2->write(d2), 20u);
  // The other direction has its own connection window.
  SendStreamPtr back = ok(server().open_uni());
  BufChain d3 = chain_of({pattern(80, 6)});
  EXPECT_EQ(*back->write(d3), 80u);

  RecvStreamPtr r1 = ok(server().accept_uni());
  Bytes chunk;
  ASSERT_EQ(r1->read(chunk, 30).status, ReadStatus::Data);
  EXPECT_EQ(*s2->write(d2), 30u);
  EXPECT_EQ(client().stats().max_queued_bytes, 100u);
}

TEST_F(StreamWindowTest, BackpressureParksTheWriterUntilTheReaderReads) {
  SendStreamPtr s = ok(client().open_uni());
  Bytes a = pattern(1000, 7);
  WriterTask w(ex_, "writer", *s, a, /*fin=*/true);
  w.wake();
  settle();
  EXPECT_EQ(w.written, 100u);
  EXPECT_EQ(w.polls, 1u);
  EXPECT_FALSE(w.done());
  settle();
  EXPECT_EQ(w.polls, 1u) << "a parked writer must not spin";

  RecvStreamPtr r = ok(server().accept_uni());
  Bytes chunk;
  ASSERT_EQ(r->read(chunk, 10).status, ReadStatus::Data);
  settle();
  EXPECT_EQ(w.polls, 2u);
  EXPECT_EQ(w.written, 110u);

  ReaderTask reader(ex_, *r, /*max_per_poll=*/37);
  reader.wake();
  settle();
  ASSERT_TRUE(w.done());
  EXPECT_FALSE(w.error) << w.error->message;
  EXPECT_TRUE(w.finished);
  EXPECT_GT(w.parks, 5u);
  ASSERT_TRUE(reader.done());
  EXPECT_EQ(std::string(chunk.view()) + reader.log.data, std::string(a.view()));
  EXPECT_EQ(reader.log.end.status, ReadStatus::Fin);
}

TEST_F(ConnWindowTest, WriterBlockedOnConnectionCreditResumesWhenAnotherStreamIsRead) {
  SendStreamPtr s1 = ok(client().open_uni()), s2 = ok(client().open_uni());
  BufChain d1 = chain_of({pattern(80, 8)});
  ASSERT_EQ(*s1->write(d1), 80u);
  WriterTask w(ex_, "writer", *s2, pattern(60, 9), false);
  w.wake();
  settle();
  EXPECT_EQ(w.written, 20u);
  EXPECT_FALSE(w.done());

  RecvStreamPtr r1 = ok(server().accept_uni());
  ReadLog log;
  drain(*r1, log);
  settle();
  EXPECT_TRUE(w.done());
  EXPECT_EQ(w.written, 60u);
}

// Priority: the connection window is 100 and streams have room for 1000.
class PriorityTest : public TransportTest {
 protected:
  PriorityTest() : TransportTest(windows(1000, 100)) {}

  // Fills the connection window with a stream nobody reads yet.
  void fill_window() {
    filler_ = ok(client().open_uni());
    BufChain d = chain_of({pattern(100, 99)});
    ASSERT_EQ(*filler_->write(d), 100u);
    filler_recv_ = ok(server().accept_uni());
  }
  // Reads n bytes of the filler: that much connection credit comes back.
  void return_credit(size_t n) {
    Bytes chunk;
    ASSERT_EQ(filler_recv_->read(chunk, n).status, ReadStatus::Data);
    ASSERT_EQ(chunk.size(), n);
  }
  SendStreamPtr open(int64_t order) {
    SendStreamPtr s = ok(client().open_uni());
    s->set_send_order(order);
    return s;
  }

  SendStreamPtr filler_;
  RecvStreamPtr filler_recv_;
};

TEST_F(PriorityTest, ReturnedCreditServesHighestSendOrderFirstTiesInArrivalOrder) {
  fill_window();
  SendStreamPtr low = open(1), high_a = open(5), high_b = open(5);
  std::vector<std::string> order;
  // Blocked in the order low, high_a, high_b; each wants 100 bytes.
  WriterTask wl(ex_, "low", *low, pattern(100, 1), false, &order);
  WriterTask wa(ex_, "high_a", *high_a, pattern(100, 2), false, &order);
  WriterTask wb(ex_, "high_b", *high_b, pattern(100, 3), false, &order);
  wl.wake();
  wa.wake();
  wb.wake();
  settle();
  EXPECT_TRUE(order.empty());

  // Each time 100 bytes of credit come back, exactly one stream is served, in priority order.
  // Credit then returns as the served stream is read.
  return_credit(100);
  settle();
  EXPECT_EQ(order, (std::vector<std::string>{"high_a"}));
  // Accept order is open order: filler (already accepted), low, high_a, high_b.
  RecvStreamPtr rl = ok(server().accept_uni()), ra = ok(server().accept_uni()),
                rb = ok(server().accept_uni());
  ReadLog la, lb, ll;
  drain(*ra, la);
  settle();
  EXPECT_EQ(order, (std::vector<std::string>{"high_a", "high_b"}));
  drain(*rb, lb);
  settle();
  EXPECT_EQ(order, (std::vector<std::string>{"high_a", "high_b", "low"}));
  drain(*rl, ll);
  EXPECT_EQ(la.data.size() + lb.data.size() + ll.data.size(), 300u);
}

TEST_F(PriorityTest, PartialCreditGoesToTheHighestStreamOnly) {
  fill_window();
  SendStreamPtr low = open(0), high = open(3);
  std::vector<std::string> order;
  WriterTask wl(ex_, "low", *low, pattern(50, 1), false, &order);
  WriterTask wh(ex_, "high", *high, pattern(50, 2), false, &order);
  wl.wake();
  wh.wake();
  settle();
  return_credit(30);
  settle();
  EXPECT_EQ(wh.written, 30u);
  EXPECT_EQ(wl.written, 0u);
  EXPECT_EQ(wl.polls, 1u) << "the low stream is not woken while the credit is owed to high";
  return_credit(40);  // 20 finish high, 20 go to low
  settle();
  EXPECT_EQ(wh.written, 50u);
  EXPECT_EQ(wl.written, 20u);
  EXPECT_EQ(order, (std::vector<std::string>{"high", "high", "low"}));
}

TEST_F(PriorityTest, UnblockedLowerStreamCannotTakeCreditOwedToAHigherOne) {
  fill_window();
  SendStreamPtr high = open(10);
  WriterTask wh(ex_, "high", *high, pattern(60, 1), false);
  wh.wake();
  settle();
  return_credit(100);
  // Before the woken high writer runs, a lower stream tries to write: it gets only what high
  // is not owed.
  SendStreamPtr low = open(2);
  BufChain d = chain_of({pattern(100, 2)});
  EXPECT_EQ(*low->write(d), 40u);
  settle();
  EXPECT_EQ(wh.written, 60u);
  EXPECT_TRUE(wh.done());
}

TEST_F(PriorityTest, HigherNewcomerIsServedBeforeBlockedLowerStreams) {
  fill_window();
  SendStreamPtr low = open(0);
  WriterTask wl(ex_, "low", *low, pattern(100, 1), false);
  wl.wake();
  settle();
  return_credit(100);
  SendStreamPtr urgent = open(50);
  BufChain d = chain_of({pattern(70, 2)});
  EXPECT_EQ(*urgent->write(d), 70u);
  settle();
  EXPECT_EQ(wl.written, 30u);
}

TEST_F(PriorityTest, EqualOrderNewcomerWaitsBehindStreamsThatBlockedFirst) {
  fill_window();
  SendStreamPtr first = open(4);
  WriterTask wf(ex_, "first", *first, pattern(100, 1), false);
  wf.wake();
  settle();
  return_credit(100);
  SendStreamPtr later = open(4);
  BufChain d = chain_of({pattern(10, 2)});
  EXPECT_EQ(*later->write(d), 0u);
  settle();
  EXPECT_EQ(wf.written, 100u);
}

TEST_F(PriorityTest, RaisingSendOrderWhileBlockedMovesTheStreamAhead) {
  fill_window();
  SendStreamPtr a = open(5), b = open(1);
  std::vector<std::string> order;
  WriterTask wa(ex_, "a", *a, pattern(100, 1), false, &order);
  WriterTask wb(ex_, "b", *b, pattern(100, 2), false, &order);
  wa.wake();
  wb.wake();
  settle();
  b->set_send_order(9);
  return_credit(100);
  settle();
  EXPECT_EQ(order, (std::vector<std::string>{"b"}));
}

TEST_F(PriorityTest, StreamShortOfItsOwnWindowHoldsNoConnectionCredit) {
  // high is limited by its stream window (nothing owed at connection level), so low may use the
  // connection credit.
  PairConfig cfg = windows(50, 100);
  Result<ConnectionPair> p = make_pair(ex_, cfg);
  ASSERT_TRUE(p.ok());
  SendStreamPtr high = ok(p->client->open_uni()), low = ok(p->client->open_uni());
  high->set_send_order(9);
  BufChain dh = chain_of({pattern(80, 1)});
  EXPECT_EQ(*high->write(dh), 50u);
  EXPECT_EQ(*high->write(dh), 0u);  // short of its stream window, not of connection credit
  BufChain dl = chain_of({pattern(80, 2)});
  EXPECT_EQ(*low->write(dl), 50u);
}

TEST_F(PriorityTest, FinishingOrResettingAnOwedStreamReleasesItsClaim) {
  fill_window();
  SendStreamPtr high = open(9), low = open(1);
  BufChain dh = chain_of({pattern(100, 1)});
  EXPECT_EQ(*high->write(dh), 0u);  // owed 100
  return_credit(100);
  BufChain dl = chain_of({pattern(100, 2)});
  EXPECT_EQ(*low->write(dl), 0u);
  ASSERT_TRUE(high->reset(3).ok());
  EXPECT_EQ(*low->write(dl), 100u);
}

TEST_F(PriorityTest, WriterThatStopsWantingKeepsItsClaimUntilItWritesAgain) {
  // The transport cannot see the caller's data: a short write is a claim that stands until the
  // stream writes again, finishes, resets or is dropped.
  fill_window();
  SendStreamPtr high = open(9), low = open(1);
  BufChain dh = chain_of({pattern(100, 1)});
  EXPECT_EQ(*high->write(dh), 0u);
  return_credit(100);
  BufChain dl = chain_of({pattern(100, 2)});
  EXPECT_EQ(*low->write(dl), 0u);
  BufChain small = chain_of({pattern(10, 3)});
  EXPECT_EQ(*high->write(small), 10u);  // satisfied: the claim is gone
  EXPECT_EQ(*low->write(dl), 90u);
}

}  // namespace
}  // namespace moq::sim::memory::testing
