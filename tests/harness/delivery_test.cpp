// Delivery hashing: frame boundaries, content and order all change the hash; a log of chunks hashes
// like the hasher over the same frames; payload sources are deterministic and distinct.
#include <gtest/gtest.h>

#include "harness/runner/delivery.h"
#include "harness/runner/payloads.h"

namespace moq::harness {
namespace {

Bytes text(const char* s) {
  return Bytes::copy(std::string_view(s));
}

TEST(DeliveryTest, FrameBoundariesCount) {
  DeliveryHasher a, b;
  a.add_frame(text("ab"));
  a.add_frame(text("c"));
  b.add_frame(text("a"));
  b.add_frame(text("bc"));
  EXPECT_EQ(a.result().frames, 2u);
  EXPECT_EQ(a.result().bytes, 3u);
  EXPECT_EQ(a.result().frames, b.result().frames);
  EXPECT_EQ(a.result().bytes, b.result().bytes);
  EXPECT_NE(a.result().hash, b.result().hash);
}

TEST(DeliveryTest, OrderAndContentCount) {
  DeliveryHasher a, b, c;
  a.add_frame(text("x"));
  a.add_frame(text("y"));
  b.add_frame(text("y"));
  b.add_frame(text("x"));
  c.add_frame(text("x"));
  c.add_frame(text("z"));
  EXPECT_NE(a.result().hash, b.result().hash);
  EXPECT_NE(a.result().hash, c.result().hash);
}

TEST(DeliveryTest, KnownValue) {
  // XXH3 64 (seed 0) of nothing, and of the 8 zero bytes of an empty frame's size (values from
  // xxHash 0.8.1): a change of algorithm shows here.
  EXPECT_EQ(DeliveryHasher().result().hash, 0x2d06800538d394c2ULL);
  DeliveryHasher h;
  h.add_frame(Bytes());
  EXPECT_EQ(h.result().hash, 0xc77b3abb6f87acd9ULL);
  // A frame's chunks hash as the bytes they hold, however they are split.
  DeliveryHasher whole, split;
  const Bytes payload = text("chunked payload");
  whole.add_frame(payload);
  Bytes parts[] = {payload.slice(0, 3), payload.slice(3, 4), payload.slice(7)};
  split.add_frame(std::span<const Bytes>(parts, 3));
  EXPECT_EQ(whole.result(), split.result());
  // FNV-1a 64, for the short digests: of nothing it is the offset basis.
  EXPECT_EQ(Fnv64().value(), 0xcbf29ce484222325ULL);
  EXPECT_EQ(hash_hex(0x0123456789abcdefULL), "0123456789abcdef");
  EXPECT_EQ(hash_hex(0), "0000000000000000");
}

TEST(DeliveryTest, LogHashesLikeTheHasherWhateverTheChunking) {
  Bytes whole = text("hello world");
  DeliveryLog log;
  log.reserve(8);
  Bytes parts[] = {whole.slice(0, 5), whole.slice(5)};
  log.record(std::span<const Bytes>(parts, 2));
  log.record(text("!"));
  DeliveryHasher h;
  h.add_frame(whole);
  h.add_frame(text("!"));
  EXPECT_EQ(log.frames(), 2u);
  EXPECT_EQ(log.bytes(), 12u);
  EXPECT_EQ(log.delivery(), h.result());
  log.clear();
  EXPECT_EQ(log.delivery(), DeliveryHasher().result());
}

// Frames of one chunk are recorded without a chunk count; frames of none or several note theirs
// on the side. Any mix, in any order, hashes as the hasher does frame by frame.
TEST(DeliveryTest, LogKeepsFrameBoundariesOfEveryShape) {
  Bytes whole = text("abcdefgh");
  Bytes three[] = {whole.slice(0, 2), whole.slice(2, 3), whole.slice(5)};
  DeliveryLog log;
  log.reserve(2);                        // fewer than recorded: the log grows
  log.record(std::span<const Bytes>());  // no chunks: an empty frame
  log.record(text("x"));
  log.record(std::span<const Bytes>(three, 3));
  log.record(text("y"));
  log.record(std::span<const Bytes>(three, 2));
  DeliveryHasher h;
  h.add_frame(std::span<const Bytes>());
  h.add_frame(text("x"));
  h.add_frame(whole);
  h.add_frame(text("y"));
  h.add_frame(whole.slice(0, 5));
  EXPECT_EQ(log.frames(), 5u);
  EXPECT_EQ(log.bytes(), 15u);
  EXPECT_EQ(log.delivery(), h.result());
  // The same chunks cut at other frame boundaries hash differently.
  DeliveryLog moved;
  moved.record(std::span<const Bytes>());
  moved.record(text("x"));
  moved.record(std::span<const Bytes>(three, 2));
  moved.record(three[2]);
  moved.record(text("y"));
  moved.record(std::span<const Bytes>(three, 2));
  EXPECT_EQ(moved.bytes(), log.bytes());
  EXPECT_NE(moved.delivery(), log.delivery());
}

TEST(DeliveryTest, CombinerIsOrderSensitive) {
  DeliveryHasher x, y;
  x.add_frame(text("x"));
  y.add_frame(text("y"));
  DeliveryCombiner a, b;
  a.add(x.result());
  a.add(y.result());
  b.add(y.result());
  b.add(x.result());
  EXPECT_EQ(a.result().frames, 2u);
  EXPECT_EQ(a.result().bytes, 2u);
  EXPECT_NE(a.result().hash, b.result().hash);
}

TEST(PayloadSourceTest, DeterministicDistinctAndSized) {
  PayloadSource p(64, 10), q(64, 10);
  for (uint64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(p.payload(i).size(), 64u);
    EXPECT_EQ(p.payload(i), q.payload(i));
    for (uint64_t j = 0; j < i; ++j)
      EXPECT_FALSE(p.payload(i) == p.payload(j)) << i << " " << j;
  }
  EXPECT_EQ(p.payload(3), p.payload(13));  // cycles through `distinct`
  EXPECT_EQ(PayloadSource(0, 4).payload(2).size(), 0u);
}

}  // namespace
}  // namespace moq::harness
