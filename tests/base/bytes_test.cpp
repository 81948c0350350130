#include "model/base/bytes.h"

#include <gtest/gtest.h>

namespace moq {
namespace {

TEST(Bytes, SliceSharesWithoutCopy) {
  Bytes b = Bytes::copy(std::string_view("hello world"));
  Bytes s = b.slice(6, 5);
  EXPECT_EQ(s.view(), "world");
  EXPECT_EQ(s.data(), b.data() + 6);
  EXPECT_EQ(b.share_count(), 2u);
  Bytes clamped = b.slice(8, 100);
  EXPECT_EQ(clamped.view(), "rld");
  EXPECT_TRUE(b.slice(50).empty());
}

// sub() is slice() without the clamping, for ranges known to lie within the view: the same bytes
// and sharing at every in-range offset, including the empty ends.
TEST(Bytes, SubMatchesSliceWithinRange) {
  Bytes b = Bytes::copy(std::string_view("hello"));
  for (size_t off = 0; off <= b.size(); ++off) {
    for (size_t len = 0; off + len <= b.size(); ++len) {
      Bytes s = b.sub(off, len);
      EXPECT_EQ(s.view(), b.slice(off, len).view()) << off << " " << len;
      EXPECT_EQ(s.data(), b.data() + off);
    }
  }
  Bytes tail = b.sub(1, 4);
  EXPECT_EQ(b.share_count(), 2u);
  EXPECT_EQ(tail.sub(2, 2).view(), "lo");
}

TEST(Bytes, CopyAndMoveKeepCounts) {
  Bytes a = Bytes::copy(std::string_view("x"));
  Bytes b = a;
  EXPECT_EQ(a.share_count(), 2u);
  Bytes c = std::move(b);
  EXPECT_EQ(a.share_count(), 2u);
  EXPECT_TRUE(b.empty());  // NOLINT: moved-from is empty by contract
  c.reset();
  EXPECT_EQ(a.share_count(), 1u);
}

TEST(ByteArena, SlicesShareBlocksAndBlocksAreRecycled) {
  ByteArena arena(64);
  Bytes first = arena.copy(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("abcd"), 4));
  Bytes second = arena.copy(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("ef"), 2));
  EXPECT_EQ(first.data() + 4, second.data());
  EXPECT_EQ(first.view(), "abcd");
  EXPECT_EQ(second.view(), "ef");
  const uint8_t* block_start = first.data();
  first.reset();
  second.reset();
  // Fill past the first block: the arena moves on; the old block returns to the pool.
  std::vector<uint8_t> big(60, 7);
  Bytes third = arena.copy(big);
  EXPECT_EQ(third.size(), 60u);
  Bytes fourth = arena.copy(big);
  EXPECT_TRUE(fourth.data() == block_start || third.data() == block_start);
}

// The pool grows geometrically when it runs dry: the arena's first rollover, which happens
// while the block it leaves is still in use, finds a spare block (before, a late round that
// first straddled a block boundary allocated one).
TEST(ByteArena, APoolThatRunsDryKeepsASpareBlock) {
  BlockPool* pool = BlockPool::create(64);
  Block* first = pool->take();
  EXPECT_EQ(pool->outstanding(), 1u);
  EXPECT_EQ(pool->idle(), BlockPool::kFirstBlocks - 1);
  Block* second = pool->take();  // the rollover: no new allocation
  EXPECT_EQ(pool->idle(), 0u);
  Block* third = pool->take();  // dry with 2 out: 2 more
  EXPECT_EQ(pool->idle(), 1u);
  for (Block* b : {first, second, third}) {
    b->refs = 1;
    b->unref();
  }
  EXPECT_EQ(pool->idle(), 4u);
  pool->close();
}

TEST(ByteArena, OversizeReservationGetsItsOwnBlock) {
  ByteArena arena(16);
  std::vector<uint8_t> big(100, 1);
  Bytes b = arena.copy(big);
  EXPECT_EQ(b.size(), 100u);
  EXPECT_EQ(b[99], 1);
}

TEST(ByteArena, BytesOutliveTheArena) {
  Bytes kept;
  {
    ByteArena arena(32);
    kept = arena.copy(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("keep"), 4));
  }
  EXPECT_EQ(kept.view(), "keep");  // ASan reports a use-after-free if the block died early
}

}  // namespace
}  // namespace moq
