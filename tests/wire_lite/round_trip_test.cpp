// Codec round trips for every message in both versions, including edge values; and the values
// encode refuses (each with an error naming the message and the field).
#include <gtest/gtest.h>

#include "model/wire/lite/detail/utf8.h"
#include "tests/wire_lite/samples.h"
#include "tests/wire_lite/test_support.h"

namespace moq::wire::lite::test {
namespace {

constexpr auto k06 = LiteVersion::Lite06;
constexpr auto k07 = LiteVersion::Lite07Wip;

template <class M>
void expect_round_trip(const M& m, LiteVersion v) {
  const Buf bytes = encoded(m, v);
  const auto r = M::decode(bytes, v);
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.consumed, bytes.size());
  EXPECT_EQ(r.value, m);
  // Bytes after the message are left alone.
  const auto more = M::decode(cat(bytes, {0xFF, 0x00}), v);
  ASSERT_TRUE(more.ok());
  EXPECT_EQ(more.consumed, bytes.size());
}

template <class Variant, class Decode, class Encode>
void expect_typed_round_trip(const Variant& m, LiteVersion v, Decode decode, Encode encode) {
  Buf bytes;
  Writer w(bytes, varint_form(v));
  const Status s = encode(m, w, v);
  ASSERT_TRUE(s.ok()) << s.error().message;
  const auto r = decode(bytes, v);
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.consumed, bytes.size());
  EXPECT_EQ(r.value, m);
}

class RoundTrip : public ::testing::TestWithParam<LiteVersion> {};

TEST_P(RoundTrip, Setup) {
  for (const auto& m : setup_samples(GetParam()))
    expect_round_trip(m, GetParam());
}

TEST_P(RoundTrip, SubscribeAndUpdate) {
  for (const auto& m : subscribe_samples(GetParam()))
    expect_round_trip(m, GetParam());
  for (const auto& m : subscribe_update_samples(GetParam()))
    expect_round_trip(m, GetParam());
}

TEST_P(RoundTrip, SubscribeReplies) {
  for (const auto& m : subscribe_reply_samples(GetParam()))
    expect_typed_round_trip(m, GetParam(), decode_subscribe_reply, encode_subscribe_reply);
}

TEST_P(RoundTrip, TrackAndTrackInfo) {
  for (const auto& m : track_samples(GetParam()))
    expect_round_trip(m, GetParam());
  for (const auto& m : track_info_samples(GetParam()))
    expect_round_trip(m, GetParam());
}

TEST_P(RoundTrip, FetchProbeGoaway) {
  for (const auto& m : fetch_samples(GetParam()))
    expect_round_trip(m, GetParam());
  for (const auto& m : probe_samples(GetParam()))
    expect_round_trip(m, GetParam());
  for (const auto& m : goaway_samples(GetParam()))
    expect_round_trip(m, GetParam());
}

TEST_P(RoundTrip, Announce) {
  for (const auto& m : announce_request_samples(GetParam()))
    expect_round_trip(m, GetParam());
  for (const auto& m : announce_ok_samples(GetParam()))
    expect_round_trip(m, GetParam());
  for (const auto& m : announce_message_samples(GetParam()))
    expect_typed_round_trip(m, GetParam(), decode_announce_message, encode_announce_message);
}

TEST_P(RoundTrip, AuthWhereTheVersionHasIt) {
  const LiteVersion v = GetParam();
  if (!has_auth(v)) {
    for (const auto& m : auth_samples(v))
      EXPECT_NE(encode_error(m, v), "");
    for (const auto& m : auth_reply_samples(v))
      std::visit([&](const auto& msg) { EXPECT_NE(encode_error(msg, v), ""); }, m);
    return;
  }
  for (const auto& m : auth_samples(v))
    expect_round_trip(m, v);
  for (const auto& m : auth_reply_samples(v))
    expect_typed_round_trip(m, v, decode_auth_reply, encode_auth_reply);
}

TEST_P(RoundTrip, GroupHeaders) {
  const LiteVersion v = GetParam();
  for (const auto& h : group_samples(v)) {
    uint8_t buf[kMaxGroupStreamHeaderSize];
    const size_t n = encode_group_header(h, v, buf);
    ASSERT_GT(n, 0u);
    ASSERT_LE(n, kMaxGroupHeaderSize);
    const auto r = decode_group_header({buf, n}, v);
    ASSERT_TRUE(r.ok()) << r.error.message;
    EXPECT_EQ(r.consumed, n);
    EXPECT_EQ(r.value, h);
    const size_t s = encode_group_stream_header(h, v, buf);
    EXPECT_EQ(s, n + 1);
    EXPECT_EQ(buf[0], 0x0);
  }
}

TEST_P(RoundTrip, FrameHeadersLeaveThePayloadInPlace) {
  const LiteVersion v = GetParam();
  for (const auto& f : frame_samples(v)) {
    uint8_t buf[kMaxFrameHeaderSize + 4];
    const size_t n = encode_frame_header(f.timestamp_delta, f.payload_size, v, buf);
    ASSERT_GT(n, 0u);
    ASSERT_LE(n, kMaxFrameHeaderSize);
    buf[n] = 'p';  // the first payload byte: not part of the header
    const auto r = decode_frame_header({buf, n + 1}, v);
    ASSERT_TRUE(r.ok()) << r.error.message;
    EXPECT_EQ(r.consumed, n);
    EXPECT_EQ(r.value, f);
    EXPECT_EQ(buf[r.consumed], 'p');
  }
}

TEST_P(RoundTrip, Datagrams) {
  const LiteVersion v = GetParam();
  for (const auto& h : datagram_samples(v)) {
    Buf d(kMaxDatagramHeaderSize);
    const size_t n = encode_datagram_header(h, 3, v, d.data());
    ASSERT_GT(n, 0u);
    d.resize(n);
    d.insert(d.end(), {'x', 'y', 'z'});
    const auto r = decode_datagram(d, v);
    ASSERT_TRUE(r.ok()) << r.error.message;
    EXPECT_EQ(r.value, h);
    EXPECT_EQ(r.consumed, n);
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, RoundTrip, ::testing::ValuesIn(kVersions), [](const auto& info) {
  return info.param == LiteVersion::Lite06 ? std::string("Lite06") : std::string("Lite07Wip");
});

// ---- Values encode refuses ----

TEST(EncodeRefuses, ValuesAboveTheQuicVarintOn06) {
  const uint64_t big = kQuicVarintMax + 1;
  EXPECT_TRUE(starts_with(encode_error(Probe{big, 0}, k06), "PROBE: field 'Bitrate': value"));
  EXPECT_EQ(encode_error(Probe{big, 0}, k07), "");
  Subscribe s;
  s.id = big;
  EXPECT_TRUE(starts_with(encode_error(s, k06), "SUBSCRIBE: field 'Subscribe ID'"));
  SetupMessage setup;
  setup.hop = big;
  EXPECT_TRUE(starts_with(encode_error(setup, k06), "SETUP: field 'Hop'"));
  uint8_t buf[kMaxGroupStreamHeaderSize];
  EXPECT_EQ(encode_group_header({0, big, 0}, k06, buf), 0u);
  EXPECT_GT(encode_group_header({0, big, 0}, k07, buf), 0u);
  uint8_t d[kMaxDatagramHeaderSize];
  EXPECT_EQ(encode_datagram_header({big, 0, 0}, 0, k06, d), 0u);
}

TEST(EncodeRefuses, OptPlusOneAtTheVarintMaximum) {
  for (LiteVersion v : kVersions) {
    SubscribeUpdate u;
    u.options.group_end = max_varint(v);
    EXPECT_TRUE(starts_with(encode_error(u, v), "SUBSCRIBE_UPDATE: field 'Group End'"));
    Fetch f;
    f.frame_end = max_varint(v);
    f.frame_start = 0;
    EXPECT_TRUE(starts_with(encode_error(f, v), "FETCH: field 'Frame End'"));
  }
  TrackInfo info{0, UINT64_MAX, 1000};
  EXPECT_TRUE(starts_with(encode_error(info, k07), "TRACK_INFO: field 'Publisher Max Age'"));
}

TEST(EncodeRefuses, FieldsTheVersionDoesNotHave) {
  EXPECT_TRUE(
      starts_with(encode_error(SubscribeEnd{7, 3}, k06), "SUBSCRIBE_END: field 'Stream Count'"));
  EXPECT_EQ(encode_error(SubscribeDrop{1, 2, 0}, k07),
            "SUBSCRIBE_DROP: not defined on moq-lite-07-wip");
  EXPECT_TRUE(starts_with(encode_error(AnnounceRequest{"x", true}, k06),
                          "ANNOUNCE_REQUEST: field 'Hidden'"));
  EXPECT_EQ(encode_error(Auth{}, k06), "AUTH: not defined on moq-lite-06");
  EXPECT_EQ(encode_error(AuthOk{}, k06), "AUTH_OK: not defined on moq-lite-06");
  EXPECT_EQ(encode_error(AuthError{}, k06), "AUTH_ERROR: not defined on moq-lite-06");
}

TEST(EncodeRefuses, FiniteMaxAgeThatReadsAsNoLimitOn06) {
  EXPECT_TRUE(starts_with(encode_error(TrackInfo{0, kLite06MaxAgeNoLimit, 1000}, k06),
                          "TRACK_INFO: field 'Publisher Max Age'"));
  EXPECT_EQ(encode_error(TrackInfo{0, kLite06MaxAgeNoLimit, 1000}, k07), "");
}

TEST(EncodeRefuses, SemanticRulesWithTheirField) {
  for (LiteVersion v : kVersions) {
    EXPECT_TRUE(starts_with(encode_error(TrackInfo{0, std::nullopt, 0}, v),
                            "TRACK_INFO: field 'Timescale'"));
    Subscribe s;
    s.options.frame_end = 3;  // Frame End without Group End
    EXPECT_TRUE(starts_with(encode_error(s, v), "SUBSCRIBE: field 'Frame End'"));
    EXPECT_FALSE(s.check().ok());
    EXPECT_TRUE(starts_with(s.check().error().message, "SUBSCRIBE: field 'Frame End'"));
    Fetch f{"a", "b", 0, 1, 5, 4};
    EXPECT_TRUE(starts_with(encode_error(f, v), "FETCH: field 'Frame End': inclusive end 4"));
    AnnounceStart dup{"x", {3, 0, 3}, 0, 0};
    EXPECT_TRUE(starts_with(encode_error(dup, v), "ANNOUNCE_START: field 'Hop ID'"));
    AnnounceStart zeros{"x", {0, 0}, 0, 0};  // 0 (unknown) may repeat
    EXPECT_EQ(encode_error(zeros, v), "");
    EXPECT_TRUE(starts_with(encode_error(Goaway{std::string(kMaxReasonLength + 1, 'u')}, v),
                            "GOAWAY: field 'New Session URI': length 8193"));
    Track bad_utf8{"ok", "\xC3\x28"};
    EXPECT_TRUE(starts_with(encode_error(bad_utf8, v), "TRACK: field 'Track Name'"));
  }
  EXPECT_TRUE(starts_with(encode_error(AuthError{1, std::string(kMaxReasonLength + 1, 'r')}, k07),
                          "AUTH_ERROR: field 'Reason'"));
}

TEST(EncodeRefuses, AWriterOfTheOtherVarintForm) {
  Buf out;
  Writer w(out, VarintForm::Quic);
  const Status s = Probe{1, 1}.encode(w, k07);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(starts_with(s.error().message, "PROBE: the writer's varint form"));
  EXPECT_TRUE(out.empty());
}

TEST(EncodeRefuses, HotPathValuesOutOfRange) {
  uint8_t buf[kMaxFrameHeaderSize];
  for (LiteVersion v : kVersions) {
    EXPECT_EQ(encode_frame_header(kMinTimestampDelta - 1, 0, v, buf), 0u);
    EXPECT_EQ(encode_frame_header(kMaxTimestampDelta + 1, 0, v, buf), 0u);
    EXPECT_EQ(encode_frame_header(0, kMaxMessageLength + 1, v, buf), 0u);
    uint8_t d[kMaxDatagramHeaderSize];
    EXPECT_EQ(encode_datagram_header({0, 0, 0}, kMaxDatagramSize - 2, v, d), 0u);
    EXPECT_EQ(encode_datagram_header({0, 0, 0}, kMaxDatagramSize - 3, v, d), 3u);
  }
}

TEST(EncodeRefuses, HopListsStopAt32) {
  HopList h = full_hops(1);
  EXPECT_EQ(h.size(), kMaxHops);
  EXPECT_FALSE(h.push_back(99));
  EXPECT_EQ(h.size(), kMaxHops);
}

// ---- Decoding rules beyond the layout ----

TEST(DecodeRules, SetupIgnoresUnknownParametersAndRefusesRepeats) {
  for (LiteVersion v : kVersions) {
    // count 2: unknown 0x3f with 3 bytes, Role = 2
    const auto r = SetupMessage::decode(hex("09 02 3f 03 aa bb cc 03 01 02"), v);
    ASSERT_TRUE(r.ok()) << r.error.message;
    SetupMessage want;
    want.role = 2;
    EXPECT_EQ(r.value, want);
    const auto rep = SetupMessage::decode(hex("07 02 03 01 02 03 01 01"), v);
    ASSERT_TRUE(rep.malformed());
    EXPECT_EQ(rep.error.message, "SETUP: field 'Parameter ID': parameter 3 is repeated");
    const auto rep_unknown = SetupMessage::decode(hex("07 02 30 01 00 30 01 00"), v);
    ASSERT_TRUE(rep_unknown.malformed());
    EXPECT_EQ(rep_unknown.error.code, session_code::kProtocolViolation);
  }
}

TEST(DecodeRules, SetupAllowsAtMost64Parameters) {
  for (LiteVersion v : kVersions) {
    for (uint64_t count : {64, 65}) {
      Buf body = varint_bytes(count, varint_form(v));
      for (uint64_t i = 0; i < count; ++i)
        body = cat(body, cat(varint_bytes(0x10 + i, varint_form(v)), {0x00}));
      const Buf msg = cat(varint_bytes(body.size(), varint_form(v)), body);
      const auto r = SetupMessage::decode(msg, v);
      if (count == 64) {
        EXPECT_TRUE(r.ok()) << r.error.message;
      } else {
        ASSERT_TRUE(r.malformed());
        EXPECT_EQ(r.error.message, "SETUP: field 'Parameter Count': count 65 exceeds the limit 64");
      }
    }
  }
}

TEST(DecodeRules, SetupVarintParametersMustBeExactlyOneVarint) {
  for (LiteVersion v : kVersions) {
    const auto trailing = SetupMessage::decode(hex("05 01 03 02 01 00"), v);  // Role = 01 00
    ASSERT_TRUE(trailing.malformed());
    EXPECT_TRUE(starts_with(trailing.error.message, "SETUP: field 'Role': a 2-byte value"));
    const auto empty = SetupMessage::decode(hex("03 01 04 00"), v);  // Cost with no bytes
    ASSERT_TRUE(empty.malformed());
    EXPECT_TRUE(starts_with(empty.error.message, "SETUP: field 'Cost'"));
  }
  // A two-byte QUIC varint is a different value in leading-ones form: the form follows the
  // version (setup_param_varint_form).
  const Buf hop = hex("05 01 05 02 40 42");
  EXPECT_EQ(SetupMessage::decode(hop, k06).value.hop, 0x42u);
  EXPECT_TRUE(SetupMessage::decode(hop, k07).malformed());  // 0x40 is a whole 1-byte varint there
  const Buf hop07 = hex("05 01 05 02 80 42");
  EXPECT_EQ(SetupMessage::decode(hop07, k07).value.hop, 0x42u);
  EXPECT_TRUE(SetupMessage::decode(hop07, k06).malformed());  // 0x80 starts a 4-byte QUIC varint
}

TEST(DecodeRules, SetupAccessorsApplyDefaults) {
  SetupMessage s;
  EXPECT_EQ(s.probe_level(), ProbeLevel::None);
  EXPECT_EQ(s.role_hint(), SetupRole::Both);
  EXPECT_EQ(s.link_cost(), 1u);
  EXPECT_EQ(s.hop_id(), 0u);
  s.probe = 7;
  s.role = 9;
  s.cost = 0;
  EXPECT_EQ(s.probe_level(), ProbeLevel::Increase);
  EXPECT_EQ(s.role_hint(), SetupRole::Both);
  EXPECT_EQ(s.link_cost(), 0u);
  s.probe = 1;
  s.role = 1;
  EXPECT_EQ(s.probe_level(), ProbeLevel::Report);
  EXPECT_EQ(s.role_hint(), SetupRole::Publisher);
  s.probe = 0;
  s.role = 2;
  EXPECT_EQ(s.probe_level(), ProbeLevel::None);
  EXPECT_EQ(s.role_hint(), SetupRole::Subscriber);
  // A value whose low byte is a known role is still unknown.
  s.role = 0x101;
  EXPECT_EQ(s.role_hint(), SetupRole::Both);
}

TEST(DecodeRules, SubscribeFrameRuleIsLeftToTheSession) {
  // Group End 0, Frame End 4: decodes (the spec answers it with a stream reset), check() names it.
  const Buf bytes = hex("0b 00 01 61 01 62 00 00 00 00 00 04");
  for (LiteVersion v : kVersions) {
    const auto r = Subscribe::decode(bytes, v);
    ASSERT_TRUE(r.ok()) << r.error.message;
    EXPECT_EQ(r.value.options.frame_end, 3u);
    EXPECT_FALSE(r.value.check().ok());
  }
}

TEST(DecodeRules, TrackInfoTimescaleZeroIsLeftToTheSession) {
  for (LiteVersion v : kVersions) {
    const auto r = TrackInfo::decode(hex("03 00 00 00"), v);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value.check().error().message,
              "TRACK_INFO: field 'Timescale': is 0, must be non-zero");
  }
}

TEST(DecodeRules, TrackInfo06ReadsAnyHugeMaxAgeAsNoLimit) {
  // 2^53 and 2^62-1 on -06 both read as no limit; 2^53-2 is a finite age.
  const auto a = TrackInfo::decode(hex("0a 00 c0 20 00 00 00 00 00 00 01"), k06);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.value.max_age_ms, std::nullopt);
  const auto b = TrackInfo::decode(hex("0a 00 ff ff ff ff ff ff ff ff 01"), k06);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b.value.max_age_ms, std::nullopt);
  const auto c = TrackInfo::decode(hex("0a 00 c0 1f ff ff ff ff ff fe 01"), k06);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.value.max_age_ms, kLite06MaxAgeNoLimit - 1);
  // On -07 the same 0 means no limit and 1 means 0 ms.
  EXPECT_EQ(TrackInfo::decode(hex("03 00 01 01"), k07).value.max_age_ms, 0u);
  EXPECT_EQ(TrackInfo::decode(hex("03 00 01 01"), k06).value.max_age_ms, 1u);
}

TEST(DecodeRules, FetchEndBelowStartIsMalformed) {
  for (LiteVersion v : kVersions) {
    // start 5, end opt+1 = 5 -> inclusive end 4
    const auto r = Fetch::decode(hex("08 01 61 01 62 00 00 05 05"), v);
    ASSERT_TRUE(r.malformed());
    EXPECT_EQ(r.error.message, "FETCH: field 'Frame End': inclusive end 4 is below Frame Start 5");
    EXPECT_TRUE(Fetch::decode(hex("08 01 61 01 62 00 00 05 06"), v).ok());
  }
}

TEST(DecodeRules, HiddenIsABooleanByteOn07Only) {
  const auto bad = AnnounceRequest::decode(hex("02 00 02"), k07);
  ASSERT_TRUE(bad.malformed());
  EXPECT_EQ(bad.error.message,
            "ANNOUNCE_REQUEST: field 'Hidden': boolean byte is 2, must be 0 or 1");
  const auto hidden = AnnounceRequest::decode(hex("02 00 01"), k07);
  ASSERT_TRUE(hidden.ok());
  EXPECT_TRUE(hidden.value.hidden);
  // On -06 the same bytes have a trailing byte.
  const auto extra = AnnounceRequest::decode(hex("02 00 01"), k06);
  ASSERT_TRUE(extra.malformed());
  EXPECT_TRUE(starts_with(extra.error.message, "ANNOUNCE_REQUEST: field 'Message Length'"));
}

TEST(DecodeRules, UnknownReplyTypesAreMalformed) {
  const auto drop07 = decode_subscribe_reply(hex("02 03 00 00 00"), k07);
  ASSERT_TRUE(drop07.malformed());
  EXPECT_EQ(drop07.error.message,
            "SUBSCRIBE reply: field 'Type': unknown type 2 on moq-lite-07-wip");
  const auto drop06 = decode_subscribe_reply(hex("02 03 01 02 00"), k06);
  ASSERT_TRUE(drop06.ok());
  EXPECT_EQ(std::get<SubscribeDrop>(drop06.value), (SubscribeDrop{1, 2, 0}));
  EXPECT_TRUE(decode_announce_message(hex("03 01 00"), k06).malformed());
  EXPECT_EQ(decode_auth_reply(hex("02 00"), k07).error.message,
            "AUTH reply: field 'Type': unknown type 2 on moq-lite-07-wip");
}

TEST(DecodeRules, HopListsRefuseRepeatsAndMoreThan32) {
  for (LiteVersion v : kVersions) {
    const auto dup = decode_announce_message(hex("02 07 00 03 07 00 07 00 00"), v);
    // Announce ID 0, 3 hops [7, 0, 7]
    ASSERT_TRUE(dup.malformed());
    EXPECT_EQ(dup.error.message,
              "ANNOUNCE_UPDATE: field 'Hop ID': non-zero Hop ID 7 is repeated in the list");
    Buf body = {0x00, 33};
    for (int i = 0; i < 33; ++i)
      body.push_back(static_cast<uint8_t>(i + 1));
    body.insert(body.end(), {0, 0});
    const auto many =
        decode_announce_message(cat({0x02, static_cast<uint8_t>(body.size())}, body), v);
    ASSERT_TRUE(many.malformed());
    EXPECT_EQ(many.error.message,
              "ANNOUNCE_UPDATE: field 'Hop Count': count 33 exceeds the limit 32");
  }
}

TEST(DecodeRules, StringsMustBeUtf8) {
  for (LiteVersion v : kVersions) {
    const auto r = Track::decode(hex("05 01 61 02 ed a0"), v);  // truncated surrogate
    ASSERT_TRUE(r.malformed());
    EXPECT_TRUE(starts_with(r.error.message, "TRACK: field 'Track Name': the 2-byte string"));
    const auto overlong = Track::decode(hex("04 02 c0 80 00"), v);
    ASSERT_TRUE(overlong.malformed());
    EXPECT_TRUE(starts_with(overlong.error.message, "TRACK: field 'Broadcast Path'"));
    EXPECT_TRUE(Track::decode(hex("07 04 f0 9f 8e a5 01 61"), v).ok());  // U+1F3A5
  }
}

TEST(DecodeRules, AuthIsNotDefinedOn06) {
  EXPECT_EQ(Auth::decode(hex("01 00"), k06).error.message, "AUTH: not defined on moq-lite-06");
  EXPECT_EQ(decode_auth_reply(hex("00 03 00 00 00"), k06).error.message,
            "AUTH reply: not defined on moq-lite-06");
  EXPECT_TRUE(decode_auth_reply(hex("00 03 00 00 00"), k07).ok());
}

TEST(DecodeRules, GoawayUriLimit) {
  for (LiteVersion v : kVersions) {
    Goaway g{std::string(kMaxReasonLength, 'u')};
    Buf ok = encoded(g, v);
    EXPECT_TRUE(Goaway::decode(ok, v).ok());
    // One more byte in the URI: 8193.
    Buf body =
        cat(varint_bytes(kMaxReasonLength + 1, varint_form(v)), Buf(kMaxReasonLength + 1, 'u'));
    const auto r = Goaway::decode(cat(varint_bytes(body.size(), varint_form(v)), body), v);
    ASSERT_TRUE(r.malformed());
    EXPECT_EQ(r.error.message,
              "GOAWAY: field 'New Session URI': length 8193 exceeds the limit 8192");
  }
}

TEST(DecodeRules, FrameHeaderLimits) {
  // -07 varints reach 2^64-1: a zigzag delta at or above 2^62 is outside the Rust range.
  const auto delta = decode_frame_header(hex("ff 40 00 00 00 00 00 00 00 00"), k07);
  ASSERT_TRUE(delta.malformed());
  EXPECT_TRUE(starts_with(delta.error.message, "FRAME: field 'Timestamp Delta'"));
  for (LiteVersion v : kVersions) {
    const Buf len = cat({0x00}, varint_bytes(kMaxMessageLength + 1, varint_form(v)));
    const auto big = decode_frame_header(len, v);
    ASSERT_TRUE(big.malformed());
    EXPECT_EQ(big.error.message,
              "FRAME: field 'Message Length': 67108865 exceeds the 64 MiB limit");
    const auto at_limit =
        decode_frame_header(cat({0x00}, varint_bytes(kMaxMessageLength, varint_form(v))), v);
    ASSERT_TRUE(at_limit.ok());
    EXPECT_EQ(at_limit.value.payload_size, kMaxMessageLength);
  }
}

TEST(DecodeRules, DatagramsArriveWhole) {
  for (LiteVersion v : kVersions) {
    const auto cut = decode_datagram(hex("00 05"), v);
    ASSERT_TRUE(cut.malformed());
    EXPECT_TRUE(starts_with(cut.error.message, "DATAGRAM: field 'Timestamp'"));
    Buf big(kMaxDatagramSize + 1, 0);
    EXPECT_TRUE(decode_datagram(big, v).malformed());
    big.pop_back();
    EXPECT_TRUE(decode_datagram(big, v).ok());
  }
}

}  // namespace
}  // namespace moq::wire::lite::test

namespace moq::wire::lite::test {
namespace {

TEST(Utf8, Rfc3629Ranges) {
  using detail::is_valid_utf8;
  using detail::is_valid_utf8_prefix;
  const auto text = [](const Buf& b) {
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  };
  for (const char* ok : {"", "61", "c2 80", "df bf", "e0 a0 80", "ed 9f bf", "ee 80 80", "ef bf bf",
                         "f0 90 80 80", "f4 8f bf bf", "61 e6 97 a5 62"}) {
    EXPECT_TRUE(is_valid_utf8(text(hex(ok)))) << ok;
    EXPECT_TRUE(is_valid_utf8_prefix(text(hex(ok)))) << ok;
  }
  for (const char* bad :
       {"80", "bf", "c0 80", "c1 bf", "e0 80 80", "e0 9f bf", "ed a0 80", "ed bf bf", "f0 80 80 80",
        "f0 8f bf bf", "f4 90 80 80", "f5 80 80 80", "ff", "e2 28 a1", "c2 41"}) {
    EXPECT_FALSE(is_valid_utf8(text(hex(bad)))) << bad;
    EXPECT_FALSE(is_valid_utf8_prefix(text(hex(bad)))) << bad;
  }
  // Cut inside a character: not valid, but a valid prefix.
  for (const char* cut : {"c2", "e2 82", "f0 9f", "f0 9f 8e", "61 f4 8f"}) {
    EXPECT_FALSE(is_valid_utf8(text(hex(cut)))) << cut;
    EXPECT_TRUE(is_valid_utf8_prefix(text(hex(cut)))) << cut;
  }
}

// The checker skips ASCII eight bytes at a time: a bad or cut character gives the same verdict
// at every offset from the start, inside or after a run of ASCII.
TEST(Utf8, VerdictsHoldAtEveryOffsetInsideAscii) {
  using detail::is_valid_utf8;
  using detail::is_valid_utf8_prefix;
  const auto text = [](const Buf& b) {
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  };
  for (size_t lead = 0; lead <= 17; ++lead) {
    const std::string ascii(lead, 'a');
    const std::string tail(9, 'z');
    for (const char* ok : {"c2 80", "f4 8f bf bf", "e6 97 a5"}) {
      EXPECT_TRUE(is_valid_utf8(ascii + text(hex(ok)) + tail)) << lead << " " << ok;
      EXPECT_TRUE(is_valid_utf8(ascii + text(hex(ok)))) << lead << " " << ok;
    }
    for (const char* bad : {"80", "c0 80", "ed a0 80", "f5 80 80 80", "ff", "c2 41"}) {
      EXPECT_FALSE(is_valid_utf8(ascii + text(hex(bad)) + tail)) << lead << " " << bad;
      EXPECT_FALSE(is_valid_utf8_prefix(ascii + text(hex(bad)))) << lead << " " << bad;
    }
    for (const char* cut : {"c2", "f0 9f 8e"}) {
      EXPECT_FALSE(is_valid_utf8(ascii + text(hex(cut)))) << lead << " " << cut;
      EXPECT_TRUE(is_valid_utf8_prefix(ascii + text(hex(cut)))) << lead << " " << cut;
    }
    EXPECT_TRUE(is_valid_utf8(ascii + tail)) << lead;
  }
}

TEST(DecodeRules, PartlyArrivedFieldsThatCannotBecomeValidAreMalformedAtOnce) {
  for (LiteVersion v : kVersions) {
    // TRACK of 10 bytes whose 8-byte path starts with 0xFF: doomed before the rest arrives.
    const auto bad = Track::decode(hex("0a 08 ff"), v);
    ASSERT_TRUE(bad.malformed());
    EXPECT_TRUE(starts_with(bad.error.message, "TRACK: field 'Broadcast Path'"));
    const auto cut = Track::decode(hex("0a 08 e2 82"), v);
    EXPECT_TRUE(cut.need_more());
    EXPECT_EQ(cut.needed, 11u);
    // SETUP Role of 3 bytes whose first byte is a whole 1-byte varint.
    const auto role = SetupMessage::decode(hex("06 01 03 03 01"), v);
    ASSERT_TRUE(role.malformed());
    EXPECT_TRUE(starts_with(role.error.message, "SETUP: field 'Role'"));
    // A varint whose first byte says it is longer than the body left.
    const auto probe = Probe::decode(hex("02 00 ff"), v);
    ASSERT_TRUE(probe.malformed());
    EXPECT_TRUE(starts_with(probe.error.message, "PROBE: field 'RTT': a "));
  }
  // A 2-byte QUIC varint Role still arriving is fine on -06.
  EXPECT_TRUE(SetupMessage::decode(hex("05 01 03 02 40"), LiteVersion::Lite06).need_more());
}

}  // namespace
}  // namespace moq::wire::lite::test
