// The per-object header fast paths (model/session/ietf/object_fast_path.h) write and read exactly
// what the wire codec does, with the same stream-state update, and decline everything else.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "model/session/ietf/object_fast_path.h"

namespace moq::session::ietf_session {
namespace {

uint64_t random_length(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0:
      return 1 + rng() % 127;  // one-byte varint
    case 1:
      return 128 + rng() % 16000;  // two bytes
    case 2:
      return 16384 + rng() % 2'000'000;  // three bytes
    default:
      return rng() % 64;  // includes 0 (declined for subgroups)
  }
}

TEST(FastPath, SubgroupObjectsMatchTheCodec) {
  std::mt19937_64 rng(7);
  w::SubgroupHeader h;
  h.track_alias = 3;
  h.group_id = 9;
  w::SubgroupStreamState fast, codec, dfast, dcodec;
  uint8_t a[64], b[64];
  // The first object always goes through the codec.
  ASSERT_EQ(encode_next_subgroup_object(fast, h, 0, 5, a), 0u);
  ASSERT_GT(w::encode_subgroup_object(fast, h, 0, {}, 5, w::ObjectStatus::Normal, a), 0u);
  ASSERT_GT(w::encode_subgroup_object(codec, h, 0, {}, 5, w::ObjectStatus::Normal, b), 0u);
  w::SubgroupObject o;
  ASSERT_TRUE(w::decode_subgroup_object(std::span<const uint8_t>(a, 8), h, dfast, o).ok());
  ASSERT_TRUE(w::decode_subgroup_object(std::span<const uint8_t>(b, 8), h, dcodec, o).ok());
  for (uint64_t id = 1; id < 2000; ++id) {
    const uint64_t len = random_length(rng);
    const size_t n = encode_next_subgroup_object(fast, h, id, len, a);
    const size_t m = w::encode_subgroup_object(codec, h, id, {}, len, w::ObjectStatus::Normal, b);
    if (len == 0) {
      EXPECT_EQ(n, 0u) << "an empty object needs its status: the codec writes it";
      ASSERT_GT(w::encode_subgroup_object(fast, h, id, {}, len, w::ObjectStatus::Normal, a), 0u);
    } else {
      ASSERT_EQ(n, m) << "object " << id;
      EXPECT_EQ(std::vector<uint8_t>(a, a + n), std::vector<uint8_t>(b, b + m));
    }
    EXPECT_EQ(fast.last_object_id, codec.last_object_id);
    // Decoding: the fast path reads what it can, the codec the rest; same result.
    uint64_t fl = 0;
    size_t used = 0;
    const bool took =
        decode_next_subgroup_object(std::span<const uint8_t>(b, m), h, dfast, fl, used);
    if (!took) {
      ASSERT_TRUE(w::decode_subgroup_object(std::span<const uint8_t>(b, m), h, dfast, o).ok());
    }
    ASSERT_TRUE(w::decode_subgroup_object(std::span<const uint8_t>(b, m), h, dcodec, o).ok());
    EXPECT_EQ(took, len != 0);
    if (took) {
      EXPECT_EQ(fl, o.payload_length);
      EXPECT_EQ(used, m);
    }
    EXPECT_EQ(dfast.last_object_id, dcodec.last_object_id);
    EXPECT_EQ(dfast.started, dcodec.started);
    EXPECT_EQ(dfast.ended, dcodec.ended);
  }
}

TEST(FastPath, SubgroupDeclinesWhatItDoesNotCover) {
  w::SubgroupHeader h;
  w::SubgroupStreamState st;
  uint8_t out[32];
  EXPECT_EQ(encode_next_subgroup_object(st, h, 0, 4, out), 0u);  // first object
  st.started = true;
  st.last_object_id = 4;
  EXPECT_EQ(encode_next_subgroup_object(st, h, 6, 4, out), 0u);  // a gap
  h.has_properties = true;
  EXPECT_EQ(encode_next_subgroup_object(st, h, 5, 4, out), 0u);  // properties block
  h.has_properties = false;
  st.ended = true;
  EXPECT_EQ(encode_next_subgroup_object(st, h, 5, 4, out), 0u);  // after End of Group
  st.ended = false;
  uint64_t len;
  size_t used;
  const uint8_t delta_one[] = {0x01, 0x04};
  EXPECT_FALSE(decode_next_subgroup_object(delta_one, h, st, len, used));
  const uint8_t truncated[] = {0x00};
  EXPECT_FALSE(decode_next_subgroup_object(truncated, h, st, len, used));
  const uint8_t split_length[] = {0x00, 0x81};  // a two-byte length cut short
  EXPECT_FALSE(decode_next_subgroup_object(split_length, h, st, len, used));
  EXPECT_EQ(st.last_object_id, 4u);  // declining leaves the state alone
}

TEST(FastPath, FetchObjectsMatchTheCodec) {
  std::mt19937_64 rng(11);
  for (const w::IetfVersion v : {w::IetfVersion::Draft18, w::IetfVersion::Draft22}) {
    w::FetchStreamState fast, codec, dfast, dcodec;
    uint8_t a[128], b[128];
    w::FetchObject o;
    o.publisher_priority = 0x80;
    uint64_t group = 5, id = 0;
    for (int i = 0; i < 3000; ++i) {
      // Mostly the next object; sometimes a new group, a gap or another priority.
      const uint64_t r = rng() % 20;
      if (i > 0 && r == 0) {
        ++group;
        id = rng() % 3;
      } else if (i > 0 && r == 1) {
        id += 2;
      } else if (i > 0) {
        ++id;
      }
      o.publisher_priority = r == 2 ? 0x40 : 0x80;
      o.group_id = group;
      o.object_id = id;
      o.payload_length = random_length(rng);
      size_t n =
          encode_next_fetch_object(fast, group, id, o.publisher_priority, o.payload_length, a);
      if (n == 0) n = w::encode_fetch_object(fast, o, v, a);
      const size_t m = w::encode_fetch_object(codec, o, v, b);
      ASSERT_GT(m, 0u);
      ASSERT_EQ(std::vector<uint8_t>(a, a + n), std::vector<uint8_t>(b, b + m)) << "record " << i;
      uint64_t len = 0;
      size_t used = 0;
      w::FetchObject got;
      if (decode_next_fetch_object(std::span<const uint8_t>(b, m), dfast, len, used)) {
        EXPECT_EQ(used, m);
        EXPECT_EQ(len, o.payload_length);
      } else {
        ASSERT_TRUE(w::decode_fetch_object(std::span<const uint8_t>(b, m), dfast, v, got).ok());
      }
      ASSERT_TRUE(w::decode_fetch_object(std::span<const uint8_t>(b, m), dcodec, v, got).ok());
      EXPECT_EQ(got.group_id, group);
      EXPECT_EQ(got.object_id, id);
      for (const w::FetchStreamState* s : {&fast, &dfast}) {
        EXPECT_EQ(s->group_id, codec.group_id);
        EXPECT_EQ(s->object_id, codec.object_id);
        EXPECT_EQ(s->subgroup_id, codec.subgroup_id);
        EXPECT_EQ(s->has_subgroup, codec.has_subgroup);
        EXPECT_EQ(s->publisher_priority, codec.publisher_priority);
      }
    }
  }
}

}  // namespace
}  // namespace moq::session::ietf_session
