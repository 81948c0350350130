// The data plane: stream types, SUBGROUP_HEADER in all its variants, subgroup objects, fetch
// streams (flags, deltas, markers), datagrams; prefixes are NeedMore; the hot-path encoders and
// decoders allocate nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>

#include "tests/wire_ietf/test_util.h"

// Counts heap allocations so tests can assert the hot path makes none.
namespace {
std::atomic<uint64_t> g_allocations{0};
}  // namespace
namespace {
void* counted_malloc(size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
}  // namespace
// Every non-aligned form is replaced so that new/delete pairs stay matched (ASan checks them).
// GCC cannot see that these replacements pair malloc with free.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
#pragma GCC diagnostic pop

namespace moq::wire::ietf::test {
namespace {

constexpr IetfVersion k18 = IetfVersion::Draft18;
constexpr IetfVersion k22 = IetfVersion::Draft22;

TEST(IetfData, StreamTypes) {
  EXPECT_EQ(classify_uni_stream(hex("05 00")).value, UniStreamKind::Fetch);
  EXPECT_EQ(classify_uni_stream(hex("af 00")).value, UniStreamKind::Control);
  Decoded<UniStreamKind> d = classify_uni_stream(hex("f0 13 2b 3e 28 00 00"));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.value, UniStreamKind::Padding);
  EXPECT_EQ(d.consumed, 5u);
  EXPECT_EQ(classify_uni_stream(hex("f0 13")).status, DecodeStatus::NeedMore);
  int subgroup_types = 0;
  for (uint64_t t = 0; t < 256; ++t) {
    uint8_t buf[9];
    const size_t n = encode_varint(t, kVarint, buf);
    d = classify_uni_stream({buf, n});
    if (is_subgroup_type(t)) {
      ++subgroup_types;
      EXPECT_TRUE(d.ok() && d.value == UniStreamKind::Subgroup) << t;
    } else if (t != 0x05) {
      ASSERT_EQ(d.status, DecodeStatus::Malformed) << t;
      EXPECT_NE(d.error.message.find("stream type"), std::string::npos);
    }
  }
  EXPECT_EQ(subgroup_types, 48);  // 8 ranges of 6 (the count "64" sometimes given is a slip)
}

TEST(IetfData, EverySubgroupHeaderTypeRoundTrips) {
  for (uint64_t t = 0; t < 0x80; ++t) {
    if (!is_subgroup_type(t)) {
      uint8_t b = static_cast<uint8_t>(t);
      const std::vector<uint8_t> in = {b, 1, 2, 3, 4, 5};
      const Decoded<SubgroupHeader> d = decode_subgroup_header(in);
      ASSERT_EQ(d.status, DecodeStatus::Malformed) << t;
      EXPECT_NE(d.error.message.find("SUBGROUP_HEADER"), std::string::npos);
      continue;
    }
    SubgroupHeader h;
    h.has_properties = t & 0x01;
    h.subgroup_mode = SubgroupIdMode((t & 0x06) >> 1);
    h.end_of_group = t & 0x08;
    h.default_priority = t & 0x20;
    h.first_object = t & 0x40;
    h.track_alias = 1000000;
    h.group_id = uint64_t{1} << 50;
    h.subgroup_id = h.subgroup_mode == SubgroupIdMode::Explicit ? 77 : 0;
    h.publisher_priority = h.default_priority ? 0 : 0xC8;
    uint8_t buf[kMaxSubgroupHeaderSize];
    const size_t n = encode_subgroup_header(h, buf);
    ASSERT_GT(n, 0u);
    EXPECT_EQ(buf[0], t);
    const Decoded<SubgroupHeader> d = decode_subgroup_header({buf, n});
    ASSERT_TRUE(d.ok()) << t;
    EXPECT_EQ(d.consumed, n);
    EXPECT_EQ(d.value, h) << t;
    for (size_t k = 0; k < n; ++k)
      EXPECT_EQ(decode_subgroup_header({buf, k}).status, DecodeStatus::NeedMore);
  }
  // A two-byte (non-minimal) type is accepted; values above 0x7F are not subgroup types.
  EXPECT_TRUE(decode_subgroup_header(hex("80 10 00 00 05")).ok());
  EXPECT_EQ(decode_subgroup_header(hex("80 90 00 00")).status, DecodeStatus::Malformed);
  // A subgroup ID outside Explicit mode cannot be encoded.
  SubgroupHeader bad;
  bad.subgroup_id = 3;
  uint8_t buf[kMaxSubgroupHeaderSize];
  EXPECT_EQ(encode_subgroup_header(bad, buf), 0u);
}

struct ObjectSpec {
  uint64_t id;
  std::vector<uint8_t> props;
  std::string payload;
  ObjectStatus status = ObjectStatus::Normal;
};

std::vector<uint8_t> encode_subgroup(const SubgroupHeader& h, const std::vector<ObjectSpec>& objs) {
  std::vector<uint8_t> out(kMaxSubgroupHeaderSize);
  out.resize(encode_subgroup_header(h, out.data()));
  SubgroupStreamState st;
  for (const auto& o : objs) {
    std::vector<uint8_t> buf(kMaxSubgroupObjectHeaderSize + o.props.size());
    const size_t n =
        encode_subgroup_object(st, h, o.id, o.props, o.payload.size(), o.status, buf.data());
    EXPECT_GT(n, 0u) << o.id;
    out.insert(out.end(), buf.begin(), buf.begin() + n);
    out.insert(out.end(), o.payload.begin(), o.payload.end());
  }
  return out;
}

TEST(IetfData, SubgroupObjectsRoundTrip) {
  SubgroupHeader h;
  h.track_alias = 3;
  h.group_id = 9;
  h.has_properties = true;
  h.subgroup_mode = SubgroupIdMode::FirstObjectId;
  const std::vector<ObjectSpec> objs = {
      {5, sample_properties(), "first"},
      {6, {}, ""},                       // zero-length Normal object: status written explicitly
      {200, {}, std::string(300, 'p')},  // a gap (delta 193)
      {201, sample_properties(), "x"},
      {202, {}, "", ObjectStatus::EndOfGroup},
  };
  const auto bytes = encode_subgroup(h, objs);
  const Decoded<SubgroupHeader> header = decode_subgroup_header(bytes);
  ASSERT_TRUE(header.ok());
  const SubgroupHeader& back = header.value;
  EXPECT_EQ(back, h);
  size_t pos = header.consumed;
  SubgroupStreamState st;
  for (const auto& want : objs) {
    const auto rest = std::span<const uint8_t>(bytes).subspan(pos);
    // Every proper prefix of the object header is NeedMore and leaves the state alone.
    for (size_t k = 0; k < rest.size(); ++k) {
      SubgroupStreamState copy = st;
      const Decoded<SubgroupObject> p = decode_subgroup_object(rest.first(k), back, copy);
      if (p.ok()) break;  // the header ended before k (the payload may be cut)
      ASSERT_EQ(p.status, DecodeStatus::NeedMore) << want.id << " prefix " << k;
      EXPECT_EQ(copy.started, st.started);
    }
    const Decoded<SubgroupObject> d = decode_subgroup_object(rest, back, st);
    ASSERT_TRUE(d.ok()) << d.error.message;
    const SubgroupObject& o = d.value;
    EXPECT_EQ(o.object_id, want.id);
    EXPECT_EQ(std::vector<uint8_t>(o.properties.begin(), o.properties.end()), want.props);
    EXPECT_EQ(o.payload_length, want.payload.size());
    EXPECT_EQ(o.status, want.status);
    pos += d.consumed;
    EXPECT_EQ(std::string(bytes.begin() + pos, bytes.begin() + pos + o.payload_length),
              want.payload);
    pos += o.payload_length;
  }
  EXPECT_EQ(pos, bytes.size());
  EXPECT_EQ(st.first_object_id, 5u);  // the Subgroup ID in FirstObjectId mode
  EXPECT_TRUE(st.ended);
  // Nothing may follow End of Group.
  const Decoded<SubgroupObject> d = decode_subgroup_object(hex("00 01 41"), back, st);
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_NE(d.error.message.find("after End of Group"), std::string::npos);
  EXPECT_EQ(decode_subgroup_object({}, back, st).status, DecodeStatus::NeedMore);
}

TEST(IetfData, SubgroupObjectRules) {
  SubgroupHeader plain;
  SubgroupHeader with_props;
  with_props.has_properties = true;
  SubgroupStreamState st;
  uint8_t buf[64];
  // Properties need the header's PROPERTIES bit.
  EXPECT_EQ(encode_subgroup_object(st, plain, 0, sample_properties(), 1, ObjectStatus::Normal, buf),
            0u);
  // A status other than Normal has no payload and no properties.
  EXPECT_EQ(encode_subgroup_object(st, plain, 0, {}, 1, ObjectStatus::EndOfTrack, buf), 0u);
  EXPECT_EQ(encode_subgroup_object(st, with_props, 0, sample_properties(), 0,
                                   ObjectStatus::EndOfGroup, buf),
            0u);
  EXPECT_EQ(encode_subgroup_object(st, plain, 0, {}, 0, ObjectStatus(2), buf), 0u);
  // Object IDs increase.
  EXPECT_GT(encode_subgroup_object(st, plain, 4, {}, 1, ObjectStatus::Normal, buf), 0u);
  EXPECT_EQ(encode_subgroup_object(st, plain, 4, {}, 1, ObjectStatus::Normal, buf), 0u);

  SubgroupStreamState rs;
  Decoded<SubgroupObject> d = decode_subgroup_object(hex("00 00 02"), plain, rs);  // status 2
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_NE(d.error.message.find("object status"), std::string::npos);
  rs = {};
  d = decode_subgroup_object(hex("00 02 0e 01 00 03"), with_props, rs);  // props + EndOfGroup
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_NE(d.error.message.find("not Normal"), std::string::npos);
  rs = {};
  d = decode_subgroup_object(hex("00 01 05 01 41"), with_props, rs);  // props cut: odd type
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_NE(d.error.message.find("properties"), std::string::npos);
  rs.started = true;
  rs.last_object_id = UINT64_MAX - 1;
  d = decode_subgroup_object(hex("01 01 41"), plain, rs);  // 2^64-2 + 1 + 1 = 2^64
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_NE(d.error.message.find("exceeds 2^64-1"), std::string::npos);
}

struct FetchCase {
  FetchObject o;
  std::string payload;
};

FetchObject object(uint64_t g, uint64_t id, uint64_t sub, uint8_t prio, size_t len) {
  FetchObject o;
  o.group_id = g;
  o.object_id = id;
  o.subgroup_id = sub;
  o.publisher_priority = prio;
  o.payload_length = len;
  return o;
}

FetchObject marker(FetchRecordKind kind, uint64_t g, uint64_t id) {
  FetchObject o;
  o.kind = kind;
  o.group_id = g;
  o.object_id = id;
  return o;
}

void expect_fetch_round_trip(const std::vector<FetchObject>& objs, GroupOrder order,
                             IetfVersion v) {
  const auto props = sample_properties();
  std::vector<uint8_t> bytes(kMaxFetchHeaderSize);
  bytes.resize(encode_fetch_header(77, bytes.data()));
  FetchStreamState st;
  st.group_order = order;
  for (FetchObject o : objs) {
    std::vector<uint8_t> buf(kMaxFetchObjectHeaderSize + o.properties.size());
    const size_t n = encode_fetch_object(st, o, v, buf.data());
    ASSERT_GT(n, 0u) << o.group_id << "/" << o.object_id;
    bytes.insert(bytes.end(), buf.begin(), buf.begin() + n);
    bytes.insert(bytes.end(), o.payload_length, 'z');
  }
  const Decoded<uint64_t> header = decode_fetch_header(bytes);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header.value, 77u);
  size_t pos = header.consumed;
  FetchStreamState rs;
  rs.group_order = order;
  for (const FetchObject& want : objs) {
    const auto rest = std::span<const uint8_t>(bytes).subspan(pos);
    for (size_t k = 0; k < rest.size(); ++k) {
      FetchStreamState copy = rs;
      const Decoded<FetchObject> p = decode_fetch_object(rest.first(k), copy, v);
      if (p.ok()) break;
      ASSERT_EQ(p.status, DecodeStatus::NeedMore) << "prefix " << k;
    }
    const Decoded<FetchObject> d = decode_fetch_object(rest, rs, v);
    ASSERT_TRUE(d.ok()) << d.error.message;
    const FetchObject& got = d.value;
    EXPECT_EQ(got.kind, want.kind);
    EXPECT_EQ(got.group_id, want.group_id);
    EXPECT_EQ(got.object_id, want.object_id);
    EXPECT_EQ(got.datagram, want.datagram);
    EXPECT_EQ(got.subgroup_id, want.subgroup_id);
    EXPECT_EQ(got.publisher_priority, want.publisher_priority);
    EXPECT_EQ(std::vector<uint8_t>(got.properties.begin(), got.properties.end()),
              std::vector<uint8_t>(want.properties.begin(), want.properties.end()));
    EXPECT_EQ(got.payload_length, want.payload_length);
    pos += d.consumed + got.payload_length;
  }
  EXPECT_EQ(pos, bytes.size());
}

TEST(IetfData, FetchStreamsRoundTrip) {
  const auto props = sample_properties();
  for (IetfVersion v : kVersions) {
    std::vector<FetchObject> asc = {
        object(5, 0, 0, 0x80, 4),
        object(5, 1, 0, 0x80, 4),
        object(5, 9, 1, 0x80, 0),    // object delta, subgroup previous + 1
        object(5, 10, 1, 0x10, 2),   // same subgroup, new priority
        object(5, 11, 40, 0x10, 2),  // explicit subgroup
        object(8, 0, 0, 0x10, 1),    // group delta (2 + 1)
        object(9, 1, 0, 0x10, 1),    // group changes, object = previous + 1
        marker(FetchRecordKind::EndOfNonExistentRange, 12, 3),
        object(12, 4, 0, 0x10, 1),  // after a marker: previous = the marker
        marker(FetchRecordKind::EndOfUnknownRange, 20, 0),
        object(21, 0, 7, 0x11, 3),
    };
    asc[3].properties = props;
    FetchObject dgram = object(22, 5, 0, 0x01, 6);
    dgram.datagram = true;
    asc.push_back(dgram);
    asc.push_back(object(22, 6, 8, 0x01, 1));  // subgroup after a datagram-forwarded object
    if (has_timed_out_range_marker(v))
      asc.push_back(marker(FetchRecordKind::EndOfTimedOutRange, 30, 0));
    expect_fetch_round_trip(asc, GroupOrder::Ascending, v);

    std::vector<FetchObject> desc = {object(9, 3, 0, 1, 1), object(9, 4, 0, 1, 1),
                                     object(7, 0, 0, 1, 1), object(0, 5, 2, 2, 0)};
    expect_fetch_round_trip(desc, GroupOrder::Descending, v);
  }
}

TEST(IetfData, FetchObjectRules) {
  // The first object must carry both IDs; referring to a prior subgroup or priority is an error.
  for (uint64_t flags : {0x1Cu, 0x14u, 0x18u, 0x1Du, 0x0Cu}) {
    FetchStreamState st;
    std::vector<uint8_t> in = {static_cast<uint8_t>(flags), 1, 1, 1, 0x80, 0};
    const Decoded<FetchObject> d = decode_fetch_object(in, st, k22);
    if (flags == 0x1C) {
      EXPECT_TRUE(d.ok());
    } else {
      ASSERT_EQ(d.status, DecodeStatus::Malformed) << flags;
      EXPECT_NE(d.error.message.find("fetch object"), std::string::npos);
    }
  }
  // Unknown flags at or above 128, and 0x20C under -18.
  FetchStreamState st;
  EXPECT_EQ(decode_fetch_object(hex("81 00 00 00"), st, k22).status, DecodeStatus::Malformed);
  EXPECT_EQ(decode_fetch_object(hex("82 0c 05 00"), st, k18).status, DecodeStatus::Malformed);
  const Decoded<FetchObject> timed_out = decode_fetch_object(hex("82 0c 05 00"), st, k22);
  ASSERT_TRUE(timed_out.ok());
  EXPECT_EQ(timed_out.value.kind, FetchRecordKind::EndOfTimedOutRange);
  uint8_t buf[kMaxFetchObjectHeaderSize];
  FetchStreamState est;
  EXPECT_EQ(encode_fetch_object(est, marker(FetchRecordKind::EndOfTimedOutRange, 1, 1), k18, buf),
            0u);
  // Descending order: a group delta below zero.
  FetchStreamState desc;
  desc.group_order = GroupOrder::Descending;
  ASSERT_TRUE(decode_fetch_object(hex("1c 02 00 01 00"), desc, k22).ok());
  const Decoded<FetchObject> d = decode_fetch_object(hex("08 05 00"), desc, k22);
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_NE(d.error.message.find("below 0"), std::string::npos);
  // Within a group the Object ID must increase.
  FetchStreamState same;
  ASSERT_TRUE(decode_fetch_object(hex("1c 02 05 01 00"), same, k22).ok());
  EXPECT_EQ(decode_fetch_object(hex("04 00 00"), same, k22).status, DecodeStatus::Malformed);
  // The encoder refuses a group against the order and a non-increasing object.
  FetchStreamState enc;
  ASSERT_GT(encode_fetch_object(enc, object(5, 5, 0, 0, 0), k22, buf), 0u);
  EXPECT_EQ(encode_fetch_object(enc, object(4, 0, 0, 0, 0), k22, buf), 0u);
  EXPECT_EQ(encode_fetch_object(enc, object(5, 5, 0, 0, 0), k22, buf), 0u);
}

// Subgroup modes 01 ("the prior object's") and 10 ("the prior object's + 1") refer to the prior
// object itself (draft-ietf-moq-transport, FETCH_HEADER and its objects); a datagram-forwarded
// object has no Subgroup ID, so the object after it carries its Subgroup ID explicitly (or mode 00
// for 0), and a peer that sends 01/10 there is malformed. End-of-Range markers in between change
// nothing ([AMBIG-2]: "previous" subgroup is the last real object's).
TEST(IetfData, FetchSubgroupAfterDatagramForwardedObject) {
  FetchObject dgram = object(5, 1, 0, 0x80, 0);
  dgram.datagram = true;
  for (const bool with_marker : {false, true}) {
    for (const uint64_t sub : {0u, 7u, 8u}) {
      FetchStreamState st;
      std::vector<uint8_t> bytes;
      for (const FetchObject& o : {object(5, 0, 7, 0x80, 0), dgram,
                                   marker(FetchRecordKind::EndOfNonExistentRange, 5, 3)}) {
        if (o.kind != FetchRecordKind::Object && !with_marker) continue;
        uint8_t buf[kMaxFetchObjectHeaderSize];
        const size_t n = encode_fetch_object(st, o, k22, buf);
        ASSERT_GT(n, 0u);
        bytes.insert(bytes.end(), buf, buf + n);
      }
      const std::string prefix =
          with_marker ? "1f 05 07 00 80 00 40 00 80 8c 05 03 " : "1f 05 07 00 80 00 40 00 ";
      EXPECT_EQ(to_hex(bytes), to_hex(hex(prefix)));
      uint8_t buf[kMaxFetchObjectHeaderSize];
      const size_t n =
          encode_fetch_object(st, object(5, with_marker ? 4 : 2, sub, 0x80, 0), k22, buf);
      // Subgroup 0 is mode 00; any other is written out (mode 11), not taken from object 0.
      const std::string want = sub == 0 ? "00 00" : sub == 7 ? "03 07 00" : "03 08 00";
      EXPECT_EQ(to_hex({buf, n}), to_hex(hex(want))) << "subgroup " << sub;
    }
  }
  // Decoding: 01 or 10 right after the datagram-forwarded object (or after it and a marker) is
  // Malformed; after a real object and a marker, 01 is that object's subgroup.
  for (const char* stream : {"1f 05 07 00 80 00 40 00 01 00", "1f 05 07 00 80 00 40 00 02 00",
                             "1f 05 07 00 80 00 40 00 80 8c 05 03 01 00"}) {
    const std::vector<uint8_t> in = hex(stream);
    FetchStreamState st;
    size_t pos = 0;
    Decoded<FetchObject> d;
    while (pos < in.size()) {
      d = decode_fetch_object(std::span<const uint8_t>(in).subspan(pos), st, k22);
      if (!d.ok()) break;
      pos += d.consumed;
    }
    ASSERT_EQ(d.status, DecodeStatus::Malformed) << stream;
    EXPECT_NE(d.error.message.find("prior Subgroup ID"), std::string::npos) << d.error.message;
  }
  const std::vector<uint8_t> ok = hex("1f 05 07 00 80 00 80 8c 05 03 01 00");
  FetchStreamState st;
  const Decoded<FetchObject> first = decode_fetch_object(ok, st, k22);
  ASSERT_TRUE(first.ok());
  const Decoded<FetchObject> mark =
      decode_fetch_object(std::span<const uint8_t>(ok).subspan(first.consumed), st, k22);
  ASSERT_TRUE(mark.ok());
  const Decoded<FetchObject> next = decode_fetch_object(
      std::span<const uint8_t>(ok).subspan(first.consumed + mark.consumed), st, k22);
  ASSERT_TRUE(next.ok()) << next.error.message;
  EXPECT_EQ(next.value.subgroup_id, 7u);
  EXPECT_EQ(next.value.object_id, 4u);
}

TEST(IetfData, DatagramsRoundTrip) {
  const auto props = sample_properties();
  int valid = 0;
  for (uint64_t t = 0; t < 0x40; ++t) {
    if (!is_datagram_type(t)) {
      const std::vector<uint8_t> in = {static_cast<uint8_t>(t), 0, 0, 0, 0};
      const Decoded<ObjectDatagram> r = decode_datagram(in);
      ASSERT_EQ(r.status, DecodeStatus::Malformed) << t;
      EXPECT_NE(r.error.message.find("OBJECT_DATAGRAM"), std::string::npos);
      continue;
    }
    ++valid;
    ObjectDatagram d;
    d.track_alias = 12;
    d.group_id = 34;
    d.object_id = (t & 0x04) ? 0 : 56;
    d.default_priority = t & 0x08;
    d.publisher_priority = d.default_priority ? 0 : 7;
    d.end_of_group = t & 0x02;
    if (t & 0x01) d.properties = props;
    d.has_status = t & 0x20;
    const std::string payload = d.has_status ? "" : "payload";
    std::vector<uint8_t> bytes(kMaxDatagramHeaderSize + props.size());
    const size_t n = encode_datagram_header(d, bytes.data());
    ASSERT_GT(n, 0u) << t;
    EXPECT_EQ(bytes[0], t);
    bytes.resize(n);
    bytes.insert(bytes.end(), payload.begin(), payload.end());
    const Decoded<ObjectDatagram> decoded = decode_datagram(bytes);
    ASSERT_TRUE(decoded.ok()) << t;
    const ObjectDatagram& back = decoded.value;
    EXPECT_EQ(back.track_alias, 12u);
    EXPECT_EQ(back.object_id, d.object_id);
    EXPECT_EQ(back.publisher_priority, d.publisher_priority);
    EXPECT_EQ(back.end_of_group, d.end_of_group);
    EXPECT_EQ(back.has_status, d.has_status);
    EXPECT_EQ(back.properties.size(), d.properties.size());
    EXPECT_EQ(std::string(back.payload.begin(), back.payload.end()), payload);
    // A datagram never grows: every truncation of the header is Malformed, not NeedMore.
    for (size_t k = 0; k < n; ++k)
      EXPECT_EQ(decode_datagram(std::span<const uint8_t>(bytes).first(k)).status,
                DecodeStatus::Malformed);
  }
  EXPECT_EQ(valid, 24);
}

TEST(IetfData, DatagramRules) {
  ObjectDatagram d;
  d.has_status = true;
  d.end_of_group = true;
  uint8_t buf[kMaxDatagramHeaderSize + 16];
  EXPECT_EQ(encode_datagram_header(d, buf), 0u);  // STATUS with END_OF_GROUP
  Decoded<ObjectDatagram> r = decode_datagram(hex("01 00 00 00 00 00"));  // PROPERTIES, Length 0
  ASSERT_EQ(r.status, DecodeStatus::Malformed);
  EXPECT_NE(r.error.message.find("Length 0"), std::string::npos);
  r = decode_datagram(hex("25 00 00 00 02 0e 01 03"));  // properties on End of Group
  ASSERT_EQ(r.status, DecodeStatus::Malformed);
  EXPECT_NE(r.error.message.find("not Normal"), std::string::npos);
  r = decode_datagram(hex("2c 00 07 04 00"));  // bytes after the status
  EXPECT_EQ(r.status, DecodeStatus::Malformed);
  r = decode_datagram(hex("2c 00 07 09"));  // unknown status
  EXPECT_EQ(r.status, DecodeStatus::Malformed);
  r = decode_datagram(hex("f0 13 2b 3e 29 00 00"));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value.padding);
}

TEST(IetfData, PropertyReaderWalksWithoutCopying) {
  const auto props = sample_properties();
  PropertyReader r(props);
  PropertyView v;
  ASSERT_TRUE(r.next(v));
  EXPECT_EQ(v.type, 4u);
  EXPECT_EQ(v.value, 256u);
  ASSERT_TRUE(r.next(v));
  EXPECT_EQ(v.type, 0x11u);
  EXPECT_EQ(v.bytes.data(), props.data() + 5);
  EXPECT_EQ(v.bytes.size(), 3u);
  EXPECT_FALSE(r.next(v));
  EXPECT_FALSE(r.failed());
  const auto bad = hex("03 05 61");
  PropertyReader b(bad);
  EXPECT_FALSE(b.next(v));
  EXPECT_TRUE(b.failed());
}

TEST(IetfData, HotPathDoesNotAllocate) {
  const auto props = sample_properties();
  uint8_t buf[256];
  SubgroupHeader h;
  h.track_alias = 1;
  h.group_id = 1000;
  h.has_properties = true;
  FetchObject fo = object(5, 0, 3, 9, 1200);
  fo.properties = props;
  ObjectDatagram dg;
  dg.group_id = 4;
  dg.object_id = 2;
  dg.properties = props;
  // The counter sees allocations (so the zero below means something).
  const uint64_t probe_before = g_allocations.load();
  auto probe = std::make_unique<int>(1);
  EXPECT_GT(g_allocations.load(), probe_before);
  const uint64_t before = g_allocations.load();
  uint64_t sink = 0;
  for (int round = 0; round < 100; ++round) {
    size_t n = encode_subgroup_header(h, buf);
    const Decoded<SubgroupHeader> hb = decode_subgroup_header({buf, n});
    sink += hb.consumed;
    SubgroupStreamState es, ds;
    for (uint64_t id = 0; id < 8; ++id) {
      n = encode_subgroup_object(es, h, id, props, 1200, ObjectStatus::Normal, buf);
      const Decoded<SubgroupObject> o = decode_subgroup_object({buf, n}, hb.value, ds);
      sink += o.consumed + o.value.payload_length;
    }
    FetchStreamState fes, fds;
    for (uint64_t id = 0; id < 8; ++id) {
      fo.object_id = id;
      n = encode_fetch_object(fes, fo, k22, buf);
      sink += decode_fetch_object({buf, n}, fds, k22).consumed;
    }
    n = encode_datagram_header(dg, buf);
    sink += decode_datagram({buf, n}).consumed;
    n = encode_fetch_header(round, buf);
    sink += decode_fetch_header({buf, n}).consumed;
  }
  EXPECT_EQ(g_allocations.load() - before, 0u);
  EXPECT_GT(sink, 0u);
}

}  // namespace
}  // namespace moq::wire::ietf::test
