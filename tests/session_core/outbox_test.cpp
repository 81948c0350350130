// Outbox: one gather write; what flow control does not take stays queued, in order, in the same
// list; a stopped stream fails with the peer's code; a partial write leaves what waits where it
// is; a list written while it grows keeps its storage.
#include "model/session/core/outbox.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/session_core/streams.h"

namespace moq::session::core::testing {
namespace {

std::string read_all(RecvStream& s) {
  std::string out;
  Bytes chunk;
  while (s.read(chunk).status == ReadStatus::Data && !chunk.empty())
    out.append(chunk.view());
  return out;
}

TEST(Outbox, WhatFlowControlLeavesIsWrittenLaterInOrder) {
  sim::memory::PairConfig cfg;
  cfg.stream_window = 4;
  StreamPair p(cfg);
  IdleTask task(p.executor);
  Waiter waiter(task);
  Outbox out;
  out.push(Bytes::copy(std::string_view("abc")));
  out.push(Bytes::copy(std::string_view("defg")));
  EXPECT_EQ(out.flush(*p.send, waiter), Flush::Pending);
  EXPECT_TRUE(waiter.armed());
  EXPECT_EQ(read_all(*p.recv), "abcd");
  out.push(Bytes::copy(std::string_view("h")));
  EXPECT_EQ(out.flush(*p.send, waiter), Flush::Done);
  EXPECT_TRUE(out.idle());
  EXPECT_EQ(read_all(*p.recv), "efgh");
}

TEST(Outbox, AStoppedStreamFailsWithThePeersCode) {
  StreamPair p;
  IdleTask task(p.executor);
  Waiter waiter(task);
  p.recv->stop(0x42);
  Outbox out;
  out.push(Bytes::copy(std::string_view("x")));
  EXPECT_EQ(out.flush(*p.send, waiter), Flush::Failed);
  EXPECT_EQ(out.error().code, 0x42u);
  EXPECT_TRUE(out.idle());
}

// Moving the queue to the front on each partial write would cost the whole backlog once per
// credit return: a group larger than the window would cost frames squared.
// Eight one-byte chunks queued on a stream whose window takes fewer.
struct Backlog {
  explicit Backlog(uint64_t window) : p(config(window)), task(p.executor), waiter(task) {
    for (int i = 0; i < 8; ++i)
      out.push(b);
  }
  static sim::memory::PairConfig config(uint64_t window) {
    sim::memory::PairConfig cfg;
    cfg.stream_window = window;
    return cfg;
  }
  StreamPair p;
  IdleTask task;
  Waiter waiter;
  Outbox out;
  const Bytes b = Bytes::copy(std::string_view("x"));
};

TEST(Outbox, APartialWriteLeavesWhatWaitsInPlace) {
  Backlog q(3);
  const Bytes* storage = q.out.chain().chunks().data();
  EXPECT_EQ(q.out.flush(*q.p.send, q.waiter), Flush::Pending);  // 3 of 8 written
  EXPECT_EQ(q.out.chain().chunk_count(), 5u);
  EXPECT_EQ(q.out.chain().chunks().data(), storage + 3);
}

TEST(Outbox, AListWrittenWhileItGrowsReusesItsSlots) {
  Backlog q(7);
  StreamPair& p = q.p;
  Outbox& out = q.out;
  Waiter& waiter = q.waiter;
  const Bytes& b = q.b;
  EXPECT_EQ(out.flush(*p.send, waiter), Flush::Pending);  // 7 of 8 written
  const BufChain& c = out.chain();
  const size_t capacity = c.capacity();
  // Steady backlog: the reader takes one byte, one chunk more is queued, never fully drained.
  for (int i = 0; i < 1000; ++i) {
    Bytes chunk;
    ASSERT_EQ(p.recv->read(chunk, 1).status, ReadStatus::Data);
    out.push(b);
    EXPECT_EQ(out.flush(*p.send, waiter), Flush::Pending);
  }
  EXPECT_EQ(c.chunk_count(), 1u);
  // The written slots were reused when the list filled: it never grew.
  EXPECT_EQ(c.capacity(), capacity);
}

}  // namespace
}  // namespace moq::session::core::testing
