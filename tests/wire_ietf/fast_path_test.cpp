// The per-object fast paths of data.h (encode_subgroup_object / decode_subgroup_object and
// encode_fetch_object / decode_fetch_object, inline) write and read exactly what the general
// codec (detail::*_any_*) does, with the same stream-state update, for random sequences of
// lengths (zero-length objects included), groups, gaps and priorities.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "tests/wire_ietf/test_util.h"

namespace moq::wire::ietf::test {
namespace {

uint64_t random_length(std::mt19937_64& rng) {
  switch (rng() % 5) {
    case 0:
      return 1 + rng() % 127;  // one-byte varint
    case 1:
      return 128 + rng() % 16000;  // two bytes
    case 2:
      return 16384 + rng() % 2'000'000;  // three bytes
    case 3:
      return 0;  // a zero-length object: a status follows on subgroup streams
    default:
      return rng() % 64;
  }
}

using Bytes = std::vector<uint8_t>;

void expect_same_subgroup_state(const SubgroupStreamState& a, const SubgroupStreamState& b) {
  EXPECT_EQ(a.started, b.started);
  EXPECT_EQ(a.ended, b.ended);
  EXPECT_EQ(a.delta0_ready, b.delta0_ready);
  EXPECT_EQ(a.last_object_id, b.last_object_id);
  EXPECT_EQ(a.first_object_id, b.first_object_id);
}

void expect_same_fetch_state(const FetchStreamState& a, const FetchStreamState& b) {
  EXPECT_EQ(a.has_location, b.has_location);
  EXPECT_EQ(a.has_object, b.has_object);
  EXPECT_EQ(a.has_subgroup, b.has_subgroup);
  EXPECT_EQ(a.group_id, b.group_id);
  EXPECT_EQ(a.object_id, b.object_id);
  EXPECT_EQ(a.subgroup_id, b.subgroup_id);
  EXPECT_EQ(a.publisher_priority, b.publisher_priority);
}

// Encodes id with both paths and decodes the bytes with both; the four must agree.
void check_subgroup_object(const SubgroupHeader& h, uint64_t id, uint64_t length,
                           ObjectStatus status, SubgroupStreamState (&st)[4]) {
  uint8_t a[kMaxSubgroupObjectHeaderSize], b[kMaxSubgroupObjectHeaderSize];
  const size_t n = encode_subgroup_object(st[0], h, id, {}, length, status, a);
  const size_t m = detail::encode_any_subgroup_object(st[1], h, id, {}, length, status, b);
  ASSERT_EQ(Bytes(a, a + n), Bytes(b, b + m)) << "object " << id << " length " << length;
  expect_same_subgroup_state(st[0], st[1]);
  if (m == 0) return;  // refused by both
  // Every strict prefix: NeedMore from both, the state untouched.
  for (size_t k = 0; k < m; ++k) {
    SubgroupStreamState s2 = st[2], s3 = st[3];
    EXPECT_EQ(decode_subgroup_object({b, k}, h, s2).status, DecodeStatus::NeedMore);
    EXPECT_EQ(detail::decode_any_subgroup_object({b, k}, h, s3).status, DecodeStatus::NeedMore);
    expect_same_subgroup_state(s2, st[2]);
  }
  const Decoded<SubgroupObject> fast = decode_subgroup_object({b, m}, h, st[2]);
  const Decoded<SubgroupObject> any = detail::decode_any_subgroup_object({b, m}, h, st[3]);
  ASSERT_TRUE(fast.ok() && any.ok()) << "object " << id;
  EXPECT_EQ(fast.consumed, m);
  EXPECT_EQ(any.consumed, m);
  EXPECT_EQ(fast.value.object_id, any.value.object_id);
  EXPECT_EQ(fast.value.object_id, id);
  EXPECT_EQ(fast.value.payload_length, any.value.payload_length);
  EXPECT_EQ(fast.value.status, any.value.status);
  expect_same_subgroup_state(st[2], st[3]);
}

TEST(IetfFastPath, SubgroupObjectsMatchTheGeneralCodec) {
  std::mt19937_64 rng(7);
  for (const bool properties : {false, true}) {
    SubgroupHeader h;
    h.track_alias = 3;
    h.group_id = 9;
    h.has_properties = properties;  // no fast path: every object has a Properties Length
    SubgroupStreamState st[4];
    uint64_t id = rng() % 3;
    for (int i = 0; i < 3000; ++i) {
      check_subgroup_object(h, id, random_length(rng), ObjectStatus::Normal, st);
      id += rng() % 8 == 0 ? 2 + rng() % 5 : 1;  // mostly the next object, sometimes a gap
    }
    // The stream's end: an End of Group status, after which both refuse another object.
    check_subgroup_object(h, id, 0, ObjectStatus::EndOfGroup, st);
    check_subgroup_object(h, id + 1, 5, ObjectStatus::Normal, st);
  }
}

TEST(IetfFastPath, SubgroupDecodingDeclinesWhatItDoesNotCover) {
  SubgroupHeader h;
  SubgroupStreamState seen;  // after object 4
  uint8_t buf[kMaxSubgroupObjectHeaderSize];
  ASSERT_GT(encode_subgroup_object(seen, h, 4, {}, 1, ObjectStatus::Normal, buf), 0u);
  for (const Bytes& in : {Bytes{0x01, 0x04},           // a gap (delta 1)
                          Bytes{0x00},                 // cut before the length
                          Bytes{0x00, 0x81},           // a two-byte length cut short
                          Bytes{0x00, 0x00, 0x00},     // zero length: Normal status follows
                          Bytes{0x00, 0x00, 0x03},     // zero length: End of Group
                          Bytes{0x00, 0x00, 0x02}}) {  // an unknown status
    SubgroupStreamState a = seen, b = seen;
    const Decoded<SubgroupObject> fast = decode_subgroup_object(in, h, a);
    const Decoded<SubgroupObject> any = detail::decode_any_subgroup_object(in, h, b);
    EXPECT_EQ(fast.status, any.status) << to_hex(in);
    EXPECT_EQ(fast.consumed, any.consumed) << to_hex(in);
    EXPECT_EQ(fast.value.object_id, any.value.object_id) << to_hex(in);
    EXPECT_EQ(fast.value.status, any.value.status) << to_hex(in);
    expect_same_subgroup_state(a, b);
  }
  // Object IDs run out at 2^64-1: the next one is refused either way.
  SubgroupStreamState last;
  ASSERT_GT(encode_subgroup_object(last, h, UINT64_MAX, {}, 1, ObjectStatus::Normal, buf), 0u);
  SubgroupStreamState d = last;
  EXPECT_EQ(decode_subgroup_object(Bytes{0x00, 0x04}, h, d).status, DecodeStatus::Malformed);
  EXPECT_EQ(encode_subgroup_object(last, h, 0, {}, 1, ObjectStatus::Normal, buf), 0u);
}

// An empty Normal object (delta 0, length 0, status 0) is the fast path's as much as a one-byte
// one: a track of empty frames costs no more than one of small frames. Another status (which
// may end the stream) or a header cut short is declined.
TEST(IetfFastPath, EmptyNormalObjectsTakeTheFastPath) {
  SubgroupHeader h;
  SubgroupStreamState st;
  uint8_t buf[kMaxSubgroupObjectHeaderSize];
  ASSERT_GT(encode_subgroup_object(st, h, 4, {}, 1, ObjectStatus::Normal, buf), 0u);
  SubgroupStreamState enc = st;
  ASSERT_EQ(encode_subgroup_object(enc, h, 5, {}, 0, ObjectStatus::Normal, buf), 3u);
  EXPECT_EQ(Bytes(buf, buf + 3), (Bytes{0x00, 0x00, 0x00}));
  SubgroupStreamState dec = st;
  uint64_t length = 99;
  EXPECT_EQ(decode_next_subgroup_object(Bytes{0x00, 0x00, 0x00, 0x07}, dec, length), 3u);
  EXPECT_EQ(length, 0u);
  EXPECT_EQ(dec.last_object_id, 5u);
  for (const Bytes& in : {Bytes{0x00, 0x00},           // the status not there yet
                          Bytes{0x00, 0x00, 0x03},     // End of Group
                          Bytes{0x00, 0x00, 0x02}}) {  // an unknown status
    SubgroupStreamState d = st;
    EXPECT_EQ(decode_next_subgroup_object(in, d, length), 0u) << to_hex(in);
    expect_same_subgroup_state(d, st);
  }
}

TEST(IetfFastPath, FetchObjectsMatchTheGeneralCodec) {
  std::mt19937_64 rng(11);
  for (const IetfVersion v : kVersions) {
    for (const GroupOrder order : {GroupOrder::Ascending, GroupOrder::Descending}) {
      FetchStreamState st[4];
      for (FetchStreamState& s : st)
        s.group_order = order;
      uint64_t group = 5000, id = 0;
      for (int i = 0; i < 3000; ++i) {
        // Mostly the next object; sometimes a new group, a gap, another subgroup or priority,
        // a datagram-forwarded object or an End-of-Range marker.
        const uint64_t r = rng() % 24;
        FetchObject o;
        if (i > 0 && r == 0) {
          group = order == GroupOrder::Ascending ? group + 1 + rng() % 3 : group - 1 - rng() % 3;
          id = rng() % 3;
        } else if (i > 0 && r == 1) {
          id += 2 + rng() % 4;
        } else if (i > 0) {
          ++id;
        }
        o.group_id = group;
        o.object_id = id;
        o.publisher_priority = r == 2 ? 0x40 : 0x80;
        o.subgroup_id = r == 3 ? 1 + rng() % 3 : 0;
        o.datagram = r == 4;
        if (r == 5) {
          o = FetchObject{};
          o.kind = FetchRecordKind::EndOfNonExistentRange;
          o.group_id = group;
          o.object_id = ++id;
        } else {
          o.payload_length = random_length(rng);
        }
        uint8_t a[kMaxFetchObjectHeaderSize], b[kMaxFetchObjectHeaderSize];
        const size_t n = encode_fetch_object(st[0], o, v, a);
        const size_t m = detail::encode_any_fetch_object(st[1], o, v, b);
        ASSERT_GT(m, 0u) << "record " << i;
        ASSERT_EQ(Bytes(a, a + n), Bytes(b, b + m)) << "record " << i;
        expect_same_fetch_state(st[0], st[1]);
        const Decoded<FetchObject> fast = decode_fetch_object({b, m}, st[2], v);
        const Decoded<FetchObject> any = detail::decode_any_fetch_object({b, m}, st[3], v);
        ASSERT_TRUE(fast.ok() && any.ok()) << "record " << i;
        EXPECT_EQ(fast.consumed, m);
        EXPECT_EQ(any.consumed, m);
        for (const FetchObject* got : {&fast.value, &any.value}) {
          EXPECT_EQ(got->kind, o.kind);
          EXPECT_EQ(got->group_id, o.group_id);
          EXPECT_EQ(got->object_id, o.object_id);
          EXPECT_EQ(got->datagram, o.datagram);
          EXPECT_EQ(got->subgroup_id, o.subgroup_id);
          if (o.kind == FetchRecordKind::Object) {
            EXPECT_EQ(got->publisher_priority, o.publisher_priority);
          }
          EXPECT_EQ(got->payload_length, o.payload_length);
        }
        expect_same_fetch_state(st[2], st[3]);
      }
    }
  }
}

}  // namespace
}  // namespace moq::wire::ietf::test
