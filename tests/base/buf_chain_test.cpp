// BufChain: slices and moves its chunks without copying a byte; consumed from the front while
// pushed onto, it reuses its slots rather than growing; a cut of its first bytes moves to another
// chain in order, splitting only the chunk the cut falls in.
#include "model/base/buf_chain.h"

#include <gtest/gtest.h>

#include <string>

namespace moq {
namespace {

std::string text(const BufChain& c) {
  std::string out;
  for (const Bytes& b : c.chunks())
    out.append(b.view());
  return out;
}

BufChain chain_of(std::initializer_list<std::string_view> parts) {
  BufChain c;
  for (std::string_view p : parts)
    c.push(Bytes::copy(p));
  return c;
}

TEST(BufChain, TakeFrontSlicesWithoutCopy) {
  BufChain chain;
  Bytes a = Bytes::copy(std::string_view("head"));
  Bytes b = Bytes::copy(std::string_view("payload"));
  chain.push(a);
  chain.push(b);
  chain.push(Bytes());  // empty chunks are ignored
  EXPECT_EQ(chain.size(), 11u);
  EXPECT_EQ(chain.chunk_count(), 2u);
  Bytes x = chain.take_front(2);
  EXPECT_EQ(x.view(), "he");
  EXPECT_EQ(x.data(), a.data());
  Bytes y = chain.take_front(100);
  EXPECT_EQ(y.view(), "ad");
  chain.consume(3);
  EXPECT_EQ(chain.size(), 4u);
  EXPECT_EQ(chain.front().view(), "load");
  chain.consume(4);
  EXPECT_TRUE(chain.empty());
}

TEST(BufChain, TakeAllKeepsOrderAndEmptiesTheSource) {
  Bytes a = Bytes::copy(std::string_view("a")), b = Bytes::copy(std::string_view("bb"));
  Bytes c = Bytes::copy(std::string_view("ccc"));
  BufChain to, from;
  from.push(a);
  from.push(b);
  to.take_all(from);  // into an empty chain
  EXPECT_TRUE(from.empty());
  EXPECT_EQ(from.chunk_count(), 0u);
  from.push(c);
  to.take_all(from);  // onto chunks already there
  ASSERT_EQ(to.chunk_count(), 3u);
  EXPECT_EQ(to.size(), 6u);
  EXPECT_EQ(to.chunks()[0].data(), a.data());
  EXPECT_EQ(to.chunks()[1].data(), b.data());
  EXPECT_EQ(to.chunks()[2].data(), c.data());
  EXPECT_EQ(a.share_count(), 2u);  // moved, not copied: the chain and a
}

TEST(BufChain, TakeAllLeavesNeitherSideWithLessStorage) {
  Bytes b = Bytes::copy(std::string_view("x"));
  BufChain small, big;
  for (int i = 0; i < 40; ++i)
    big.push(b);
  const size_t big_capacity = big.capacity();
  small.take_all(big);  // an empty chain with less storage grows first, then they exchange
  EXPECT_EQ(small.chunk_count(), 40u);
  EXPECT_GE(big.capacity(), big_capacity);
  EXPECT_GE(small.capacity(), big_capacity);
  big.push(b);
  big.take_all(small);  // onto a chunk already there: moved one by one
  EXPECT_EQ(big.chunk_count(), 41u);
  EXPECT_TRUE(small.empty());
  EXPECT_GE(small.capacity(), big_capacity);
}

TEST(BufChain, AQueueConsumedWhileItIsWrittenStopsGrowing) {
  // A stream queue that never drains: one chunk in, one out, with a backlog of 10.
  BufChain queue;
  Bytes b = Bytes::copy(std::string_view("x"));
  for (int i = 0; i < 10; ++i)
    queue.push(b);
  for (int i = 0; i < 10000; ++i) {
    queue.push(b);
    (void)queue.take_front(1);
  }
  EXPECT_EQ(queue.chunk_count(), 10u);
  EXPECT_LE(queue.capacity(), 64u);
  EXPECT_EQ(b.share_count(), 11u);  // no slot keeps a reference once consumed
}

TEST(BufChain, MoveFrontToSplitsOnlyTheChunkTheCutFallsIn) {
  BufChain from = chain_of({"ab", "cde", "fgh", "ij"});
  const uint8_t* fgh = from.chunks()[2].data();
  BufChain to = chain_of({"xy"});
  from.move_front_to(to, 6);
  EXPECT_EQ(text(to), "xyabcdef");
  EXPECT_EQ(to.size(), 8u);
  EXPECT_EQ(to.chunk_count(), 4u);
  EXPECT_EQ(text(from), "ghij");
  EXPECT_EQ(from.size(), 4u);
  EXPECT_EQ(from.chunk_count(), 2u);
  // Both halves of the split chunk view the same block: no byte was copied.
  EXPECT_EQ(to.chunks()[3].data(), fgh);
  EXPECT_EQ(from.chunks()[0].data(), fgh + 1);
  EXPECT_EQ(from.chunks()[0].share_count(), 2u);
}

TEST(BufChain, MoveFrontToAtAChunkBoundarySplitsNothing) {
  BufChain from = chain_of({"ab", "cde", "f"});
  BufChain to;
  from.move_front_to(to, 5);
  EXPECT_EQ(text(to), "abcde");
  EXPECT_EQ(to.chunk_count(), 2u);
  EXPECT_EQ(text(from), "f");
  EXPECT_EQ(from.chunks()[0].share_count(), 1u);
  from.move_front_to(to, 0);
  EXPECT_EQ(text(to), "abcde");
  EXPECT_EQ(text(from), "f");
}

// A queue that is cut from while it is pushed onto (a stream past its window) keeps its storage:
// the slots the cuts emptied are reused once it fills, on either side of the move.
TEST(BufChain, ChainsCutWhileTheyGrowKeepTheirStorage) {
  const Bytes b = Bytes::copy(std::string_view("xyz"));
  BufChain from, to;
  for (int i = 0; i < 8; ++i)
    from.push(b);
  size_t from_capacity = 0, to_capacity = 0;
  for (int round = 0; round < 1000; ++round) {
    from.move_front_to(to, round % 2 == 0 ? 7 : 5);  // a third of a chunk over, then under
    for (int i = 0; i < 2; ++i)
      from.push(b);
    while (to.size() > 9)
      to.consume(to.front().size());
    if (round == 10) {
      from_capacity = from.capacity();
      to_capacity = to.capacity();
    }
  }
  EXPECT_EQ(from.size(), 24u);
  EXPECT_EQ(from.capacity(), from_capacity);
  EXPECT_EQ(to.capacity(), to_capacity);
}

}  // namespace
}  // namespace moq
