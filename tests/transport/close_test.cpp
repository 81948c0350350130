// Connection close: every stream and operation on both endpoints fails with the right code,
// waiters wake, queued data and unaccepted streams are discarded.
#include <gtest/gtest.h>

#include "tests/transport/transport_fixture.h"

namespace moq::sim::memory::testing {
namespace {

// Waits for closed() and records the close error it then sees.
class CloseWatcher : public Task {
 public:
  CloseWatcher(Executor& ex, Connection& c) : Task(ex, "close watcher"), c_(c), waiter_(*this) {}
  Poll poll() override {
    if (c_.close_error()) {
      seen = c_.close_error();
      return Poll::Done;
    }
    waiter_.wait(c_.closed());
    return Poll::Pending;
  }
  std::optional<Error> seen;

 private:
  Connection& c_;
  Waiter waiter_;
};

using CloseTest = TransportTest;

TEST_F(CloseTest, CloseFailsEveryStreamOnBothSidesWithTheRightCode) {
  BidiStream mine = ok(client().open_bidi());
  BidiStream theirs = ok(server().accept_bidi());
  BufChain d = chain_of({pattern(100, 1)});
  ASSERT_EQ(*mine.send->write(d), 100u);
  BufChain back = chain_of({pattern(100, 2)});
  ASSERT_EQ(*theirs.send->write(back), 100u);

  client().close(42, "bye");

  ASSERT_TRUE(client().close_error());
  ASSERT_TRUE(server().close_error());
  EXPECT_EQ(client().close_error()->code, 42u);
  EXPECT_EQ(client().close_error()->message, "bye");
  EXPECT_EQ(server().close_error()->code, 42u);
  EXPECT_EQ(server().close_error()->message, "bye");

  // The peer sees the application's code; queued data is gone.
  Bytes chunk;
  ReadResult r = theirs.recv->read(chunk);
  EXPECT_EQ(r.status, ReadStatus::Error);
  EXPECT_EQ(r.code, 42u);
  EXPECT_TRUE(chunk.empty());
  BufChain more = chain_of({pattern(5, 3)});
  Result<size_t> w = theirs.send->write(more);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, 42u);
  EXPECT_NE(w.error().message.find("closed by the peer (code 42: bye)"), std::string::npos)
      << w.error().message;
  // The side that closed sees kConnectionClosed.
  r = mine.recv->read(chunk);
  EXPECT_EQ(r.status, ReadStatus::Error);
  EXPECT_EQ(r.code, transport_error::kConnectionClosed);
  w = mine.send->write(more);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, transport_error::kConnectionClosed);
  Status f = mine.send->finish();
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, transport_error::kConnectionClosed);
  Status rs = theirs.send->reset(1);
  ASSERT_FALSE(rs.ok());
  EXPECT_EQ(rs.error().code, 42u);
  theirs.recv->stop(1);  // harmless
  EXPECT_EQ(server().stats().stops_sent, 0u);
}

TEST_F(CloseTest, OpenAcceptAndDatagramsFailAfterClose) {
  server().close(7, "done");
  for (MemoryConnection* c : {&client(), &server()}) {
    uint64_t want = c == &server() ? transport_error::kConnectionClosed : 7;
    Result<SendStreamPtr> u = c->open_uni();
    ASSERT_FALSE(u.ok());
    EXPECT_EQ(u.error().code, want);
    Result<BidiStream> b = c->open_bidi();
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().code, want);
    Result<RecvStreamPtr> au = c->accept_uni();
    ASSERT_FALSE(au.ok());
    EXPECT_EQ(au.error().code, want);
    Result<BidiStream> ab = c->accept_bidi();
    ASSERT_FALSE(ab.ok());
    EXPECT_EQ(ab.error().code, want);
    Status dg = c->send_datagram(pattern(10, 1));
    ASSERT_FALSE(dg.ok());
    EXPECT_EQ(dg.error().code, want);
    EXPECT_FALSE(c->recv_datagram());
  }
}

TEST_F(CloseTest, CloseWakesEveryKindOfWaiterOnBothSides) {
  PairConfig cfg;
  cfg.stream_window = 10;
  cfg.max_uni = 1;
  Result<ConnectionPair> p = make_pair(ex_, cfg);
  ASSERT_TRUE(p.ok());
  MemoryConnection& c = *p->client;
  MemoryConnection& s = *p->server;
  SendStreamPtr w_stream = ok(c.open_uni());
  RecvStreamPtr r_stream = ok(s.accept_uni());
  SendStreamPtr back = ok(s.open_uni());
  RecvStreamPtr back_recv = ok(c.accept_uni());

  WriterTask writer(ex_, "writer", *w_stream, pattern(50, 1), true);
  ReaderTask reader(ex_, *back_recv);
  OpenerTask opener(ex_, c, 2);  // parks: one uni stream is already open
  CloseWatcher watch_c(ex_, c), watch_s(ex_, s);
  for (Task* t : std::initializer_list<Task*>{&writer, &reader, &opener, &watch_c, &watch_s})
    t->wake();
  settle();
  EXPECT_FALSE(writer.done());
  EXPECT_FALSE(reader.done());
  EXPECT_FALSE(opener.done());

  s.close(99, "shutting down");
  settle();
  ASSERT_TRUE(writer.done());
  ASSERT_TRUE(writer.error);
  EXPECT_EQ(writer.error->code, 99u);
  ASSERT_TRUE(reader.done());
  EXPECT_EQ(reader.log.end.status, ReadStatus::Error);
  EXPECT_EQ(reader.log.end.code, 99u);
  ASSERT_TRUE(opener.done());
  ASSERT_TRUE(opener.error);
  EXPECT_EQ(opener.error->code, 99u);
  ASSERT_TRUE(watch_c.done() && watch_s.done());
  EXPECT_EQ(watch_c.seen->code, 99u);
  EXPECT_EQ(watch_s.seen->message, "shutting down");
}

TEST_F(CloseTest, SecondCloseKeepsTheFirstCodeAndReason) {
  client().close(1, "first");
  server().close(2, "second");
  EXPECT_EQ(server().close_error()->code, 1u);
  EXPECT_EQ(client().close_error()->message, "first");
  Result<SendStreamPtr> u = server().open_uni();
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.error().code, 1u) << "the server did not close it";
}

TEST_F(CloseTest, UnacceptedStreamsAreDiscardedAndHandlesStaySafe) {
  SendStreamPtr s = ok(client().open_uni());
  BidiStream b = ok(client().open_bidi());
  BufChain d = chain_of({pattern(40, 1)});
  ASSERT_EQ(*s->write(d), 40u);
  EXPECT_EQ(client().live_streams(), 2u);
  client().close(5, "x");
  Status f = s->finish();
  EXPECT_FALSE(f.ok());
  s.reset();
  b = BidiStream{};
  EXPECT_EQ(client().live_streams(), 0u);
}

TEST(CloseLifetimeTest, DroppingAConnectionClosesItAndHandlesMayOutliveBoth) {
  sim::VirtualClock clock;
  Executor ex(clock);
  Result<ConnectionPair> p = make_pair(ex);
  ASSERT_TRUE(p.ok());
  SendStreamPtr s = ok(p->client->open_uni());
  RecvStreamPtr r = ok(p->server->accept_uni());
  BufChain d = chain_of({pattern(40, 1)});
  ASSERT_EQ(*s->write(d), 40u);

  p->client.reset();
  ASSERT_TRUE(p->server->close_error());
  EXPECT_EQ(p->server->close_error()->code, 0u);
  EXPECT_EQ(p->server->close_error()->message, "connection dropped");
  Bytes chunk;
  ReadResult res = r->read(chunk);
  EXPECT_EQ(res.status, ReadStatus::Error);
  EXPECT_EQ(res.code, 0u);

  p->server.reset();
  // Both connections are gone; the handles still answer (the shared state lives on), and
  // dropping them frees it (ASan checks both).
  Result<size_t> w = s->write(d);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, transport_error::kConnectionClosed);
  EXPECT_EQ(r->read(chunk).status, ReadStatus::Error);
  s.reset();
  r.reset();
}

}  // namespace
}  // namespace moq::sim::memory::testing
