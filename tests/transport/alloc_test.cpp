// Heap allocations of the transport's steady state, counted by harness/counters: once stream
// state objects and queues are pooled, writing, reading and whole stream lives allocate nothing.
// (The task budget allows 2 allocations per uni stream life; the design needs none.) In a
// sanitized build only operator new/delete are counted, which is all this code uses.
#include <gtest/gtest.h>

#include "harness/counters/alloc_counter.h"
#include "sim/memory/transport_ops.h"
#include "tests/transport/transport_fixture.h"

namespace moq::sim::memory::testing {
namespace {

constexpr int kWarmUp = 16;
constexpr int kRounds = 1000;

class AllocTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!counters::alloc_counting_active()) GTEST_SKIP() << "allocation counting is inactive";
  }
};

void expect_write_read_allocates_nothing(size_t chunk_size) {
  ops::Bench b(chunk_size);
  ASSERT_TRUE(b.pair.client);
  SendStreamPtr s = ok(b.pair.client->open_uni());
  RecvStreamPtr r = ok(b.pair.server->accept_uni());
  BufChain chain;
  Bytes out;
  for (int i = 0; i < kWarmUp; ++i)
    ASSERT_EQ(ops::write_read_chunk(*s, *r, chain, b.payload, out), chunk_size);
  counters::AllocScope scope;
  size_t delivered = 0;
  for (int i = 0; i < kRounds; ++i)
    delivered += ops::write_read_chunk(*s, *r, chain, b.payload, out);
  counters::AllocSnapshot d = scope.delta();
  EXPECT_EQ(delivered, chunk_size * kRounds);
  EXPECT_EQ(d.allocs, 0u) << d.bytes << " bytes over " << kRounds << " rounds";
  EXPECT_EQ(out.data(), b.payload.data()) << "the chunk was copied";
}

TEST_F(AllocTest, SteadyStateWriteAndReadOf64BytesAllocateNothing) {
  expect_write_read_allocates_nothing(64);
}

TEST_F(AllocTest, SteadyStateWriteAndReadOf16KiBAllocateNothing) {
  expect_write_read_allocates_nothing(16 << 10);
}

TEST_F(AllocTest, UniStreamLifeAllocatesNothingOncePooled) {
  ops::Bench b(0);
  ASSERT_TRUE(b.pair.client);
  for (int i = 0; i < kWarmUp; ++i)
    ASSERT_TRUE(ops::uni_stream_life(*b.pair.client, *b.pair.server));
  counters::AllocScope scope;
  int lived = 0;
  for (int i = 0; i < kRounds; ++i)
    lived += ops::uni_stream_life(*b.pair.client, *b.pair.server) ? 1 : 0;
  counters::AllocSnapshot d = scope.delta();
  EXPECT_EQ(lived, kRounds);
  EXPECT_EQ(d.allocs, 0u) << d.bytes << " bytes over " << kRounds << " stream lives";
  EXPECT_EQ(b.pair.client->live_streams(), 0u);
}

// A busier life: bidi streams both ways with data, several open at once, dropped in a varying
// order. After one round has grown the pool and the queues, later rounds allocate nothing.
TEST_F(AllocTest, OverlappingBidiStreamsWithDataAllocateNothingOncePooled) {
  ops::Bench b(0);
  ASSERT_TRUE(b.pair.client);
  Bytes payload = pattern(300, 1);
  // The test's own containers live outside the rounds so that only the transport is counted.
  BidiStream mine[4], theirs[4];
  BufChain out, back;
  auto round = [&](int n) {
    for (BidiStream& m : mine) {
      m = ok(b.pair.client->open_bidi());
      out.push(payload);
      out.push(payload.slice(10, 20));
      EXPECT_EQ(*m.send->write(out), 320u);
      EXPECT_TRUE(m.send->finish().ok());
    }
    for (BidiStream& t : theirs) {
      t = ok(b.pair.server->accept_bidi());
      Bytes chunk;
      size_t got = 0;
      while (t.recv->read(chunk, 100).status == ReadStatus::Data)
        got += chunk.size();
      EXPECT_EQ(got, 320u);
      back.push(payload);
      EXPECT_EQ(*t.send->write(back), 300u);
    }
    for (int i = 0; i < 4; ++i) {
      int k = (i + n) % 4;
      mine[k] = BidiStream{};
      theirs[k] = BidiStream{};
    }
  };
  round(0);
  counters::AllocScope scope;
  for (int n = 1; n <= 100; ++n)
    round(n);
  EXPECT_EQ(scope.delta().allocs, 0u);
  EXPECT_EQ(b.pair.client->live_streams(), 0u);
}

TEST_F(AllocTest, DatagramsAllocateNothingOnceTheQueueHasGrown) {
  ops::Bench b(0);
  ASSERT_TRUE(b.pair.client);
  Bytes payload = pattern(100, 2);
  for (int i = 0; i < 4; ++i)
    ASSERT_TRUE(b.pair.client->send_datagram(payload).ok());
  while (b.pair.server->recv_datagram()) {
  }
  counters::AllocScope scope;
  size_t got = 0;
  for (int i = 0; i < kRounds; ++i) {
    ASSERT_TRUE(b.pair.client->send_datagram(payload).ok());
    std::optional<Bytes> d = b.pair.server->recv_datagram();
    got += d ? d->size() : 0;
  }
  EXPECT_EQ(got, 100u * kRounds);
  EXPECT_EQ(scope.delta().allocs, 0u);
}

}  // namespace
}  // namespace moq::sim::memory::testing
