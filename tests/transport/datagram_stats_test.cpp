// Bounded droppable datagrams, and the per-connection counters.
#include <gtest/gtest.h>

#include "tests/transport/transport_fixture.h"

namespace moq::sim::memory::testing {
namespace {

class DatagramTest : public TransportTest {
 protected:
  DatagramTest() : TransportTest(small_queue()) {}
  static PairConfig small_queue() {
    PairConfig c;
    c.datagram_queue = 4;
    c.max_datagram_size = 100;
    return c;
  }
};

TEST_F(DatagramTest, DatagramsArriveInOrderByReference) {
  Bytes a = pattern(10, 1), b = pattern(100, 2);
  ASSERT_TRUE(client().send_datagram(a).ok());
  ASSERT_TRUE(client().send_datagram(b).ok());
  std::optional<Bytes> got = server().recv_datagram();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->data(), a.data());
  got = server().recv_datagram();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->data(), b.data());
  EXPECT_FALSE(server().recv_datagram());
  EXPECT_FALSE(client().recv_datagram());
}

TEST_F(DatagramTest, FullReceiveQueueDropsAndCounts) {
  for (int i = 0; i < 6; ++i)
    ASSERT_TRUE(client().send_datagram(pattern(8, i)).ok());
  EXPECT_EQ(client().stats().datagrams_sent, 6u);
  EXPECT_EQ(server().stats().datagrams_received, 4u);
  EXPECT_EQ(server().stats().datagrams_dropped, 2u);
  // The first four were kept; reading makes room again.
  for (int i = 0; i < 4; ++i) {
    std::optional<Bytes> got = server().recv_datagram();
    ASSERT_TRUE(got);
    EXPECT_EQ(*got, pattern(8, i));
  }
  ASSERT_TRUE(client().send_datagram(pattern(8, 9)).ok());
  EXPECT_EQ(server().stats().datagrams_received, 5u);
  EXPECT_EQ(server().stats().datagrams_dropped, 2u);
}

TEST_F(DatagramTest, OversizedDatagramFailsAndIsNotCounted) {
  Status s = client().send_datagram(pattern(101, 1));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, transport_error::kDatagramTooLarge);
  EXPECT_NE(s.error().message.find("101 bytes exceeds max_datagram_size 100"), std::string::npos)
      << s.error().message;
  EXPECT_EQ(client().stats().datagrams_sent, 0u);
}

// Receives datagrams as they arrive, parking on datagrams().
class DatagramReader : public Task {
 public:
  DatagramReader(Executor& ex, Connection& c) : Task(ex, "datagram reader"), c_(c), w_(*this) {}
  Poll poll() override {
    while (std::optional<Bytes> d = c_.recv_datagram())
      sizes.push_back(d->size());
    if (sizes.size() >= 3) return Poll::Done;
    w_.wait(c_.datagrams());
    return Poll::Pending;
  }
  std::vector<size_t> sizes;

 private:
  Connection& c_;
  Waiter w_;
};

TEST_F(DatagramTest, ArrivalWakesAParkedReader) {
  DatagramReader reader(ex_, server());
  reader.wake();
  settle();
  ASSERT_TRUE(client().send_datagram(pattern(1, 1)).ok());
  settle();
  EXPECT_EQ(reader.sizes, std::vector<size_t>{1});
  ASSERT_TRUE(client().send_datagram(pattern(2, 1)).ok());
  ASSERT_TRUE(client().send_datagram(pattern(3, 1)).ok());
  settle();
  EXPECT_TRUE(reader.done());
  EXPECT_EQ(reader.sizes, (std::vector<size_t>{1, 2, 3}));
}

class StatsTest : public TransportTest {
 protected:
  StatsTest() : TransportTest(windows()) {}
  static PairConfig windows() {
    PairConfig c;
    c.stream_window = 1000;
    c.conn_window = 1500;
    return c;
  }
};

TEST_F(StatsTest, CountersTrackEachEndpointsView) {
  SendStreamPtr u1 = ok(client().open_uni()), u2 = ok(client().open_uni());
  BidiStream b = ok(server().open_bidi());
  RecvStreamPtr r1 = ok(server().accept_uni()), r2 = ok(server().accept_uni());
  BidiStream bb = ok(client().accept_bidi());

  BufChain d1 = chain_of({pattern(1000, 1)});
  BufChain d2 = chain_of({pattern(700, 2)});
  ASSERT_EQ(*u1->write(d1), 1000u);
  ASSERT_EQ(*u2->write(d2), 500u);  // the connection window (1500) is full
  BufChain d3 = chain_of({pattern(30, 3)});
  ASSERT_EQ(*b.send->write(d3), 30u);
  ASSERT_TRUE(u1->reset(5).ok());  // discards 1000 unread bytes
  r2->stop(6);
  ASSERT_TRUE(client().send_datagram(pattern(10, 4)).ok());

  const ConnectionStats& c = client().stats();
  const ConnectionStats& s = server().stats();
  EXPECT_EQ(c.uni_opened, 2u);
  EXPECT_EQ(c.bidi_opened, 0u);
  EXPECT_EQ(c.uni_accepted, 0u);
  EXPECT_EQ(c.bidi_accepted, 1u);
  EXPECT_EQ(s.uni_opened, 0u);
  EXPECT_EQ(s.bidi_opened, 1u);
  EXPECT_EQ(s.uni_accepted, 2u);
  EXPECT_EQ(s.bidi_accepted, 0u);
  EXPECT_EQ(c.bytes_sent, 1500u);
  EXPECT_EQ(s.bytes_received, 1500u);
  EXPECT_EQ(s.bytes_sent, 30u);
  EXPECT_EQ(c.bytes_received, 30u);
  EXPECT_EQ(c.resets_sent, 1u);
  EXPECT_EQ(s.resets_received, 1u);
  EXPECT_EQ(s.stops_sent, 1u);
  EXPECT_EQ(c.stops_received, 1u);
  EXPECT_EQ(c.datagrams_sent, 1u);
  EXPECT_EQ(s.datagrams_received, 1u);
  EXPECT_EQ(c.max_queued_bytes, 1500u);
  EXPECT_EQ(s.max_queued_bytes, 30u);

  // The high-water mark stays after the queues drain.
  ReadLog log;
  drain(*bb.recv, log);
  EXPECT_EQ(s.max_queued_bytes, 30u);
}

}  // namespace
}  // namespace moq::sim::memory::testing
