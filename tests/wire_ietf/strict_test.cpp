// Strictness of the control plane: framing lengths, limits, parameters, filters, tokens and
// properties. Every failure must be Malformed with a message naming the message and the field.
#include <gtest/gtest.h>

#include "model/wire/ietf/describe_value.h"
#include "tests/wire_ietf/test_util.h"

namespace moq::wire::ietf::test {
namespace {

constexpr IetfVersion k18 = IetfVersion::Draft18;
constexpr IetfVersion k22 = IetfVersion::Draft22;

// Frames a raw body under a message type.
std::vector<uint8_t> frame(uint64_t type, const std::vector<uint8_t>& body) {
  std::vector<uint8_t> out;
  Writer w(out, kVarint);
  EXPECT_TRUE(encode_framed(w, type, "test", [&](Writer& b) { b.raw(body); }).ok());
  return out;
}

// A message from its type and body hex; the length is computed.
std::vector<uint8_t> msg(uint64_t type, std::string_view body_hex) {
  return frame(type, hex(body_hex));
}

// Expects Malformed whose text contains every fragment and whose code is `code`.
void expect_malformed(std::span<const uint8_t> in, IetfVersion v,
                      std::initializer_list<std::string_view> fragments,
                      uint64_t code = kProtocolViolation) {
  Decoded<ControlMessage> d = decode_control(in, v);
  ASSERT_EQ(d.status, DecodeStatus::Malformed) << to_hex(in);
  for (std::string_view f : fragments)
    EXPECT_NE(d.error.message.find(f), std::string::npos)
        << "'" << f << "' missing from: " << d.error.message;
  EXPECT_EQ(d.error.code, code) << d.error.message;
}

TEST(IetfStrict, BodyLongerThanItsFields) {
  auto bytes = hex("0b 00 04 03 03 00 ff");  // PUBLISH_DONE with one extra byte
  expect_malformed(bytes, k18, {"PUBLISH_DONE", "message length", "1 bytes after"});
}

TEST(IetfStrict, BodyShorterThanItsFields) {
  auto bytes = hex("0b 00 02 03 03");  // PUBLISH_DONE missing its reason phrase
  expect_malformed(bytes, k22, {"PUBLISH_DONE", "reason phrase", "past the end of the message"});
  // A field whose length runs past the body (reason says 5 bytes, body has 2).
  expect_malformed(hex("0b 00 05 03 03 05 61 62"), k18, {"PUBLISH_DONE", "reason phrase"});
}

TEST(IetfStrict, EveryMessageWithItsLengthOffByOne) {
  for (IetfVersion v : kVersions) {
    for (const ControlMessage& m : sample_messages(v)) {
      auto bytes = encode(m, v);
      const VarintDecode t = decode_varint(bytes, kVarint);
      const size_t len_at = t.length;
      const size_t body = size_t{bytes[len_at]} << 8 | bytes[len_at + 1];
      // Length one larger, with one extra byte appended: trailing byte after the last field
      // (for messages that end in properties or options, the extra byte starts a truncated KVP).
      auto longer = bytes;
      longer[len_at] = static_cast<uint8_t>((body + 1) >> 8);
      longer[len_at + 1] = static_cast<uint8_t>(body + 1);
      longer.push_back(0x01);
      Decoded<ControlMessage> d = decode_control(longer, v);
      const auto* goaway = std::get_if<GoAway>(&m);
      if (goaway && goaway_has_request_id(v) && !goaway->request_id) {
        // The -18 GOAWAY's optional trailing Request ID absorbs the byte.
        ASSERT_EQ(d.status, DecodeStatus::Ok);
        EXPECT_EQ(std::get<GoAway>(d.value).request_id, 1u);
      } else {
        // A trailing byte after fixed fields is left over; after a KVP block it starts a KVP
        // (type delta 1) whose value is missing.
        EXPECT_EQ(d.status, DecodeStatus::Malformed) << control_name(m, v);
        EXPECT_EQ(d.error.message.rfind(control_name(m, v), 0), 0u) << d.error.message;
      }
      if (body == 0) continue;
      auto shorter = bytes;
      shorter[len_at] = static_cast<uint8_t>((body - 1) >> 8);
      shorter[len_at + 1] = static_cast<uint8_t>(body - 1);
      d = decode_control(shorter, v);
      if (d.status == DecodeStatus::Ok) {
        // The shortened body may itself be a valid encoding (e.g. a block ending in a KVP whose
        // last byte is dropped cannot be); then the leftover byte must not be consumed.
        EXPECT_EQ(d.consumed, shorter.size() - 1) << control_name(m, v);
      } else {
        EXPECT_EQ(d.status, DecodeStatus::Malformed) << control_name(m, v);
        EXPECT_EQ(d.error.message.rfind(control_name(m, v), 0), 0u) << d.error.message;
      }
    }
  }
}

TEST(IetfStrict, UnknownAndReservedTypes) {
  for (uint64_t t : {0x00u, 0x01u, 0x09u, 0x1Fu, 0x20u, 0x21u, 0x40u, 0x41u, 0x2F01u}) {
    std::vector<uint8_t> bytes(9);
    bytes.resize(encode_varint(t, kVarint, bytes.data()));
    bytes.insert(bytes.end(), {0, 0});
    for (IetfVersion v : kVersions)
      expect_malformed(bytes, v, {"message type", describe_value(t)});
  }
}

TEST(IetfStrict, OversizedBodyIsRefusedOnEncode) {
  std::vector<uint8_t> buf = {0xAA};
  Writer w(buf, kVarint);
  RequestError e;
  e.error_code = uint64_t(RequestErrorCode::Redirect);
  e.redirect = Redirect{std::string(70000, 'u'), {}, ""};
  Status s = encode_message(w, e, k18);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("exceeds 65535"), std::string::npos);
  EXPECT_EQ(buf, std::vector<uint8_t>{0xAA});  // nothing left behind
}

TEST(IetfStrict, NamespaceLimits) {
  // 33 fields.
  std::vector<uint8_t> body = {0x21};
  for (int i = 0; i < 33; ++i)
    body.insert(body.end(), {0x01, 'a'});
  expect_malformed(frame(0x08, body), k18, {"NAMESPACE", "33 fields"});
  // An empty field.
  expect_malformed(hex("08 00 03 02 00 00"), k22, {"NAMESPACE", "is empty"});
  // Full track name above 4096 bytes.
  Subscribe s;
  s.track_namespace.fields = {std::string(4000, 'n')};
  s.track_name = std::string(97, 't');
  std::vector<uint8_t> buf;
  Writer w(buf, kVarint);
  EXPECT_FALSE(encode_message(w, s, k18).ok());
  std::vector<uint8_t> raw;
  Writer rw(raw, kVarint);
  rw.varint(0);
  encode_namespace(rw, s.track_namespace);
  rw.string(s.track_name);
  rw.varint(0);
  expect_malformed(frame(0x03, raw), k18, {"SUBSCRIBE", "track name", "4096"});
  s.track_name.resize(96);
  EXPECT_TRUE(encode_message(w, s, k18).ok());
  // 32 fields is fine, for a prefix too.
  SubscribeNamespace sn;
  sn.prefix.fields.assign(32, "f");
  EXPECT_EQ(decode_control(encode(sn, k22), k22).status, DecodeStatus::Ok);
}

TEST(IetfStrict, ReasonAndUriLimits) {
  std::vector<uint8_t> body = {0x00, 0x00};
  std::vector<uint8_t> reason(1025, 'r');
  Writer w(body, kVarint);
  w.bytes(reason);
  expect_malformed(frame(0x0B, body), k18, {"PUBLISH_DONE", "reason phrase", "1025"});
  std::vector<uint8_t> goaway;
  Writer gw(goaway, kVarint);
  gw.bytes(std::vector<uint8_t>(8193, 'u'));
  gw.varint(0);
  expect_malformed(frame(0x10, goaway), k22, {"GOAWAY", "new session URI", "8193"});
}

TEST(IetfStrict, GoAwayRequestIdOnlyInDraft18) {
  expect_malformed(msg(0x10, "00 93 88 04"), k22, {"GOAWAY", "1 bytes after"});
  Decoded<ControlMessage> d = decode_control(msg(0x10, "00 93 88"), k18);  // request stream form
  ASSERT_EQ(d.status, DecodeStatus::Ok);
  EXPECT_FALSE(std::get<GoAway>(d.value).request_id);
}

TEST(IetfStrict, UnknownParameterClosesTheSession) {
  // SUBSCRIBE with parameter type 0x05 (undefined).
  expect_malformed(msg(0x03, "00 00 00 01 05 00 00 00"), k18,
                   {"SUBSCRIBE", "parameter type", "unknown parameter 5 (0x5)"});
  // 0x23 FILL_PARAMETERS and 0x35 INCLUDE_PROPERTIES are unknown in -18.
  expect_malformed(msg(0x03, "00 00 00 01 35 01"), k18, {"SUBSCRIBE", "unknown parameter"});
  EXPECT_EQ(decode_control(msg(0x03, "00 00 00 01 35 01"), k22).status, DecodeStatus::Ok);
}

TEST(IetfStrict, ParameterNotAllowedInMessage) {
  // RENDEZVOUS_TIMEOUT (0x04) in PUBLISH_NAMESPACE.
  expect_malformed(msg(0x06, "00 00 01 04 00"), k22,
                   {"PUBLISH_NAMESPACE", "RENDEZVOUS_TIMEOUT", "not allowed"});
  // FETCH_OK takes no parameters.
  expect_malformed(msg(0x18, "00 05 01 01 08 00"), k18, {"FETCH_OK", "EXPIRES", "not allowed"});
}

TEST(IetfStrict, RepeatedParameters) {
  // SUBSCRIBER_PRIORITY twice (second delta 0).
  expect_malformed(msg(0x03, "00 00 00 02 20 01 00 02"), k18,
                   {"SUBSCRIBE", "SUBSCRIBER_PRIORITY", "repeated"});
  // AUTHORIZATION_TOKEN may repeat.
  Decoded<ControlMessage> d = decode_control(msg(0x03, "00 00 00 02 03 02 03 00 00 02 03 01"), k18);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
  EXPECT_EQ(std::get<Subscribe>(d.value).params.authorization_tokens.size(), 2u);
  // Range filters may repeat (-22).
  d = decode_control(msg(0x03, "00 00 00 02 25 02 00 05 00 02 01 07"), k22);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
  EXPECT_EQ(std::get<Subscribe>(d.value).params.range_filters.size(), 2u);
}

TEST(IetfStrict, ParameterTypeOverflow) {
  expect_malformed(msg(0x03, "00 00 00 02 02 00 ff ff ff ff ff ff ff ff ff 00"), k18,
                   {"SUBSCRIBE", "parameter type"});
}

TEST(IetfStrict, ParameterValueRules) {
  expect_malformed(msg(0x03, "00 00 00 01 10 02"), k18, {"SUBSCRIBE", "FORWARD", "0 or 1"});
  expect_malformed(msg(0x03, "00 00 00 01 22 03"), k22, {"SUBSCRIBE", "GROUP_ORDER", "1 or 2"});
  expect_malformed(msg(0x03, "00 00 00 01 22 00"), k18, {"GROUP_ORDER"});
  expect_malformed(msg(0x03, "00 00 00 01 35 02"), k22, {"INCLUDE_PROPERTIES", "0 or 1"});
}

TEST(IetfStrict, SubscriptionFilterDraft18) {
  // Unknown type 5.
  expect_malformed(msg(0x03, "00 00 00 01 21 01 05"), k18,
                   {"SUBSCRIBE", "SUBSCRIPTION_FILTER", "unknown filter type"});
  // Length 2 for a type without fields: a byte left over.
  expect_malformed(msg(0x03, "00 00 00 01 21 02 01 00"), k18, {"SUBSCRIPTION_FILTER", "left over"});
  // Length 1 for AbsoluteStart: the start runs past the filter's length.
  expect_malformed(msg(0x03, "00 00 00 01 21 01 03 05 00"), k18,
                   {"SUBSCRIPTION_FILTER", "past the declared length"});
  // AbsoluteRange whose end group overflows.
  expect_malformed(
      msg(0x03, "00 00 00 01 21 14 04 ff ff ff ff ff ff ff ff ff 00 ff 00 00 00 00 00 00 00 01"),
      k18, {"SUBSCRIPTION_FILTER", "exceeds 2^64-1"});
}

TEST(IetfStrict, LocationFilterDraft22) {
  expect_malformed(msg(0x03, "00 00 00 01 21 06"), k22,
                   {"SUBSCRIBE", "LOCATION_FILTER", "unknown location filter type 6"});
  expect_malformed(msg(0x03, "00 00 00 01 21 03 ff ff ff ff ff ff ff ff ff 00 01"), k22,
                   {"LOCATION_FILTER", "exceeds 2^64-1"});
  // Type 0 stands alone; type 4 carries four fields.
  for (auto bytes : {msg(0x03, "00 00 00 01 21 00"), msg(0x03, "00 00 00 01 21 04 01 02 03 04")})
    EXPECT_EQ(decode_control(bytes, k22).status, DecodeStatus::Ok);
}

TEST(IetfStrict, FillParameters) {
  // FILL_PARAMETERS { FILL_TIMEOUT 5, LOCATION_FILTER type 1 start 1 }.
  auto ok = msg(0x03, "00 00 00 01 23 05 0a 05 17 01 01");
  Decoded<ControlMessage> d = decode_control(ok, k22);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
  const auto& fill = *std::get<Subscribe>(d.value).params.fill;
  EXPECT_EQ(fill.fill_timeout, 5u);
  EXPECT_EQ(fill.location_filter->type, LocationFilterType::RelativeStart);
  // A token (0x03) is not allowed inside.
  auto token = msg(0x03, "00 00 00 01 23 04 03 02 03 01");
  expect_malformed(token, k22, {"FILL_PARAMETERS", "not allowed inside"});
  // Nested FILL_PARAMETERS is not allowed either.
  auto nested = msg(0x03, "00 00 00 01 23 02 23 00");
  expect_malformed(nested, k22, {"FILL_PARAMETERS", "not allowed inside"});
  // Its contents must fill exactly its Length.
  auto overrun = msg(0x03, "00 00 00 01 23 01 0a 05");
  expect_malformed(overrun, k22, {"FILL_PARAMETERS"});
}

TEST(IetfStrict, RangeFilterShapes) {
  // SUBGROUP_FILTER Length 0 clears; Length 1 is a SetID with no ranges.
  Decoded<ControlMessage> d = decode_control(msg(0x02, "00 01 25 00"), k22);
  ASSERT_EQ(d.status, DecodeStatus::Ok);
  EXPECT_TRUE(std::get<RequestUpdate>(d.value).params.range_filters[0].clear);
  // OBJECT_PROPERTY_FILTER with SetID 3, property 0x3C, ranges [1,2] and [5, open].
  d = decode_control(msg(0x02, "00 01 28 05 03 3c 01 01 03"), k22);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
  const RangeFilter& f = std::get<RequestUpdate>(d.value).params.range_filters[0];
  EXPECT_EQ(f.set_id, 3);
  EXPECT_EQ(f.property_type, 0x3Cu);
  auto ranges = range_filter_ranges(f);
  ASSERT_TRUE(ranges.ok());
  EXPECT_EQ(*ranges, (std::vector<AbsoluteRange>{{1, 2}, {5, std::nullopt}}));
  // A range that overruns the filter's Length.
  expect_malformed(msg(0x02, "00 01 25 02 00 81"), k22, {"SUBGROUP_FILTER"});
  // TRACK_PROPERTY_FILTER is not allowed in SUBSCRIBE.
  expect_malformed(msg(0x03, "00 00 00 01 29 02 00 00"), k22,
                   {"TRACK_PROPERTY_FILTER", "not allowed"});
}

TEST(IetfStrict, RangeFilterSemanticsAreInvalidFilter) {
  const uint64_t invalid = uint64_t(RequestErrorCode::InvalidFilter);
  RangeFilter overflow;
  overflow.ranges = {{UINT64_MAX, 1}};
  EXPECT_EQ(range_filter_ranges(overflow).error().code, invalid);
  RangeFilter prio;
  prio.type = ParamType::PriorityFilter;
  prio.ranges = {{200, 100}};
  EXPECT_EQ(range_filter_ranges(prio).error().code, invalid);
  RangeFilter odd;
  odd.type = ParamType::ObjectPropertyFilter;
  odd.property_type = 0x0B;
  EXPECT_EQ(range_filter_ranges(odd).error().code, invalid);
  RangeFilter a;
  a.ranges = {{1, 1}};
  std::vector<RangeFilter> twice = {a, a};
  EXPECT_EQ(check_range_filters(twice).error().code, invalid);
  twice[1].set_id = 1;
  EXPECT_TRUE(check_range_filters(twice).ok());
  // The spec's example: ranges 3-5 and 10-15 are deltas 3, 2, 5, 5.
  const AbsoluteRange want[] = {{3, 5}, {10, 15}};
  auto built = make_range_filter(ParamType::SubgroupFilter, 0, 0, want);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(built->ranges, (std::vector<RangeFilter::Range>{{3, 2}, {5, 5}}));
  const AbsoluteRange open_middle[] = {{3, std::nullopt}, {10, 15}};
  EXPECT_FALSE(make_range_filter(ParamType::SubgroupFilter, 0, 0, open_middle).ok());
}

TEST(IetfStrict, TokensAreKeyValueFormattingErrors) {
  // Token alias type 4.
  expect_malformed(msg(0x03, "00 00 00 01 03 02 04 00"), k18, {"SUBSCRIBE", "token alias type"},
                   kKeyValueFormattingError);
  // USE_ALIAS with a byte after the alias.
  expect_malformed(msg(0x03, "00 00 00 01 03 03 02 01 07"), k22, {"SUBSCRIBE", "token"},
                   kKeyValueFormattingError);
  // REGISTER cut short inside the token's length.
  expect_malformed(msg(0x03, "00 00 00 01 03 02 01 07"), k22, {"SUBSCRIBE"},
                   kKeyValueFormattingError);
  // In SETUP as well.
  expect_malformed(msg(0x2F00, "03 01 05"), k18, {"SETUP", "token alias type"},
                   kKeyValueFormattingError);
}

TEST(IetfStrict, KeyValuePairRules) {
  // Odd KVP length above 65535.
  expect_malformed(msg(0x2F00, "09 c1 00 00 00"), k18, {"SETUP", "65535"});
  // Type overflow.
  expect_malformed(msg(0x2F00, "ff ff ff ff ff ff ff ff ff 00 ff ff ff ff ff ff ff ff ff 00"), k18,
                   {"SETUP", "exceeds 2^64-1"});
  // Duplicate known option vs duplicate unknown options.
  expect_malformed(msg(0x2F00, "01 01 61 00 01 62"), k22, {"SETUP", "PATH", "repeated"});
  Decoded<ControlMessage> d = decode_control(msg(0x2F00, "0b 01 61 00 01 62"), k22);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
  EXPECT_EQ(std::get<ietf::Setup>(d.value).unknown_options.size(), 2u);
}

TEST(IetfStrict, TrackPropertyValues) {
  // SUBSCRIBE_OK with DEFAULT_PUBLISHER_GROUP_ORDER 3.
  expect_malformed(msg(0x04, "00 00 22 03"), k18,
                   {"SUBSCRIBE_OK", "track properties", "GROUP_ORDER"});
  // DEFAULT_PUBLISHER_PRIORITY 256.
  expect_malformed(msg(0x04, "00 00 0e 81 00"), k22, {"DEFAULT_PUBLISHER_PRIORITY"},
                   kKeyValueFormattingError);
  // DYNAMIC_GROUPS 2.
  expect_malformed(msg(0x1d, "00 00 00 00 00 30 02"), k18, {"PUBLISH", "DYNAMIC_GROUPS"});
  // IMMUTABLE_PROPERTIES holding IMMUTABLE_PROPERTIES.
  expect_malformed(msg(0x18, "00 00 00 00 0b 04 0b 02 0e 01"), k22,
                   {"FETCH_OK", "IMMUTABLE_PROPERTIES"}, kKeyValueFormattingError);
  // IMMUTABLE_PROPERTIES that do not parse.
  expect_malformed(msg(0x07, "00 0b 01 05"), k18, {"REQUEST_OK", "IMMUTABLE_PROPERTIES"},
                   kKeyValueFormattingError);
  // Unknown and mandatory-range properties pass the codec (the session decides).
  EXPECT_EQ(decode_control(msg(0x04, "00 00 c0 40 00 01"), k22).status, DecodeStatus::Ok);
  EXPECT_TRUE(is_mandatory_track_property(0x4000));
}

TEST(IetfStrict, RequestErrorRedirect) {
  // REDIRECT with a Redirect structure.
  Decoded<ControlMessage> d = decode_control(msg(0x05, "34 00 00 01 61 01 01 62 00"), k18);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error.message;
  EXPECT_EQ(std::get<RequestError>(d.value).redirect->connect_uri, "a");
  // REDIRECT without one.
  expect_malformed(msg(0x05, "34 00 00"), k22, {"REQUEST_ERROR", "redirect"});
  // A redirect on another code is refused on encode.
  std::vector<uint8_t> buf;
  Writer w(buf, kVarint);
  EXPECT_FALSE(encode_message(w, RequestError{1, 0, "", Redirect{}}, k18).ok());
}

TEST(IetfStrict, FetchFieldRules) {
  expect_malformed(msg(0x16, "02 04 00"), k18, {"FETCH", "fetch type", "unknown fetch type"});
  expect_malformed(msg(0x18, "02 05 02 00"), k22, {"FETCH_OK", "end of track"});
}

TEST(IetfStrict, RequestOkScopesAreCheckedBySession) {
  RequestOk ok;
  ok.params.largest_object = Location{1, 1};
  EXPECT_TRUE(check_request_ok(ok, ParamScope::TrackStatusOk, k22).ok());
  EXPECT_TRUE(check_request_ok(ok, ParamScope::UpdateOk, k22).ok());
  EXPECT_FALSE(check_request_ok(ok, ParamScope::PublishOk, k22).ok());
  EXPECT_FALSE(check_request_ok(ok, ParamScope::NamespaceOk, k18).ok());
  RequestOk props;
  props.track_properties = {KeyValuePair::integer(0x04, 1)};
  EXPECT_TRUE(check_request_ok(props, ParamScope::TrackStatusOk, k18).ok());
  Status s = check_request_ok(props, ParamScope::PublishOk, k18);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("PUBLISH_OK"), std::string::npos);
  // -18 PUBLISH_OK may carry subscription parameters; -22 may not.
  RequestOk pub_ok;
  pub_ok.params.forward = false;
  EXPECT_EQ(check_request_ok(pub_ok, ParamScope::PublishOk, k18).ok(),
            publish_ok_has_subscription_params(k18));
  EXPECT_EQ(check_request_ok(pub_ok, ParamScope::PublishOk, k22).ok(),
            publish_ok_has_subscription_params(k22));
}

TEST(IetfStrict, ParamScopesPerDraft) {
  MessageParams p;
  p.forward = true;
  EXPECT_FALSE(check_params(p, ParamScope::UpdateSubscribeTracks, k18, "REQUEST_UPDATE").ok());
  EXPECT_TRUE(check_params(p, ParamScope::UpdateSubscribeTracks, k22, "REQUEST_UPDATE").ok());
  EXPECT_TRUE(check_params(p, ParamScope::PublishStateNotify, k22, "PUBLISH_STATE_NOTIFY").ok());
  MessageParams order;
  order.group_order = GroupOrder::Ascending;
  EXPECT_FALSE(check_params(order, ParamScope::SubscribeTracks, k18, "SUBSCRIBE_TRACKS").ok());
  EXPECT_TRUE(check_params(order, ParamScope::SubscribeTracks, k22, "SUBSCRIBE_TRACKS").ok());
  EXPECT_TRUE(check_params(order, ParamScope::Fill, k22, "FILL").ok());
  MessageParams bad_order;
  bad_order.group_order = GroupOrder(3);
  EXPECT_FALSE(check_params(bad_order, ParamScope::Subscribe, k22, "SUBSCRIBE").ok());
}

TEST(IetfStrict, CodeRegistries) {
  EXPECT_STREQ(request_error_name(0x19, k18), "DUPLICATE_SUBSCRIPTION");
  EXPECT_EQ(request_error_name(0x19, k22), nullptr);
  EXPECT_STREQ(request_error_name(0x32, k18), "INVALID_JOINING_REQUEST_ID");
  EXPECT_EQ(request_error_name(0x32, k22), nullptr);
  EXPECT_STREQ(request_error_name(0x36, k22), "INVALID_FILTER");
  EXPECT_EQ(request_error_name(0x35, k18), nullptr);
  EXPECT_STREQ(session_error_name(0x1B, k22), "TOO_MANY_REQUEST_UPDATES");
  EXPECT_EQ(session_error_name(0x1B, k18), nullptr);
  EXPECT_EQ(effective_request_error(0x9D, k22), 0u);  // grease means INTERNAL_ERROR
  EXPECT_EQ(effective_session_error(0x9D, k18), 1u);
  EXPECT_EQ(effective_publish_done_status(0x7, k18), 0u);
  EXPECT_EQ(effective_stream_reset_code(0x7, k18), 0x7u);
  EXPECT_STREQ(stream_reset_code_name(0x1, k22), "CANCELLED");
  EXPECT_STREQ(publish_done_status_name(0x5, k22), "TOO_FAR_BEHIND");
  EXPECT_TRUE(is_grease(0x9D));
  EXPECT_TRUE(is_grease(0x11C));
  EXPECT_FALSE(is_grease(0x11D));
}

TEST(IetfStrict, VersionsAndPredicates) {
  EXPECT_EQ(alpn(k18), "moqt-18");
  EXPECT_EQ(alpn(k22), "moqt-22");
  EXPECT_EQ(version_from_alpn("moqt-22"), k22);
  EXPECT_EQ(version_from_alpn("moqt-18"), k18);
  EXPECT_FALSE(version_from_alpn("moqt-19"));
  EXPECT_EQ(version_id(k18), 0xff000012u);
  EXPECT_EQ(version_id(k22), 0xff000016u);
  EXPECT_TRUE(goaway_has_request_id(k18) && !goaway_has_request_id(k22));
  EXPECT_TRUE(fetch_has_fetch_type(k18) && !fetch_has_fetch_type(k22));
  EXPECT_TRUE(!fetch_ok_end_is_inclusive(k18) && fetch_ok_end_is_inclusive(k22));
  EXPECT_TRUE(!has_fill(k18) && has_fill(k22));
  EXPECT_TRUE(!location_filter_is_typed(k18) && location_filter_is_typed(k22));
  EXPECT_TRUE(!has_timed_out_range_marker(k18) && has_timed_out_range_marker(k22));
  EXPECT_TRUE(!allows_duplicate_subscriptions(k18) && allows_duplicate_subscriptions(k22));
  EXPECT_TRUE(is_request_opener(MessageType::Fetch));
  EXPECT_TRUE(is_request_opener(MessageType::SubscribeTracks));
  EXPECT_FALSE(is_request_opener(MessageType::RequestUpdate));
  EXPECT_FALSE(is_request_opener(MessageType::SubscribeOk));
}

}  // namespace
}  // namespace moq::wire::ietf::test
