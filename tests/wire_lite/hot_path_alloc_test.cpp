// The hot path allocates nothing: GROUP / FRAME / DATAGRAM header encode and decode, on success
// and on NeedMore (a header split across reads). Counts global operator new in this binary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <new>

#include "tests/wire_lite/test_support.h"

namespace {
size_t g_allocations = 0;
}  // namespace

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  return operator new(n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace moq::wire::lite::test {
namespace {

TEST(HotPath, TheCounterSeesAllocations) {
  const size_t before = g_allocations;
  auto p = std::make_unique<uint64_t>(7);
  EXPECT_EQ(g_allocations - before, 1u);
  // A Malformed decode builds its error message: the counter sees that too.
  const uint8_t bad[] = {0x01, 0x00};  // GROUP body of 1 byte: too short
  EXPECT_TRUE(decode_group_header(bad, LiteVersion::Lite06).malformed());
  EXPECT_GT(g_allocations - before, 1u);
}

TEST(HotPath, HeadersEncodeAndDecodeWithoutAllocating) {
  uint64_t sink = 0;
  const size_t before = g_allocations;
  for (LiteVersion v : kVersions) {
    for (uint64_t i = 0; i < 1000; ++i) {
      uint8_t buf[kMaxGroupStreamHeaderSize + kMaxFrameHeaderSize];
      const size_t g = encode_group_stream_header({1, i, 0}, v, buf);
      const auto gh = decode_group_header({buf + 1, g - 1}, v);
      const auto gh_part = decode_group_header({buf + 1, 2}, v);  // NeedMore
      const size_t f = encode_frame_header(static_cast<int64_t>(i) - 500, i * 97, v, buf);
      const auto fh = decode_frame_header({buf, f}, v);
      const auto fh_part = decode_frame_header({buf, f - 1}, v);  // NeedMore
      const size_t d = encode_datagram_header({1, i, i * 33}, 100, v, buf);
      const auto dh = decode_datagram({buf, d}, v);
      sink += gh.value.sequence + gh_part.needed + static_cast<uint64_t>(fh.value.timestamp_delta) +
              fh_part.needed + dh.value.timestamp;
      ASSERT_TRUE(gh.ok() && fh.ok() && dh.ok());
      ASSERT_TRUE(gh_part.need_more() && fh_part.need_more());
    }
  }
  EXPECT_EQ(g_allocations - before, 0u);
  EXPECT_NE(sink, 0u);
}

}  // namespace
}  // namespace moq::wire::lite::test
