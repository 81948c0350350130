// Test vectors computed by hand from the message layouts of draft-ietf-moq-transport-18 and -22
// (not taken from the drafts), byte for byte: each one is encoded from a struct and compared with
// the listed bytes, and decoded back to the same struct.
#include <gtest/gtest.h>

#include "tests/wire_ietf/test_util.h"

namespace moq::wire::ietf::test {
namespace {

constexpr IetfVersion k18 = IetfVersion::Draft18;
constexpr IetfVersion k22 = IetfVersion::Draft22;

TrackNamespace bench() {
  return TrackNamespace{{"bench"}};
}

// Encodes m under v, compares with the vector, decodes the vector and compares with m.
void expect_vector(const ControlMessage& m, IetfVersion v, std::string_view bytes) {
  const std::vector<uint8_t> want = hex(bytes);
  EXPECT_EQ(to_hex(encode(m, v)), to_hex(want)) << control_name(m, v);
  Decoded<ControlMessage> d = decode_control(want, v);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
  EXPECT_EQ(d.consumed, want.size());
  EXPECT_TRUE(d.value == m) << control_name(m, v) << " decoded differently";
}

TEST(IetfVectors, V01ClientSetup) {
  ietf::Setup s;
  s.path = "/moq";
  s.authority = "localhost";
  s.implementation = "bench";
  for (IetfVersion v : kVersions)
    expect_vector(
        s, v,
        "af 00 00 18 01 04 2f 6d 6f 71 04 09 6c 6f 63 61 6c 68 6f 73 74 02 05 62 65 6e 63 "
        "68");
}

TEST(IetfVectors, V02ServerSetup) {
  for (IetfVersion v : kVersions)
    expect_vector(ietf::Setup{}, v, "af 00 00 00");
}

TEST(IetfVectors, V03SubscribeDraft18) {
  Subscribe s{0, bench(), "t0", {}};
  s.params.subscriber_priority = 128;
  s.params.subscription_filter = SubscriptionFilter{SubscriptionFilterType::NextGroupStart, {}, 0};
  expect_vector(s, k18, "03 00 11 00 01 05 62 65 6e 63 68 02 74 30 02 20 80 01 01 01");
}

TEST(IetfVectors, V04SubscribeDraft22) {
  Subscribe s{0, bench(), "t0", {}};
  s.params.subscriber_priority = 128;
  s.params.location_filter = LocationFilter{LocationFilterType::RelativeStart, 0, 0, 0, 0};
  expect_vector(s, k22, "03 00 11 00 01 05 62 65 6e 63 68 02 74 30 02 20 80 01 01 00");
}

TEST(IetfVectors, V05SubscribeFilterOnly) {
  Subscribe s18{0, bench(), "t0", {}};
  s18.params.subscription_filter = SubscriptionFilter{SubscriptionFilterType::LargestObject, {}, 0};
  expect_vector(s18, k18, "03 00 0f 00 01 05 62 65 6e 63 68 02 74 30 01 21 01 02");
  Subscribe s22{0, bench(), "t0", {}};
  s22.params.location_filter = LocationFilter{LocationFilterType::NextObject, 0, 0, 0, 0};
  expect_vector(s22, k22, "03 00 0e 00 01 05 62 65 6e 63 68 02 74 30 01 21 05");
}

TEST(IetfVectors, V06SubscribeOk) {
  SubscribeOk ok;
  ok.params.largest_object = Location{4, 9};
  for (IetfVersion v : kVersions)
    expect_vector(ok, v, "04 00 05 00 01 09 04 09");
}

// Encodes a subgroup stream (header + objects) with the hot-path encoders.
std::vector<uint8_t> subgroup_stream(const SubgroupHeader& h,
                                     std::initializer_list<std::string_view> payloads,
                                     bool end_of_group_status) {
  std::vector<uint8_t> out(kMaxSubgroupHeaderSize);
  out.resize(encode_subgroup_header(h, out.data()));
  SubgroupStreamState st;
  uint64_t id = 0;
  for (std::string_view p : payloads) {
    uint8_t buf[kMaxSubgroupObjectHeaderSize];
    const size_t n = encode_subgroup_object(st, h, id++, {}, p.size(), ObjectStatus::Normal, buf);
    EXPECT_GT(n, 0u);
    out.insert(out.end(), buf, buf + n);
    out.insert(out.end(), p.begin(), p.end());
  }
  if (end_of_group_status) {
    uint8_t buf[kMaxSubgroupObjectHeaderSize];
    const size_t n = encode_subgroup_object(st, h, id, {}, 0, ObjectStatus::EndOfGroup, buf);
    EXPECT_GT(n, 0u);
    out.insert(out.end(), buf, buf + n);
  }
  return out;
}

// Decodes a subgroup stream, returning the header and (object id, payload or status) pairs.
struct DecodedSubgroup {
  SubgroupHeader header;
  std::vector<std::pair<uint64_t, std::string>> objects;
  std::vector<ObjectStatus> statuses;
};
DecodedSubgroup decode_subgroup_stream(std::span<const uint8_t> in) {
  DecodedSubgroup out;
  const Decoded<UniStreamKind> kind = classify_uni_stream(in);
  EXPECT_TRUE(kind.ok());
  EXPECT_EQ(kind.value, UniStreamKind::Subgroup);
  const Decoded<SubgroupHeader> header = decode_subgroup_header(in);
  EXPECT_TRUE(header.ok());
  out.header = header.value;
  size_t pos = header.consumed;
  SubgroupStreamState st;
  while (pos < in.size()) {
    const Decoded<SubgroupObject> d = decode_subgroup_object(in.subspan(pos), out.header, st);
    EXPECT_TRUE(d.ok()) << d.error.message;
    if (!d.ok()) break;
    const SubgroupObject& o = d.value;
    pos += d.consumed;
    out.objects.emplace_back(
        o.object_id, std::string(reinterpret_cast<const char*>(in.data() + pos), o.payload_length));
    out.statuses.push_back(o.status);
    pos += o.payload_length;
  }
  return out;
}

TEST(IetfVectors, V07SubgroupStream0x78) {
  SubgroupHeader h;
  h.track_alias = 0;
  h.group_id = 5;
  h.end_of_group = true;
  h.default_priority = true;
  h.first_object = true;
  EXPECT_EQ(subgroup_type(h), 0x78);
  const auto want = hex("78 00 05 00 04 61 62 63 64 00 04 65 66 67 68");
  EXPECT_EQ(to_hex(subgroup_stream(h, {"abcd", "efgh"}, false)), to_hex(want));
  DecodedSubgroup d = decode_subgroup_stream(want);
  EXPECT_EQ(d.header, h);
  ASSERT_EQ(d.objects.size(), 2u);
  EXPECT_EQ(d.objects[0], std::make_pair(uint64_t{0}, std::string("abcd")));
  EXPECT_EQ(d.objects[1], std::make_pair(uint64_t{1}, std::string("efgh")));
}

TEST(IetfVectors, V08SubgroupStream0x14) {
  SubgroupHeader h;
  h.track_alias = 2;
  h.subgroup_mode = SubgroupIdMode::Explicit;
  EXPECT_EQ(subgroup_type(h), 0x14);
  const auto want = hex("14 02 00 00 00 00 04 61 62 63 64 00 04 65 66 67 68");
  EXPECT_EQ(to_hex(subgroup_stream(h, {"abcd", "efgh"}, false)), to_hex(want));
  DecodedSubgroup d = decode_subgroup_stream(want);
  EXPECT_EQ(d.header, h);
  ASSERT_EQ(d.objects.size(), 2u);
  EXPECT_EQ(d.objects[1].second, "efgh");
}

TEST(IetfVectors, V09SubgroupStreamWithEndOfGroup) {
  SubgroupHeader h;
  h.track_alias = 1;
  h.group_id = 300;
  h.publisher_priority = 0x80;
  h.first_object = true;
  EXPECT_EQ(subgroup_type(h), 0x50);
  const auto want = hex("50 01 81 2c 80 00 01 41 00 01 42 00 00 03");
  EXPECT_EQ(to_hex(subgroup_stream(h, {"A", "B"}, true)), to_hex(want));
  DecodedSubgroup d = decode_subgroup_stream(want);
  EXPECT_EQ(d.header, h);
  ASSERT_EQ(d.objects.size(), 3u);
  EXPECT_EQ(d.objects[2].first, 2u);
  EXPECT_EQ(d.statuses[2], ObjectStatus::EndOfGroup);
}

TEST(IetfVectors, V10FetchStandaloneDraft18) {
  Fetch f;
  f.request_id = 2;
  f.track_namespace = bench();
  f.track_name = "t0";
  f.start = {5, 0};
  f.end = {5, 0};
  expect_vector(f, k18, "16 00 11 02 01 01 05 62 65 6e 63 68 02 74 30 05 00 05 00 00");
}

TEST(IetfVectors, V11FetchDraft22) {
  Fetch f;
  f.request_id = 2;
  f.track_namespace = bench();
  f.track_name = "t0";
  f.params.location_filter = LocationFilter{LocationFilterType::AbsoluteRange, 5, 0, 0, 0};
  expect_vector(f, k22, "16 00 11 02 01 05 62 65 6e 63 68 02 74 30 01 21 03 05 00 00");
}

TEST(IetfVectors, V12FetchOk) {
  // Two objects (5,0) and (5,1): -18 writes last + 1, -22 the inclusive last.
  FetchOk ok18;
  ok18.end = fetch_end_to_wire({5, 1}, k18);
  expect_vector(ok18, k18, "18 00 04 00 05 02 00");
  FetchOk ok22;
  ok22.end = fetch_end_to_wire({5, 1}, k22);
  expect_vector(ok22, k22, "18 00 04 00 05 01 00");
  EXPECT_EQ(fetch_end_from_wire({5, 2}, k18), (FetchEnd{5, 1}));
  EXPECT_EQ(fetch_end_from_wire({5, 1}, k22), (FetchEnd{5, 1}));
  EXPECT_EQ(fetch_end_from_wire({5, 0}, k18), (FetchEnd{5, std::nullopt}));
}

TEST(IetfVectors, V13FetchStream) {
  const auto want = hex("05 02 1c 05 00 80 04 61 62 63 64 00 04 65 66 67 68");
  for (IetfVersion v : kVersions) {
    std::vector<uint8_t> out(kMaxFetchHeaderSize);
    out.resize(encode_fetch_header(2, out.data()));
    FetchStreamState st;
    const char* payloads[] = {"abcd", "efgh"};
    for (uint64_t i = 0; i < 2; ++i) {
      FetchObject o;
      o.group_id = 5;
      o.object_id = i;
      o.publisher_priority = 0x80;
      o.payload_length = 4;
      uint8_t buf[kMaxFetchObjectHeaderSize];
      const size_t n = encode_fetch_object(st, o, v, buf);
      ASSERT_GT(n, 0u);
      out.insert(out.end(), buf, buf + n);
      out.insert(out.end(), payloads[i], payloads[i] + 4);
    }
    EXPECT_EQ(to_hex(out), to_hex(want));

    const Decoded<UniStreamKind> kind = classify_uni_stream(want);
    ASSERT_TRUE(kind.ok());
    EXPECT_EQ(kind.value, UniStreamKind::Fetch);
    const Decoded<uint64_t> header = decode_fetch_header(want);
    ASSERT_TRUE(header.ok());
    EXPECT_EQ(header.value, 2u);
    size_t pos = header.consumed;
    FetchStreamState rst;
    for (uint64_t i = 0; i < 2; ++i) {
      const Decoded<FetchObject> d =
          decode_fetch_object(std::span<const uint8_t>(want).subspan(pos), rst, v);
      ASSERT_TRUE(d.ok()) << d.error.message;
      const FetchObject& o = d.value;
      EXPECT_EQ(o.group_id, 5u);
      EXPECT_EQ(o.object_id, i);
      EXPECT_EQ(o.subgroup_id, 0u);
      EXPECT_EQ(o.publisher_priority, 0x80);
      EXPECT_EQ(o.payload_length, 4u);
      pos += d.consumed + o.payload_length;
    }
    EXPECT_EQ(pos, want.size());
  }
}

TEST(IetfVectors, V14PublishNamespace) {
  PublishNamespace pn{4, TrackNamespace{{"bench", "room1"}}, {}};
  for (IetfVersion v : kVersions)
    expect_vector(pn, v, "06 00 0f 04 02 05 62 65 6e 63 68 05 72 6f 6f 6d 31 00");
}

TEST(IetfVectors, V15EmptyRequestOk) {
  for (IetfVersion v : kVersions)
    expect_vector(RequestOk{}, v, "07 00 01 00");
}

TEST(IetfVectors, V16SubscribeNamespaceAndNamespace) {
  for (IetfVersion v : kVersions) {
    expect_vector(SubscribeNamespace{6, bench(), {}}, v, "50 00 09 06 01 05 62 65 6e 63 68 00");
    expect_vector(Namespace{TrackNamespace{{"room1"}}}, v, "08 00 07 01 05 72 6f 6f 6d 31");
  }
}

TEST(IetfVectors, V17PublishDone) {
  for (IetfVersion v : kVersions)
    expect_vector(PublishDone{uint64_t(PublishDoneStatus::SubscriptionEnded), 3, ""}, v,
                  "0b 00 03 03 03 00");
}

TEST(IetfVectors, V18RequestError) {
  for (IetfVersion v : kVersions)
    expect_vector(RequestError{uint64_t(RequestErrorCode::DoesNotExist), 0, "no", std::nullopt}, v,
                  "05 00 05 10 00 02 6e 6f");
}

TEST(IetfVectors, V19GoAway) {
  expect_vector(GoAway{"", 5000, 4}, k18, "10 00 04 00 93 88 04");
  expect_vector(GoAway{"", 5000, std::nullopt}, k22, "10 00 03 00 93 88");
}

TEST(IetfVectors, V20Datagram) {
  const auto want = hex("08 00 05 03 78 79 7a");
  ObjectDatagram d;
  d.group_id = 5;
  d.object_id = 3;
  d.default_priority = true;
  uint8_t buf[kMaxDatagramHeaderSize];
  const size_t n = encode_datagram_header(d, buf);
  std::vector<uint8_t> out(buf, buf + n);
  out.insert(out.end(), {'x', 'y', 'z'});
  EXPECT_EQ(to_hex(out), to_hex(want));
  const Decoded<ObjectDatagram> decoded = decode_datagram(want);
  ASSERT_TRUE(decoded.ok());
  const ObjectDatagram& back = decoded.value;
  EXPECT_EQ(back.group_id, 5u);
  EXPECT_EQ(back.object_id, 3u);
  EXPECT_TRUE(back.default_priority);
  EXPECT_FALSE(back.has_status);
  EXPECT_EQ(std::string(back.payload.begin(), back.payload.end()), "xyz");
}

TEST(IetfVectors, V21StatusDatagram) {
  const auto want = hex("2c 00 07 04");
  ObjectDatagram d;
  d.group_id = 7;
  d.default_priority = true;
  d.has_status = true;
  d.status = ObjectStatus::EndOfTrack;
  uint8_t buf[kMaxDatagramHeaderSize];
  const size_t n = encode_datagram_header(d, buf);
  EXPECT_EQ(to_hex({buf, n}), to_hex(want));
  const Decoded<ObjectDatagram> decoded = decode_datagram(want);
  ASSERT_TRUE(decoded.ok());
  const ObjectDatagram& back = decoded.value;
  EXPECT_EQ(back.group_id, 7u);
  EXPECT_EQ(back.object_id, 0u);
  EXPECT_TRUE(back.has_status);
  EXPECT_EQ(back.status, ObjectStatus::EndOfTrack);
  EXPECT_TRUE(back.payload.empty());
}

}  // namespace
}  // namespace moq::wire::ietf::test
