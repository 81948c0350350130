// StreamInput: items decoded from the front of chunks without a copy, split items gathered in
// the stash, held chunks parsed first, the end of the stream inside an item, and drain().
#include "model/session/core/stream_input.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/session_core/streams.h"

namespace moq::session::core::testing {
namespace {

// A toy item: a length byte, then that many bytes (text).
Decoded<std::string> decode_item(std::span<const uint8_t> in) {
  if (in.empty()) return need_more<std::string>(1);
  if (in[0] == 0xFF) return malformed<std::string>(Error{3, "ITEM: field 'Length': 255"});
  const size_t n = in[0];
  if (in.size() < 1 + n) return need_more<std::string>(1 + n);
  return decoded(std::string(reinterpret_cast<const char*>(in.data()) + 1, n), 1 + n);
}

std::string item(std::string_view text) {
  return std::string(1, static_cast<char>(text.size())) + std::string(text);
}

TEST(StreamInput, DecodesItemsFromChunksAndGathersSplitOnes) {
  StreamPair p;
  IdleTask task(p.executor);
  Waiter waiter(task);
  StreamInput in(std::move(p.recv));
  const std::string all = item("one") + item("two") + item("three");
  p.write(all.substr(0, 6));  // "one" and half of "two"
  std::string out;
  ASSERT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Message);
  EXPECT_EQ(out, "one");
  EXPECT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Pending);
  EXPECT_TRUE(waiter.armed());
  p.write(all.substr(6));
  ASSERT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Message);
  EXPECT_EQ(out, "two");
  ASSERT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Message);
  EXPECT_EQ(out, "three");
  ASSERT_TRUE(p.send->finish().ok());
  EXPECT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Fin);
}

TEST(StreamInput, TheEndInsideAnItemIsMalformedAndNamesIt) {
  StreamPair p;
  IdleTask task(p.executor);
  Waiter waiter(task);
  StreamInput in(std::move(p.recv));
  p.write(item("whole").substr(0, 3));
  ASSERT_TRUE(p.send->finish().ok());
  std::string out;
  ASSERT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Malformed);
  EXPECT_EQ(in.error().code, 0x3u);
  EXPECT_EQ(in.error().message, "ITEM: the stream ended inside the message (3 bytes left)");
}

TEST(StreamInput, MalformedBytesCarryTheDecodersError) {
  StreamPair p;
  IdleTask task(p.executor);
  Waiter waiter(task);
  StreamInput in(std::move(p.recv));
  p.write("\xFF");
  std::string out;
  ASSERT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Malformed);
  EXPECT_EQ(in.error().message, "ITEM: field 'Length': 255");
}

TEST(StreamInput, HeldChunksAreParsedFirstAndAResetIsSeenWhileHolding) {
  StreamPair p;
  IdleTask task(p.executor);
  Waiter waiter(task);
  StreamInput in(std::move(p.recv));
  p.write(item("a"));
  p.write(item("b"));
  EXPECT_EQ(in.hold(1), ReadStatus::WouldBlock);  // one chunk held, the second left unread
  EXPECT_TRUE(in.has_partial());
  std::string out;
  ASSERT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Message);
  EXPECT_EQ(out, "a");
  ASSERT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Message);
  EXPECT_EQ(out, "b");
  ASSERT_TRUE(p.send->reset(0x21).ok());
  EXPECT_EQ(in.hold(1), ReadStatus::Reset);
  EXPECT_EQ(in.code(), 0x21u);
  EXPECT_EQ(in.next(waiter, "ITEM", decode_item, out), In::Reset);
}

TEST(StreamInput, DrainDiscardsUntilThePeerEndsItsHalf) {
  StreamPair p;
  IdleTask task(p.executor);
  Waiter waiter(task);
  StreamInput in(std::move(p.recv));
  p.write("ignored");
  uint64_t resets = 0;
  EXPECT_FALSE(in.drain(waiter, resets));
  ASSERT_TRUE(p.send->reset(0x1).ok());
  EXPECT_TRUE(in.drain(waiter, resets));
  EXPECT_EQ(resets, 1u);
}

}  // namespace
}  // namespace moq::session::core::testing
