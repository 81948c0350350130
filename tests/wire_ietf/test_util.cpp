#include "tests/wire_ietf/test_util.h"

#include <gtest/gtest.h>

namespace moq::wire::ietf::test {

std::vector<uint8_t> hex(std::string_view text) {
  std::vector<uint8_t> out;
  int nibble = -1;
  for (char c : text) {
    int v;
    if (c >= '0' && c <= '9') {
      v = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v = c - 'A' + 10;
    } else {
      continue;
    }
    if (nibble < 0) {
      nibble = v;
    } else {
      out.push_back(static_cast<uint8_t>(nibble << 4 | v));
      nibble = -1;
    }
  }
  return out;
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr const char* kDigits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i) out += ' ';
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

std::vector<uint8_t> encode(const ControlMessage& m, IetfVersion v) {
  std::vector<uint8_t> buf;
  Writer w(buf, kVarint);
  Status s = encode_control(w, m, v);
  EXPECT_TRUE(s.ok()) << control_name(m, v) << ": " << s.error().message;
  return buf;
}

std::vector<uint8_t> sample_properties() {
  return hex("04 81 00 0d 03 61 62 63");
}

namespace {

TrackNamespace ns(std::initializer_list<const char*> fields) {
  TrackNamespace out;
  for (const char* f : fields)
    out.fields.emplace_back(f);
  return out;
}

Properties track_props() {
  return {KeyValuePair::integer(0x04, 5000), KeyValuePair::data(0x0B, "\x0e\x40\x02\x05"),
          KeyValuePair::integer(0x0E, 200),  KeyValuePair::integer(0x22, 2),
          KeyValuePair::integer(0x30, 1),    KeyValuePair::data(0x9D, "grease")};
}

Token register_token() {
  Token t;
  t.alias_type = TokenAliasType::Register;
  t.alias = 7;
  t.token_type = 1;
  t.value = "secret";
  return t;
}

Token alias_token(TokenAliasType type) {
  Token t;
  t.alias_type = type;
  t.alias = 9;
  return t;
}

Token value_token() {
  Token t;
  t.token_type = 0x9D;
  t.value = std::string(300, 'x');
  return t;
}

std::vector<RangeFilter> range_filters(bool with_track_filter) {
  std::vector<RangeFilter> out;
  RangeFilter sub;
  sub.type = ParamType::SubgroupFilter;
  sub.set_id = 1;
  sub.ranges = {{3, 2}, {5, 5}};
  out.push_back(sub);
  RangeFilter obj;
  obj.type = ParamType::ObjectIdFilter;
  obj.set_id = 1;
  obj.open_start_delta = 100;
  out.push_back(obj);
  RangeFilter obj2 = obj;
  obj2.set_id = 2;
  obj2.ranges = {{0, 0}};
  out.push_back(obj2);
  RangeFilter prio;
  prio.type = ParamType::PriorityFilter;
  prio.clear = true;
  out.push_back(prio);
  RangeFilter prop;
  prop.type = ParamType::ObjectPropertyFilter;
  prop.set_id = 255;
  prop.property_type = 0x3C;
  prop.ranges = {{1, 1000}};
  out.push_back(prop);
  if (with_track_filter) {
    RangeFilter track;
    track.type = ParamType::TrackPropertyFilter;
    track.property_type = 0x30;
    track.ranges = {{1, 0}};
    out.push_back(track);
  }
  return out;
}

LocationFilter location_filter(LocationFilterType t) {
  LocationFilter f;
  f.type = t;
  const auto n = uint8_t(t);
  if (n >= 1 && n <= 4) f.start_group = 1000;
  if (n >= 2 && n <= 4) f.start_object = 7;
  if (n >= 3 && n <= 4) f.end_group_delta = 20;
  if (n == 4) f.end_object = 300;
  return f;
}

SubscriptionFilter subscription_filter(SubscriptionFilterType t) {
  SubscriptionFilter f;
  f.type = t;
  if (t == SubscriptionFilterType::AbsoluteStart || t == SubscriptionFilterType::AbsoluteRange)
    f.start = {70000, 3};
  if (t == SubscriptionFilterType::AbsoluteRange) f.end_group_delta = 9;
  return f;
}

MessageParams subscribe_params(IetfVersion v, int variant) {
  MessageParams p;
  p.object_delivery_timeout = 1500;
  p.authorization_tokens = {register_token(), value_token()};
  p.rendezvous_timeout = 0;
  if (has_draft18_parameters(v)) p.subgroup_delivery_timeout = 30000;
  p.forward = variant % 2 == 0;
  p.subscriber_priority = 0xFF;
  p.group_order = variant % 2 ? GroupOrder::Descending : GroupOrder::Ascending;
  p.new_group_request = 0;
  if (location_filter_is_typed(v)) {
    p.location_filter = location_filter(LocationFilterType(variant % 6));
    FillParameters fill;
    fill.fill_timeout = 250;
    fill.subscriber_priority = 3;
    fill.location_filter = location_filter(LocationFilterType::RelativeStart);
    fill.group_order = GroupOrder::Ascending;
    fill.range_filters = range_filters(false);
    p.fill = fill;
    p.range_filters = range_filters(false);
    p.include_properties = variant % 2 == 1;
  } else {
    p.subscription_filter = subscription_filter(SubscriptionFilterType(1 + variant % 4));
  }
  return p;
}

MessageParams update_params(IetfVersion v) {
  MessageParams p;
  p.object_delivery_timeout = 10;
  p.authorization_tokens = {alias_token(TokenAliasType::UseAlias),
                            alias_token(TokenAliasType::Delete)};
  p.forward = false;
  p.subscriber_priority = 1;
  p.new_group_request = 77;
  if (has_draft18_parameters(v)) {
    p.subgroup_delivery_timeout = 20;
    p.track_namespace_prefix = ns({"bench", "room"});
  }
  if (location_filter_is_typed(v)) {
    p.location_filter = location_filter(LocationFilterType::None);
    FillParameters fill;
    fill.location_filter = location_filter(LocationFilterType::AbsoluteRange);
    p.fill = fill;
    p.range_filters = range_filters(true);
  } else {
    p.subscription_filter = subscription_filter(SubscriptionFilterType::AbsoluteStart);
  }
  return p;
}

}  // namespace

std::vector<ControlMessage> sample_messages(IetfVersion v) {
  // Parameters that only the later draft's scope table allows (model/wire/ietf/param_scopes.cpp);
  // the layout differences below use the codec's own predicates (version.h).
  const bool later_params = has_range_filters(v);
  std::vector<ControlMessage> out;

  Setup client;
  client.path = "/moq?x=1";
  client.authority = "relay.example:443";
  client.implementation = "moqbench/0.1";
  client.authorization_tokens = {register_token(), value_token()};
  client.max_auth_token_cache_size = 4096;
  if (has_limit_setup_options(v)) {
    client.max_filter_ranges = 16;
    client.max_request_updates = 0;
  }
  client.unknown_options = {KeyValuePair::data(0x9D, "grease"), KeyValuePair::data(0x9D, ""),
                            KeyValuePair::integer(0x11C, 1u << 20)};
  out.push_back(client);
  out.push_back(Setup{});

  out.push_back(
      GoAway{"", 5000, goaway_has_request_id(v) ? std::optional<uint64_t>(4) : std::nullopt});
  out.push_back(GoAway{"moqt://other.example/moq", 0, std::nullopt});

  for (int variant = 0; variant < 6; ++variant) {
    Subscribe s;
    s.request_id = 2 * variant;
    s.track_namespace = ns({"bench", "room1", "alice"});
    s.track_name = variant == 0 ? "" : "video";
    s.params = subscribe_params(v, variant);
    out.push_back(s);
  }
  out.push_back(Subscribe{0, TrackNamespace{}, "t0", MessageParams{}});

  SubscribeOk ok;
  ok.track_alias = 300;
  ok.params.expires = 60000;
  ok.params.largest_object = Location{4, 9};
  ok.track_properties = track_props();
  out.push_back(ok);
  out.push_back(SubscribeOk{});

  out.push_back(RequestUpdate{8, update_params(v)});
  out.push_back(RequestUpdate{10, MessageParams{}});

  Publish pub;
  pub.request_id = 1;
  pub.track_namespace = ns({"bench"});
  pub.track_name = "audio";
  pub.track_alias = 1u << 30;
  pub.params.authorization_tokens = {value_token()};
  pub.params.expires = 1;
  pub.params.largest_object = Location{UINT64_MAX, UINT64_MAX};
  pub.params.forward = false;
  if (later_params) {
    pub.params.object_delivery_timeout = 3;
    pub.params.subgroup_delivery_timeout = 4;
    pub.params.subscriber_priority = 5;
    pub.params.location_filter = location_filter(LocationFilterType::NextObject);
    pub.params.group_order = GroupOrder::Descending;
  }
  pub.track_properties = track_props();
  out.push_back(pub);

  out.push_back(PublishDone{uint64_t(PublishDoneStatus::SubscriptionEnded), 3, ""});
  out.push_back(PublishDone{0x11C, kUnknownStreamCount, std::string(1024, 'r')});

  if (has_publish_state_notify(v)) {
    PublishStateNotify n;
    n.params.largest_object = Location{9, 0};
    n.params.forward = true;
    n.params.location_filter = location_filter(LocationFilterType::AbsoluteRangeEnd);
    out.push_back(n);
    out.push_back(PublishStateNotify{});
  }

  Fetch standalone;
  standalone.request_id = 2;
  standalone.track_namespace = ns({"bench"});
  standalone.track_name = "t0";
  standalone.params.authorization_tokens = {register_token()};
  if (has_draft18_parameters(v)) standalone.params.fill_timeout = 100;
  standalone.params.subscriber_priority = 9;
  standalone.params.group_order = GroupOrder::Descending;
  if (!fetch_has_fetch_type(v)) {
    standalone.params.location_filter = location_filter(LocationFilterType::AbsoluteRange);
    standalone.params.range_filters = range_filters(false);
    standalone.params.include_properties = false;
  } else {
    standalone.start = {5, 0};
    standalone.end = {5, 0};
  }
  out.push_back(standalone);
  if (fetch_has_fetch_type(v)) {
    Fetch joining;
    joining.request_id = 4;
    joining.fetch_type = FetchType::RelativeJoining;
    joining.joining_request_id = 0;
    joining.joining_start = 2;
    out.push_back(joining);
    joining.fetch_type = FetchType::AbsoluteJoining;
    joining.joining_start = uint64_t{1} << 40;
    out.push_back(joining);
  }

  FetchOk fok;
  fok.end_of_track = true;
  fok.end = {5, 2};
  fok.track_properties = track_props();
  out.push_back(fok);
  out.push_back(FetchOk{});

  TrackStatus ts;
  ts.request_id = 12;
  ts.track_namespace = ns({"a"});
  ts.track_name = "b";
  ts.params.authorization_tokens = {value_token()};
  if (has_include_properties(v)) ts.params.include_properties = true;
  out.push_back(ts);

  RequestOk rok;
  rok.params.largest_object = Location{1, 2};
  rok.params.expires = 9;
  rok.track_properties = track_props();
  out.push_back(rok);
  if (publish_ok_has_subscription_params(v)) {
    RequestOk pub_ok;  // -18 PUBLISH_OK carries the subscriber's delivery preferences
    pub_ok.params.subscriber_priority = 1;
    pub_ok.params.forward = true;
    pub_ok.params.subscription_filter = subscription_filter(SubscriptionFilterType::LargestObject);
    pub_ok.params.group_order = GroupOrder::Ascending;
    out.push_back(pub_ok);
  }
  out.push_back(RequestOk{});

  out.push_back(RequestError{uint64_t(RequestErrorCode::DoesNotExist), 0, "no", std::nullopt});
  if (request_error_has_redirect(v)) {
    RequestError redirect;
    redirect.error_code = uint64_t(RequestErrorCode::Redirect);
    redirect.retry_interval = 1001;
    redirect.reason = "moved";
    redirect.redirect = Redirect{"moqt://b.example", ns({"x", "y"}), "z"};
    out.push_back(redirect);
    RequestError same;
    same.error_code = uint64_t(RequestErrorCode::Redirect);
    same.redirect = Redirect{};
    out.push_back(same);
  } else {
    // -17: code 0x34 is an ordinary code with no Redirect after the reason.
    out.push_back(RequestError{uint64_t(RequestErrorCode::Redirect), 1001, "moved", std::nullopt});
  }

  PublishNamespace pn;
  pn.request_id = 4;
  pn.track_namespace = ns({"bench", "room1"});
  pn.params.authorization_tokens = {value_token()};
  out.push_back(pn);

  out.push_back(Namespace{ns({"room1"})});
  out.push_back(Namespace{TrackNamespace{}});
  out.push_back(NamespaceDone{ns({"room1", "x"})});

  SubscribeNamespace sn;
  sn.request_id = 6;
  sn.prefix = ns({"bench"});
  sn.params.authorization_tokens = {alias_token(TokenAliasType::UseAlias)};
  out.push_back(sn);
  out.push_back(SubscribeNamespace{8, TrackNamespace{}, MessageParams{}});
  if (subscribe_namespace_has_options(v)) {
    out.push_back(SubscribeNamespace{12, ns({"b"}), {}, SubscribeOptions::Publish});
    out.push_back(SubscribeNamespace{14, ns({"b"}), {}, SubscribeOptions::Both});
    out.push_back(PublishBlocked{ns({"room1"}), "video"});
    return out;  // no SUBSCRIBE_TRACKS in -17
  }

  SubscribeTracks st;
  st.request_id = 10;
  st.prefix = ns({"bench", "room1"});
  st.params.forward = false;
  if (later_params) {
    st.params.group_order = GroupOrder::Descending;
    st.params.range_filters = range_filters(true);
    st.params.include_properties = false;
  }
  out.push_back(st);

  out.push_back(PublishBlocked{ns({"room1"}), "video"});
  return out;
}

}  // namespace moq::wire::ietf::test
