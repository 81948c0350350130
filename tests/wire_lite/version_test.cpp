// Versions, predicates, stream types and error-code tables.
#include <gtest/gtest.h>

#include "tests/wire_lite/test_support.h"

namespace moq::wire::lite::test {
namespace {

constexpr auto k06 = LiteVersion::Lite06;
constexpr auto k07 = LiteVersion::Lite07Wip;

TEST(Version, AlpnRoundTripsAndRefusesOthers) {
  EXPECT_EQ(alpn(k06), "moq-lite-06");
  EXPECT_EQ(alpn(k07), "moq-lite-07-wip");
  EXPECT_EQ(version_from_alpn("moq-lite-06"), k06);
  EXPECT_EQ(version_from_alpn("moq-lite-07-wip"), k07);
  for (const char* other : {"moq-lite-06-wip", "moq-lite-05", "moql", "h3", "moq-lite-07", ""})
    EXPECT_EQ(version_from_alpn(other), std::nullopt) << other;
  EXPECT_EQ(legacy_version_code(k06), 0xff0dad06u);
  EXPECT_EQ(legacy_version_code(k07), 0xff0dad07u);
}

TEST(Version, BaselinePredicates) {
  EXPECT_EQ(varint_form(k06), VarintForm::Quic);
  EXPECT_EQ(varint_form(k07), VarintForm::LeadingOnes);
  EXPECT_EQ(setup_param_varint_form(k07), VarintForm::LeadingOnes);
  EXPECT_EQ(max_varint(k06), kQuicVarintMax);
  EXPECT_EQ(max_varint(k07), UINT64_MAX);
  EXPECT_FALSE(has_hidden_flag(k06));
  EXPECT_TRUE(has_hidden_flag(k07));
  EXPECT_TRUE(has_subscribe_drop(k06));
  EXPECT_FALSE(has_subscribe_drop(k07));
  EXPECT_FALSE(subscribe_end_has_stream_count(k06));
  EXPECT_TRUE(subscribe_end_has_stream_count(k07));
  EXPECT_FALSE(has_auth(k06));
  EXPECT_TRUE(has_auth(k07));
  EXPECT_FALSE(max_age_is_opt_plus_one(k06));
  EXPECT_TRUE(max_age_is_opt_plus_one(k07));
  EXPECT_TRUE(subscribe_completes_on_subscriber_fin(k07));
  EXPECT_FALSE(subscribe_completes_on_subscriber_fin(k06));
}

TEST(Version, WithVersionPassesTheVersionAsAConstant) {
  for (LiteVersion v : kVersions) {
    EXPECT_EQ(with_version(v, [](auto version) { return decltype(version)::value; }), v);
    // The constant converts to LiteVersion, so it can be passed wherever a version is taken.
    EXPECT_EQ(with_version(v, [](auto version) { return varint_form(version); }), varint_form(v));
  }
}

TEST(Version, BuildSpecificItemsAreNotAdopted) {
  for (LiteVersion v : kVersions) {
    EXPECT_FALSE(has_epoch(v));
    EXPECT_FALSE(has_announce_compression(v));
    EXPECT_FALSE(has_announce_restart(v));
    EXPECT_FALSE(subscribe_has_live_flag(v));
    EXPECT_FALSE(subscribe_ok_has_largest(v));
    EXPECT_FALSE(frames_may_be_untimed(v));
    EXPECT_FALSE(has_padding_stream(v));
  }
}

TEST(StreamTypes, BidiAndUniTablesPerVersion) {
  for (LiteVersion v : kVersions) {
    EXPECT_EQ(bidi_stream_from_type(0x0, v), std::nullopt);  // lite-01/02 Session
    EXPECT_EQ(bidi_stream_from_type(0x1, v), BidiStream::Announce);
    EXPECT_EQ(bidi_stream_from_type(0x2, v), BidiStream::Subscribe);
    EXPECT_EQ(bidi_stream_from_type(0x3, v), BidiStream::Fetch);
    EXPECT_EQ(bidi_stream_from_type(0x4, v), BidiStream::Probe);
    EXPECT_EQ(bidi_stream_from_type(0x5, v), BidiStream::Goaway);
    EXPECT_EQ(bidi_stream_from_type(0x6, v), BidiStream::Track);
    EXPECT_EQ(bidi_stream_from_type(0x8, v), std::nullopt);
    EXPECT_EQ(bidi_stream_from_type(0x101, v), std::nullopt);  // low byte 0x01 is Announce
    EXPECT_EQ(uni_stream_from_type(0x0, v), UniStream::Group);
    EXPECT_EQ(uni_stream_from_type(0x1, v), UniStream::Setup);
    EXPECT_EQ(uni_stream_from_type(0x2, v), std::nullopt);  // Padding: not adopted
    EXPECT_EQ(uni_stream_from_type(UINT64_MAX, v), std::nullopt);
    EXPECT_EQ(uni_stream_from_type(0x100, v), std::nullopt);  // low byte 0x00 is Group
  }
  EXPECT_EQ(bidi_stream_from_type(0x7, k06), std::nullopt);
  EXPECT_EQ(bidi_stream_from_type(0x7, k07), BidiStream::Auth);
  EXPECT_STREQ(stream_name(BidiStream::Track), "Track");
  EXPECT_STREQ(stream_name(UniStream::Setup), "Setup");
}

TEST(StreamTypes, DecodeIsOneVarint) {
  for (LiteVersion v : kVersions) {
    const auto empty = decode_stream_type({}, v);
    EXPECT_TRUE(empty.need_more());
    EXPECT_EQ(empty.needed, 1u);
    const auto one = decode_stream_type(hex("06 0b"), v);
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one.value, 6u);
    EXPECT_EQ(one.consumed, 1u);
  }
  // 0x40 starts a 2-byte QUIC varint but is a whole leading-ones byte.
  EXPECT_EQ(decode_stream_type(hex("40"), k06).needed, 2u);
  EXPECT_EQ(decode_stream_type(hex("40"), k07).value, 0x40u);
}

TEST(ErrorCodes, TablesOfSection4_7) {
  EXPECT_EQ(session_code::kProtocolViolation, 0x3u);
  EXPECT_EQ(session_code::kGoawayTimeout, 0x10u);
  EXPECT_EQ(session_code::kVersionNegotiationFailed, 0x15u);
  EXPECT_EQ(stream_code::kCancelled, 0x1u);
  EXPECT_EQ(stream_code::kMalformedTrack, 0x12u);
  EXPECT_STREQ(session_code_name(0x3), "PROTOCOL_VIOLATION");
  EXPECT_STREQ(session_code_name(0x6), "KEY_VALUE_FORMATTING_ERROR");
  EXPECT_STREQ(session_code_name(0x4), "unspecified");
  EXPECT_STREQ(session_code_name(40), "unspecified");
  EXPECT_STREQ(session_code_name(64), "application");
  EXPECT_STREQ(stream_code_name(0x1, k06), "CANCELLED");
  EXPECT_STREQ(stream_code_name(0x5, k06), "TOO_FAR_BEHIND");
  EXPECT_STREQ(stream_code_name(0x33, k06), "provisional NOT_FOUND");
  EXPECT_STREQ(stream_code_name(0x3a, k06), "unspecified");
  EXPECT_STREQ(stream_code_name(0x3a, k07), "UNAUTHORIZED");
  EXPECT_STREQ(stream_code_name(0x3b, k07), "unspecified");
  EXPECT_EQ(stream_unauthorized_code(k06), std::nullopt);
  EXPECT_EQ(stream_unauthorized_code(k07), 0x3au);
  EXPECT_TRUE(is_reserved_code(32));
  EXPECT_TRUE(is_reserved_code(63));
  EXPECT_FALSE(is_reserved_code(64));
  EXPECT_TRUE(is_application_code(64));
}

}  // namespace
}  // namespace moq::wire::lite::test
