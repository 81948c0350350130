// sim/memory over a shaped network (PairConfig::network): bytes and datagrams reach the reader at
// their arrival and wake it then, FIN follows the data, datagrams are lost as the link says, the
// same seed gives the same delivery trace, and an ideal network changes nothing.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sim/clock.h"
#include "sim/memory/memory_transport.h"
#include "sim/net/network.h"

namespace moq::sim {
namespace {

struct ShapedPair {
  explicit ShapedPair(net::LinkConfig link) : network(executor, std::move(link)) {
    memory::PairConfig config;
    config.alpn = "test";
    config.network = &network;
    pair = std::move(memory::make_pair(executor, config).value());
  }
  void write(SendStream& s, const std::string& text) {
    BufChain chain;
    chain.push(Bytes::copy(text));
    ASSERT_EQ(s.write(chain).value(), text.size());
  }

  VirtualClock clock;
  Executor executor{clock};
  net::Network network;
  memory::ConnectionPair pair;
};

// Counts the wakes of a reader.
struct Wakes final : Task {
  explicit Wakes(Executor& ex) : Task(ex, "wakes") {}
  Poll poll() override {
    ++count;
    return Poll::Pending;
  }
  int count = 0;
};

TEST(ShapedMemory, BytesArriveAfterTheLatencyAndWakeTheReaderThen) {
  net::LinkConfig link;
  link.latency_ns = 10'000'000;
  ShapedPair w(link);
  SendStreamPtr s = std::move(w.pair.client->open_uni().value());
  RecvStreamPtr r = std::move(w.pair.server->accept_uni().value());
  ASSERT_TRUE(s && r);
  w.write(*s, "hello");
  ASSERT_TRUE(s->finish().ok());
  Bytes chunk;
  EXPECT_EQ(r->read(chunk).status, ReadStatus::WouldBlock) << "on the way: not FIN either";
  Wakes reader(w.executor);
  Waiter waiter(reader);
  waiter.wait(r->readable());
  EXPECT_EQ(w.network.in_flight(), 1u);
  w.executor.advance_to(9'999'999);
  EXPECT_EQ(reader.count, 0);
  EXPECT_EQ(r->read(chunk).status, ReadStatus::WouldBlock);
  w.executor.advance_to(10'000'000);
  EXPECT_EQ(reader.count, 1);
  ASSERT_EQ(r->read(chunk).status, ReadStatus::Data);
  EXPECT_EQ(chunk.view(), "hello");
  EXPECT_EQ(r->read(chunk).status, ReadStatus::Fin);
  EXPECT_EQ(w.network.in_flight(), 0u);
}

TEST(ShapedMemory, AReadHandsOutOnlyWhatArrived) {
  net::LinkConfig link;
  link.bandwidth_bps = 8'000;  // a byte per millisecond
  ShapedPair w(link);
  SendStreamPtr s = std::move(w.pair.client->open_uni().value());
  RecvStreamPtr r = std::move(w.pair.server->accept_uni().value());
  w.write(*s, "abcd");
  w.write(*s, "efgh");
  w.executor.advance_to(4'000'000);
  Bytes chunk;
  ASSERT_EQ(r->read(chunk).status, ReadStatus::Data);
  EXPECT_EQ(chunk.view(), "abcd");
  EXPECT_EQ(r->read(chunk).status, ReadStatus::WouldBlock);
  w.executor.advance_to(8'000'000);
  ASSERT_EQ(r->read(chunk).status, ReadStatus::Data);
  EXPECT_EQ(chunk.view(), "efgh");
}

TEST(ShapedMemory, DatagramsArriveLateOrAreLost) {
  net::LinkConfig link;
  link.latency_ns = 1'000'000;
  link.loss = 0.5;
  link.seed = 11;
  ShapedPair w(link);
  for (int i = 0; i < 200; ++i)
    ASSERT_TRUE(w.pair.client->send_datagram(Bytes::copy(std::to_string(i))).ok());
  EXPECT_FALSE(w.pair.server->recv_datagram()) << "none has arrived yet";
  w.executor.advance_to(1'000'000);
  int received = 0;
  while (w.pair.server->recv_datagram())
    ++received;
  const uint64_t dropped = w.pair.server->stats().datagrams_dropped;
  EXPECT_EQ(static_cast<uint64_t>(received) + dropped, 200u);
  EXPECT_GT(dropped, 60u);
  EXPECT_LT(dropped, 140u);
}

// What a reader saw: (virtual time, bytes) per read.
std::vector<std::pair<uint64_t, size_t>> trace(uint64_t seed) {
  net::LinkConfig link;
  link.latency_ns = 2'000'000;
  link.jitter_ns = 3'000'000;
  link.bandwidth_bps = 1'000'000;
  link.seed = seed;
  ShapedPair w(link);
  SendStreamPtr s = std::move(w.pair.client->open_uni().value());
  RecvStreamPtr r = std::move(w.pair.server->accept_uni().value());
  std::vector<std::pair<uint64_t, size_t>> out;
  for (int i = 0; i < 50; ++i) {
    w.write(*s, std::string(10 + i, 'x'));
    w.executor.advance_to(w.clock.now_ns() + 500'000);
    Bytes chunk;
    while (r->read(chunk).status == ReadStatus::Data)
      out.emplace_back(w.clock.now_ns(), chunk.size());
  }
  while (w.network.in_flight() > 0) {
    w.executor.advance_to(w.network.next_due());
    Bytes chunk;
    while (r->read(chunk).status == ReadStatus::Data)
      out.emplace_back(w.clock.now_ns(), chunk.size());
  }
  return out;
}

TEST(ShapedMemory, TheSameSeedGivesTheSameDeliveryTrace) {
  const auto a = trace(5);
  EXPECT_EQ(a, trace(5));
  EXPECT_NE(a, trace(6)) << "the jitter draws follow the seed";
  size_t bytes = 0;
  for (const auto& [at, n] : a)
    bytes += n;
  EXPECT_EQ(bytes, 50u * 10 + 49u * 50 / 2) << "every byte, once";
}

TEST(ShapedMemory, AnIdealNetworkLeavesThePairUnshaped) {
  ShapedPair w(net::LinkConfig{});
  SendStreamPtr s = std::move(w.pair.client->open_uni().value());
  RecvStreamPtr r = std::move(w.pair.server->accept_uni().value());
  w.write(*s, "now");
  Bytes chunk;
  ASSERT_EQ(r->read(chunk).status, ReadStatus::Data);
  EXPECT_EQ(chunk.view(), "now");
  EXPECT_EQ(w.network.in_flight(), 0u);
}

}  // namespace
}  // namespace moq::sim
