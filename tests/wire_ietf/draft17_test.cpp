// moq-transport-17, the interop-only draft (model/wire/ietf/version.h, "17.N"): the exact bytes
// @moq/lite 0.2.2 writes and reads (its ietf/*.js under Version.DRAFT_17, and the loopback capture
// of worked example B in the project's JS-peer notes), decoded into our messages and encoded from
// them, and every -17 difference from -18 on both sides.
#include <gtest/gtest.h>

#include <initializer_list>

#include "tests/wire_ietf/test_util.h"

namespace moq::wire::ietf::test {
namespace {

constexpr IetfVersion k17 = IetfVersion::Draft17;
constexpr IetfVersion k18 = IetfVersion::Draft18;

// Hex pieces and text pieces joined, the way the captures list them ("0a 00 09" | "demo").
struct Piece {
  std::string_view text;
  bool ascii = false;
};
Piece txt(std::string_view s) {
  return {s, true};
}
std::vector<uint8_t> bytes(std::initializer_list<Piece> pieces) {
  std::vector<uint8_t> out;
  for (const Piece& p : pieces) {
    if (p.ascii) {
      out.insert(out.end(), p.text.begin(), p.text.end());
    } else {
      const std::vector<uint8_t> h = hex(p.text);
      out.insert(out.end(), h.begin(), h.end());
    }
  }
  return out;
}

// The peer's bytes decode to m, and m encodes to exactly those bytes.
void expect_both_ways(const ControlMessage& m, const std::vector<uint8_t>& wire) {
  Decoded<ControlMessage> d = decode_control(wire, k17);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
  EXPECT_EQ(d.consumed, wire.size());
  EXPECT_TRUE(d.value == m) << control_name(m, k17) << " decoded differently";
  EXPECT_EQ(to_hex(encode(m, k17)), to_hex(wire)) << control_name(m, k17);
}

TrackNamespace demo() {
  return TrackNamespace{{"demo"}};
}

// ---- Worked example B: qmux-00.moqt-17, a JS client publishing demo/video ----

TEST(Draft17, SetupBothDirections) {
  // S->C on uni 3: SETUP 0x2F00, Length 13, option 7 (MOQT_IMPLEMENTATION) "cpp-standin".
  ietf::Setup ours;
  ours.implementation = "cpp-standin";
  expect_both_ways(ours, bytes({{"af 00 00 0d 07 0b"}, txt("cpp-standin")}));
  // C->S on uni 2: the JS's own.
  ietf::Setup js;
  js.implementation = "moq-lite-js";
  expect_both_ways(js, bytes({{"af 00 00 0d 07 0b"}, txt("moq-lite-js")}));
  // The control stream's type is the SETUP type itself.
  EXPECT_EQ(classify_uni_stream(hex("af 00 00 0d"), k17).value, UniStreamKind::Control);
}

TEST(Draft17, PublishNamespaceAndItsRequestOk) {
  // C->S bidi 0: PUBLISH_NAMESPACE request 0, Required Request ID Delta 0, ["demo"], 0 params.
  expect_both_ways(PublishNamespace{0, demo(), {}},
                   bytes({{"06 00 09 00 00 01 04"}, txt("demo"), {"00"}}));
  // S->C: REQUEST_OK with no parameters (the JS's own answer is the same four bytes).
  expect_both_ways(RequestOk{}, hex("07 00 01 00"));
}

TEST(Draft17, SubscribeAsTheJsWritesAndReadsIt) {
  // SUBSCRIBE request 1, delta 0, demo/video, params {FORWARD=1, SUBSCRIBER_PRIORITY=1,
  // SUBSCRIPTION_FILTER=len 1 [LargestObject], GROUP_ORDER=2}: what the JS sends, and what it
  // accepts (FORWARD 1, filter 1 or 2, group order up to 2).
  Subscribe s;
  s.request_id = 1;
  s.track_namespace = demo();
  s.track_name = "video";
  s.params.forward = true;
  s.params.subscriber_priority = 1;
  s.params.subscription_filter = SubscriptionFilter{SubscriptionFilterType::LargestObject, {}, 0};
  s.params.group_order = GroupOrder::Descending;
  expect_both_ways(s, bytes({{"03 00 18 01 00 01 04"},
                             txt("demo"),
                             {"05"},
                             txt("video"),
                             {"04 10 01 10 01 01 01 02 01 02"}}));
}

TEST(Draft17, SubscribeOkAsTheJsSendsIt) {
  // Alias = the subscriber's request ID, and GROUP_ORDER (0x22) = 2, which -18's SUBSCRIBE_OK
  // does not allow: -17's scope table takes it.
  SubscribeOk ok;
  ok.track_alias = 1;
  ok.params.group_order = GroupOrder::Descending;
  expect_both_ways(ok, hex("04 00 04 01 01 22 02"));
  EXPECT_EQ(decode_control(hex("04 00 04 01 01 22 02"), k18).status, DecodeStatus::Malformed);
}

TEST(Draft17, TheJsSubgroupStream) {
  // uni 6: 0x18 (END_OF_GROUP, priority byte), alias 1, group 0, priority 0; two objects of 4
  // bytes with Object ID Delta 0; then FIN.
  const std::vector<uint8_t> wire =
      bytes({{"18 01 00 00 00 04"}, txt("g0f0"), {"00 04"}, txt("g0f1")});
  ASSERT_EQ(classify_uni_stream(wire, k17).value, UniStreamKind::Subgroup);
  Decoded<SubgroupHeader> h = decode_subgroup_header(wire, k17);
  ASSERT_TRUE(h.ok()) << h.error.message;
  EXPECT_EQ(h.consumed, 4u);
  EXPECT_EQ(h.value.track_alias, 1u);
  EXPECT_EQ(h.value.group_id, 0u);
  EXPECT_EQ(h.value.subgroup_mode, SubgroupIdMode::Zero);
  EXPECT_TRUE(h.value.end_of_group);
  EXPECT_FALSE(h.value.default_priority);
  SubgroupStreamState st;
  size_t at = h.consumed;
  for (uint64_t id : {0u, 1u}) {
    Decoded<SubgroupObject> o =
        decode_subgroup_object(std::span<const uint8_t>(wire).subspan(at), h.value, st);
    ASSERT_TRUE(o.ok()) << o.error.message;
    EXPECT_EQ(o.value.object_id, id);
    EXPECT_EQ(o.value.payload_length, 4u);
    at += o.consumed + o.value.payload_length;
  }
  EXPECT_EQ(at, wire.size());

  // Our encoder writes the same header and objects for the same values.
  uint8_t out[kMaxSubgroupHeaderSize];
  const size_t n = encode_subgroup_header(h.value, out);
  EXPECT_EQ(to_hex({out, n}), "18 01 00 00");
  SubgroupStreamState w;
  uint8_t obj[kMaxSubgroupObjectHeaderSize];
  const size_t m = encode_subgroup_object(w, h.value, 0, {}, 4, ObjectStatus::Normal, obj);
  EXPECT_EQ(to_hex({obj, m}), "00 04");
}

TEST(Draft17, OurSessionsSubgroupHeaderLosesTheFirstObjectBit) {
  // The session's header (default priority, END_OF_GROUP, from the first object): 0x78 under
  // -18, 0x38 under -17, which the JS accepts (0x30-0x3F).
  SubgroupHeader h;
  h.track_alias = 1;
  h.default_priority = true;
  h.end_of_group = true;
  h.first_object = true;
  uint8_t out[kMaxSubgroupHeaderSize];
  EXPECT_EQ(to_hex({out, encode_subgroup_header(subgroup_header_for(h, k18), out)}), "78 01 00");
  EXPECT_EQ(to_hex({out, encode_subgroup_header(subgroup_header_for(h, k17), out)}), "38 01 00");
  // A zero-length object under END_OF_GROUP carries status 0, the only one the JS takes there.
  SubgroupStreamState st;
  uint8_t obj[kMaxSubgroupObjectHeaderSize];
  const size_t m =
      encode_subgroup_object(st, subgroup_header_for(h, k17), 0, {}, 0, ObjectStatus::Normal, obj);
  EXPECT_EQ(to_hex({obj, m}), "00 00 00");
}

// ---- Messages read from the JS source (ietf/*.js, Version.DRAFT_17) ----

TEST(Draft17, SubscribeNamespaceIsType0x11WithSubscribeOptions) {
  // subscribe_namespace.js: request ID, delta 0, prefix, Subscribe Options (1 = NAMESPACE), params.
  expect_both_ways(SubscribeNamespace{2, demo(), {}, SubscribeOptions::Namespace},
                   bytes({{"11 00 0a 02 00 01 04"}, txt("demo"), {"01 00"}}));
  // -17 has no 0x50 and no SUBSCRIBE_TRACKS; -18 has no 0x11.
  EXPECT_EQ(decode_control(bytes({{"50 00 08 02 01 04"}, txt("demo"), {"00"}}), k17).status,
            DecodeStatus::Malformed);
  EXPECT_EQ(decode_control(hex("51 00 03 02 00 00"), k17).status, DecodeStatus::Malformed);
  EXPECT_EQ(decode_control(bytes({{"11 00 0a 02 00 01 04"}, txt("demo"), {"01 00"}}), k18).status,
            DecodeStatus::Malformed);
  // Options 0 and 2 are read; 3 is not an option.
  Decoded<ControlMessage> both = decode_control(hex("11 00 05 04 00 00 02 00"), k17);
  ASSERT_TRUE(both.ok()) << both.error.message;
  EXPECT_EQ(std::get<SubscribeNamespace>(both.value).subscribe_options, SubscribeOptions::Both);
  Decoded<ControlMessage> bad = decode_control(hex("11 00 05 04 00 00 03 00"), k17);
  ASSERT_EQ(bad.status, DecodeStatus::Malformed);
  EXPECT_NE(bad.error.message.find("subscribe options"), std::string::npos) << bad.error.message;
  // Options other than NAMESPACE cannot be sent under -18.
  std::vector<uint8_t> out;
  Writer w(out, kVarint);
  EXPECT_FALSE(encode_message(w, SubscribeNamespace{2, demo(), {}, SubscribeOptions::Both}, k18));
}

TEST(Draft17, NamespaceAndNamespaceDoneAnswerIt) {
  expect_both_ways(Namespace{TrackNamespace{{"room"}}}, bytes({{"08 00 06 01 04"}, txt("room")}));
  expect_both_ways(NamespaceDone{TrackNamespace{{"room"}}},
                   bytes({{"0e 00 06 01 04"}, txt("room")}));
}

TEST(Draft17, RequestErrorHasNoRedirect) {
  // request.js: code, retry interval, reason. The JS sends HTTP-like codes: 404 is 81 94.
  expect_both_ways(RequestError{404, 0, "not found", std::nullopt},
                   bytes({{"05 00 0d 81 94 00 09"}, txt("not found")}));
  // Code 0x34 (REDIRECT from -18 on) is followed by nothing in -17.
  expect_both_ways(RequestError{0x34, 0, "", std::nullopt}, hex("05 00 03 34 00 00"));
  std::vector<uint8_t> out;
  Writer w(out, kVarint);
  RequestError redirect{0x34, 0, "", Redirect{}};
  EXPECT_FALSE(encode_message(w, redirect, k17));
  EXPECT_TRUE(encode_message(w, redirect, k18));
}

TEST(Draft17, GoAwayHasNoRequestId) {
  // goaway.js: New Session URI, Timeout.
  expect_both_ways(GoAway{"", 5, std::nullopt}, hex("10 00 02 00 05"));
  std::vector<uint8_t> out;
  Writer w(out, kVarint);
  EXPECT_FALSE(encode_message(w, GoAway{"", 0, 4}, k17));
  EXPECT_EQ(decode_control(hex("10 00 03 00 05 04"), k17).status, DecodeStatus::Malformed);
}

TEST(Draft17, EveryRequestCarriesARequiredRequestIdDelta) {
  // Written 0; any value is read and ignored (TRACK_STATUS, REQUEST_UPDATE, PUBLISH, FETCH).
  expect_both_ways(TrackStatus{2, demo(), "video", {}},
                   bytes({{"0d 00 0f 02 00 01 04"}, txt("demo"), {"05"}, txt("video"), {"00"}}));
  Decoded<ControlMessage> ts = decode_control(
      bytes({{"0d 00 0f 02 07 01 04"}, txt("demo"), {"05"}, txt("video"), {"00"}}), k17);
  ASSERT_TRUE(ts.ok()) << ts.error.message;
  EXPECT_EQ(std::get<TrackStatus>(ts.value).request_id, 2u);
  expect_both_ways(RequestUpdate{4, {}}, hex("02 00 03 04 00 00"));
  Publish p;
  p.request_id = 1;
  p.track_namespace = demo();
  p.track_name = "v";
  p.track_alias = 9;
  expect_both_ways(p, bytes({{"1d 00 0c 01 00 01 04"}, txt("demo"), {"01"}, txt("v"), {"09 00"}}));
  Fetch f;
  f.request_id = 6;
  f.track_namespace = demo();
  f.track_name = "v";
  f.start = {1, 0};
  f.end = {2, 0};
  expect_both_ways(
      f, bytes({{"16 00 10 06 00 01 01 04"}, txt("demo"), {"01"}, txt("v"), {"01 00 02 00 00"}}));
  // -18 has no delta: the JS's PUBLISH_NAMESPACE misparses there.
  EXPECT_EQ(decode_control(bytes({{"06 00 09 00 00 01 04"}, txt("demo"), {"00"}}), k18).status,
            DecodeStatus::Malformed);
}

TEST(Draft17, PublishOkIsType0x1E) {
  Decoded<ControlMessage> d = decode_control(hex("1e 00 01 00"), k17);
  ASSERT_TRUE(d.ok()) << d.error.message;
  EXPECT_TRUE(std::holds_alternative<RequestOk>(d.value));
  EXPECT_STREQ(message_type_name(0x1E, k17), "PUBLISH_OK");
}

TEST(Draft17, PublishDoneStatusFiveAndSixAreSwapped) {
  // TOO_FAR_BEHIND (-18: 5) is 6 on the -17 wire, EXPIRED (-18: 6) is 5; the others stay.
  expect_both_ways(PublishDone{uint64_t(PublishDoneStatus::TooFarBehind), 0, ""},
                   hex("0b 00 03 06 00 00"));
  expect_both_ways(PublishDone{uint64_t(PublishDoneStatus::Expired), 0, ""},
                   hex("0b 00 03 05 00 00"));
  expect_both_ways(PublishDone{uint64_t(PublishDoneStatus::TrackEnded), 0, ""},
                   hex("0b 00 03 02 00 00"));
  Decoded<ControlMessage> d18 = decode_control(hex("0b 00 03 05 00 00"), k18);
  ASSERT_TRUE(d18.ok());
  EXPECT_EQ(std::get<PublishDone>(d18.value).status_code,
            uint64_t(PublishDoneStatus::TooFarBehind));
}

TEST(Draft17, ParametersTakeTheJsParityForm) {
  // A subscriber priority of 200 is a varint (80 c8), as parameters.js writes every even type;
  // -18 writes one byte (c8).
  Subscribe s{3, demo(), "v", {}};
  s.params.subscriber_priority = 200;
  expect_both_ways(
      s, bytes({{"03 00 0e 03 00 01 04"}, txt("demo"), {"01"}, txt("v"), {"01 20 80 c8"}}));
  EXPECT_NE(to_hex(encode(s, k18)).find("01 20 c8"), std::string::npos);
  // LARGEST_OBJECT is odd: a length, then the Location.
  SubscribeOk ok;
  ok.track_alias = 2;
  ok.params.largest_object = Location{4, 9};
  expect_both_ways(ok, hex("04 00 06 02 01 09 02 04 09"));
  EXPECT_EQ(to_hex(encode(ok, k18)), "04 00 05 02 01 09 04 09");
  // A one-byte parameter's varint may not exceed 8 bits; a length must hold the Location exactly.
  EXPECT_EQ(
      decode_control(
          bytes({{"03 00 0e 03 00 01 04"}, txt("demo"), {"01"}, txt("v"), {"01 20 81 00"}}), k17)
          .status,
      DecodeStatus::Malformed);
  EXPECT_EQ(decode_control(hex("04 00 07 02 01 09 03 04 09 00"), k17).status,
            DecodeStatus::Malformed);
}

TEST(Draft17, ParametersDraft17LacksAreRefused) {
  // SUBGROUP_DELIVERY_TIMEOUT (0x06) exists from -18 on; 0x02 is called DELIVERY_TIMEOUT.
  Subscribe s{3, demo(), "v", {}};
  s.params.subgroup_delivery_timeout = 10;
  std::vector<uint8_t> out;
  Writer w(out, kVarint);
  EXPECT_FALSE(encode_message(w, s, k17));
  EXPECT_TRUE(encode_message(w, s, k18));
  EXPECT_EQ(param_type_name(0x06, k17), nullptr);
  EXPECT_EQ(param_type_name(0x0A, k17), nullptr);
  EXPECT_EQ(param_type_name(0x34, k17), nullptr);
  EXPECT_STREQ(param_type_name(0x02, k17), "DELIVERY_TIMEOUT");
}

// ---- The data plane ----

TEST(Draft17, FirstObjectSubgroupTypesAreNotDraft17) {
  // 0x50-0x7D exist from -18 on; -17 has 0x10-0x1D and 0x30-0x3D.
  for (uint64_t t = 0x10; t < 0x80; ++t) {
    if (!is_subgroup_type(t)) continue;
    uint8_t in[8] = {uint8_t(t), 0x01, 0x00, 0x00, 0x00};
    const bool first_object = t & 0x40;
    EXPECT_EQ(classify_uni_stream({in, 5}, k17).ok(), !first_object) << t;
    EXPECT_TRUE(classify_uni_stream({in, 5}, k18).ok()) << t;
    EXPECT_EQ(decode_subgroup_header({in, 5}, k17).ok(), !first_object) << t;
  }
}

TEST(Draft17, TheSevenByteVarintFormIsInvalid) {
  // Group ID 5 written in the 7-byte form (fc + 6 bytes): valid in -18, refused in -17.
  const std::vector<uint8_t> wire = hex("18 01 fc 00 00 00 00 00 05 00");
  Decoded<SubgroupHeader> d18 = decode_subgroup_header(wire, k18);
  ASSERT_TRUE(d18.ok()) << d18.error.message;
  EXPECT_EQ(d18.value.group_id, 5u);
  Decoded<SubgroupHeader> d17 = decode_subgroup_header(wire, k17);
  ASSERT_EQ(d17.status, DecodeStatus::Malformed);
  EXPECT_NE(d17.error.message.find("7-byte"), std::string::npos) << d17.error.message;
  // The 8-byte form of the same value stays valid.
  EXPECT_TRUE(decode_subgroup_header(hex("18 01 fe 00 00 00 00 00 00 05 00"), k17).ok());
}

TEST(Draft17, FetchObjectsCarryAbsoluteGroupAndObjectIds) {
  // Objects (1,2), (1,5), (4,0), (4,1), priority 7, one byte each. The first carries both IDs in
  // every draft; after it, -17 writes the IDs themselves where -18 writes deltas (5 - 2 = 3, and
  // 4 - 1 - 1 = 2); the next object in order needs no ID in either.
  struct Want {
    IetfVersion v;
    const char* bytes;
  };
  for (const Want& want : {Want{k17, "1c 01 02 07 01 04 05 01 0c 04 00 01 00 01"},
                           Want{k18, "1c 01 02 07 01 04 03 01 0c 02 00 01 00 01"}}) {
    const Location ids[] = {{1, 2}, {1, 5}, {4, 0}, {4, 1}};
    FetchStreamState st;
    std::vector<uint8_t> wire;
    for (const Location& id : ids) {
      FetchObject o;
      o.group_id = id.group;
      o.object_id = id.object;
      o.publisher_priority = 7;
      o.payload_length = 1;
      uint8_t hdr[kMaxFetchObjectHeaderSize];
      const size_t n = encode_fetch_object(st, o, want.v, hdr);
      ASSERT_GT(n, 0u);
      wire.insert(wire.end(), hdr, hdr + n);
    }
    EXPECT_EQ(to_hex(wire), want.bytes) << version_name(want.v);
    FetchStreamState rd;
    size_t at = 0;
    for (const Location& id : ids) {
      Decoded<FetchObject> d =
          decode_fetch_object(std::span<const uint8_t>(wire).subspan(at), rd, want.v);
      ASSERT_TRUE(d.ok()) << d.error.message;
      EXPECT_EQ(d.value.group_id, id.group);
      EXPECT_EQ(d.value.object_id, id.object);
      at += d.consumed;
    }
    EXPECT_EQ(at, wire.size());
  }
  // An absolute ID that goes back is refused: object 1 after object 2 of group 1, group 1 again.
  for (const char* bad : {"1c 01 02 07 01 04 01 01", "1c 01 02 07 01 0c 01 05 01"}) {
    const std::vector<uint8_t> wire = hex(bad);
    FetchStreamState rd;
    Decoded<FetchObject> first = decode_fetch_object(wire, rd, k17);
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(
        decode_fetch_object(std::span<const uint8_t>(wire).subspan(first.consumed), rd, k17).status,
        DecodeStatus::Malformed)
        << bad;
  }
}

// ---- Every sample message of -17 round-trips, and its framing holds ----

TEST(Draft17, EverySampleMessageRoundTrips) {
  for (const ControlMessage& m : sample_messages(k17)) {
    const std::vector<uint8_t> wire = encode(m, k17);
    Decoded<ControlMessage> d = decode_control(wire, k17);
    ASSERT_EQ(d.status, DecodeStatus::Ok) << control_name(m, k17) << ": " << d.error.message;
    EXPECT_EQ(d.consumed, wire.size());
    EXPECT_TRUE(d.value == m) << control_name(m, k17);
    for (size_t n = 0; n < wire.size(); ++n)
      ASSERT_EQ(decode_control(std::span<const uint8_t>(wire).first(n), k17).status,
                DecodeStatus::NeedMore)
          << control_name(m, k17) << " prefix " << n;
  }
}

}  // namespace
}  // namespace moq::wire::ietf::test
