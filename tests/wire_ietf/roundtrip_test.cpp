// Every control message of both drafts: encode, decode, compare; prefixes are NeedMore; version
// differences are enforced on both sides.
#include <gtest/gtest.h>

#include <set>

#include "tests/wire_ietf/test_util.h"

namespace moq::wire::ietf::test {
namespace {

constexpr IetfVersion k18 = IetfVersion::Draft18;
constexpr IetfVersion k22 = IetfVersion::Draft22;

TEST(IetfRoundTrip, EveryMessageBothDrafts) {
  for (IetfVersion v : kVersions) {
    for (const ControlMessage& m : sample_messages(v)) {
      const std::vector<uint8_t> bytes = encode(m, v);
      Decoded<ControlMessage> d = decode_control(bytes, v);
      ASSERT_EQ(d.status, DecodeStatus::Ok)
          << version_name(v) << " " << control_name(m, v) << ": " << d.error.message;
      EXPECT_EQ(d.consumed, bytes.size());
      EXPECT_TRUE(d.value == m) << version_name(v) << " " << control_name(m, v);
      EXPECT_EQ(encode(d.value, v), bytes);
    }
  }
}

// decode_control_into reuses a kept message's storage (a request task's, between jobs): every
// sample decoded into one message after every other, the same type twice in a row included,
// reads exactly what decode_control reads (no field of the message before survives).
TEST(IetfRoundTrip, DecodingIntoAKeptMessageLeavesNothingOfThePreviousOne) {
  for (IetfVersion v : kVersions) {
    const auto samples = sample_messages(v);
    ControlMessage kept;
    for (const ControlMessage& before : samples) {
      for (const ControlMessage& m : samples) {
        ASSERT_EQ(decode_control_into(encode(before, v), v, kept).status, DecodeStatus::Ok);
        const std::vector<uint8_t> bytes = encode(m, v);
        Decoded<std::monostate> d = decode_control_into(bytes, v, kept);
        ASSERT_EQ(d.status, DecodeStatus::Ok) << version_name(v) << " " << control_name(m, v);
        EXPECT_EQ(d.consumed, bytes.size());
        EXPECT_TRUE(kept == m) << version_name(v) << " " << control_name(m, v) << " after "
                               << control_name(before, v);
      }
    }
  }
}

TEST(IetfRoundTrip, SamplesCoverEveryMessageType) {
  const std::set<uint64_t> d18 = {0x2F00, 0x10, 0x03, 0x04, 0x02, 0x1D, 0x0B, 0x16, 0x18,
                                  0x0D,   0x07, 0x05, 0x06, 0x08, 0x0E, 0x50, 0x51, 0x0F};
  for (IetfVersion v : kVersions) {
    std::set<uint64_t> want = d18;
    if (v == k22) want.insert(0x22);
    std::set<uint64_t> got;
    for (const ControlMessage& m : sample_messages(v))
      got.insert(uint64_t(control_type(m)));
    EXPECT_EQ(got, want) << version_name(v);
    for (uint64_t t : want)
      EXPECT_NE(message_type_name(t, v), nullptr);
  }
}

TEST(IetfRoundTrip, MessagesBackToBackInOneBuffer) {
  for (IetfVersion v : kVersions) {
    const auto samples = sample_messages(v);
    std::vector<uint8_t> stream;
    for (const auto& m : samples) {
      auto b = encode(m, v);
      stream.insert(stream.end(), b.begin(), b.end());
    }
    size_t pos = 0;
    for (const auto& m : samples) {
      Decoded<ControlMessage> d = decode_control(std::span<const uint8_t>(stream).subspan(pos), v);
      ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
      EXPECT_TRUE(d.value == m);
      pos += d.consumed;
    }
    EXPECT_EQ(pos, stream.size());
  }
}

TEST(IetfRoundTrip, EveryProperPrefixIsNeedMore) {
  for (IetfVersion v : kVersions) {
    for (const ControlMessage& m : sample_messages(v)) {
      const auto bytes = encode(m, v);
      for (size_t n = 0; n < bytes.size(); ++n) {
        Decoded<ControlMessage> d = decode_control(std::span<const uint8_t>(bytes).first(n), v);
        ASSERT_EQ(d.status, DecodeStatus::NeedMore) << control_name(m, v) << " prefix " << n;
        EXPECT_GT(d.needed, n);
        EXPECT_LE(d.needed, bytes.size());
        EXPECT_EQ(d.consumed, 0u);
      }
    }
  }
}

TEST(IetfRoundTrip, NonMinimalVarintsAreAccepted) {
  // SUBSCRIBE_OK with alias 0 written as 80 00 and LARGEST_OBJECT {4, 9} as c0 00 04 / 09; the
  // message type 0x04 itself written in two bytes.
  const auto bytes = hex("80 04 00 08 80 00 01 09 c0 00 04 09");
  for (IetfVersion v : kVersions) {
    Decoded<ControlMessage> d = decode_control(bytes, v);
    ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
    const auto& ok = std::get<SubscribeOk>(d.value);
    EXPECT_EQ(ok.track_alias, 0u);
    EXPECT_EQ(ok.params.largest_object, (Location{4, 9}));
  }
}

TEST(IetfRoundTrip, LegacyPublishOkTypeOnlyInDraft18) {
  // [AMBIG-1]: 0x1E is accepted as REQUEST_OK under -18 and is not a message under -22.
  const auto bytes = hex("1e 00 01 00");
  Decoded<ControlMessage> d18 = decode_control(bytes, k18);
  ASSERT_EQ(d18.status, DecodeStatus::Ok);
  EXPECT_TRUE(std::holds_alternative<RequestOk>(d18.value));
  EXPECT_EQ(control_type(d18.value), MessageType::RequestOk);
  Decoded<ControlMessage> d22 = decode_control(bytes, k22);
  ASSERT_EQ(d22.status, DecodeStatus::Malformed);
  EXPECT_NE(d22.error.message.find("message type"), std::string::npos);
}

TEST(IetfRoundTrip, PublishStateNotifyOnlyInDraft22) {
  std::vector<uint8_t> buf;
  Writer w(buf, kVarint);
  EXPECT_FALSE(encode_message(w, PublishStateNotify{}, k18).ok());
  EXPECT_TRUE(buf.empty());
  Decoded<ControlMessage> d = decode_control(hex("22 00 01 00"), k18);
  EXPECT_EQ(d.status, DecodeStatus::Malformed);
  // Rejected as soon as the type is known, without waiting for the body.
  EXPECT_EQ(decode_control(hex("22"), k18).status, DecodeStatus::Malformed);
  EXPECT_EQ(decode_control(hex("22 00 01 00"), k22).status, DecodeStatus::Ok);
}

TEST(IetfRoundTrip, PublishBlockedIsPublishSkippedInDraft22) {
  PublishSkipped m{TrackNamespace{{"a"}}, "b"};
  EXPECT_STREQ(control_name(m, k18), "PUBLISH_BLOCKED");
  EXPECT_STREQ(control_name(m, k22), "PUBLISH_SKIPPED");
  EXPECT_EQ(encode(m, k18), encode(m, k22));
}

TEST(IetfRoundTrip, DraftSpecificFieldsAreRefusedByTheOtherDraft) {
  std::vector<uint8_t> buf;
  Writer w(buf, kVarint);
  EXPECT_FALSE(encode_message(w, GoAway{"", 1, 4}, k22).ok());
  Fetch joining;
  joining.fetch_type = FetchType::RelativeJoining;
  EXPECT_FALSE(encode_message(w, joining, k22).ok());
  Fetch ranged;
  ranged.track_namespace.fields = {"a"};
  ranged.start = {1, 0};
  EXPECT_FALSE(encode_message(w, ranged, k22).ok());
  ietf::Setup s;
  s.max_filter_ranges = 1;
  EXPECT_FALSE(encode_message(w, s, k18).ok());
  Subscribe sub18;
  sub18.params.location_filter = LocationFilter{LocationFilterType::NextObject, 0, 0, 0, 0};
  EXPECT_FALSE(encode_message(w, sub18, k18).ok());
  Subscribe sub22;
  sub22.params.subscription_filter =
      SubscriptionFilter{SubscriptionFilterType::LargestObject, {}, 0};
  EXPECT_FALSE(encode_message(w, sub22, k22).ok());
  Subscribe fill18;
  fill18.params.fill = FillParameters{};
  EXPECT_FALSE(encode_message(w, fill18, k18).ok());
  Subscribe range18;
  range18.params.range_filters.push_back(RangeFilter{});
  EXPECT_FALSE(encode_message(w, range18, k18).ok());
  Subscribe include18;
  include18.params.include_properties = true;
  EXPECT_FALSE(encode_message(w, include18, k18).ok());
  EXPECT_TRUE(buf.empty());
}

TEST(IetfRoundTrip, Draft22SetupOptionsAreUnknownInDraft18) {
  ietf::Setup s;
  s.max_filter_ranges = 4;
  s.max_request_updates = 2;
  const auto bytes = encode(s, k22);
  Decoded<ControlMessage> d = decode_control(bytes, k18);
  ASSERT_EQ(d.status, DecodeStatus::Ok);
  const auto& got = std::get<ietf::Setup>(d.value);
  EXPECT_FALSE(got.max_filter_ranges);
  EXPECT_FALSE(got.max_request_updates);
  ASSERT_EQ(got.unknown_options.size(), 2u);
  EXPECT_EQ(got.unknown_options[0], KeyValuePair::integer(0x06, 4));
  EXPECT_EQ(got.unknown_options[1], KeyValuePair::integer(0x08, 2));
}

TEST(IetfRoundTrip, Draft18FetchTypesDecodeToTheirFields) {
  for (const ControlMessage& m : sample_messages(k18)) {
    const Fetch* f = std::get_if<Fetch>(&m);
    if (!f) continue;
    Decoded<ControlMessage> d = decode_control(encode(m, k18), k18);
    ASSERT_EQ(d.status, DecodeStatus::Ok);
    const Fetch& got = std::get<Fetch>(d.value);
    EXPECT_EQ(got.fetch_type, f->fetch_type);
    EXPECT_EQ(got.joining_start, f->joining_start);
    EXPECT_EQ(got.end, f->end);
  }
}

}  // namespace
}  // namespace moq::wire::ietf::test
