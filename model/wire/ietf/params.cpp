// Message Parameters (params.h) in one file past 600 lines: encoding and decoding are one switch
// each over every parameter of every draft, and each parameter's two cases read against each
// other (and against the draft-17 parity form, 17.10); a split by direction would part them.
#include "model/wire/ietf/params.h"

#include "model/wire/ietf/describe_value.h"
#include "model/wire/ietf/field_error.h"

namespace moq::wire::ietf {

namespace {

bool is_repeatable(uint64_t t) {
  return t == param_code(ParamType::AuthorizationToken) || is_range_filter_type(t);
}

const char* name_or_type(uint64_t type, IetfVersion v) {
  const char* n = param_type_name(type, v);
  return n ? n : "parameter";
}

// A parameter that may be sent in `allowed` under v, and the error naming one that may not.
bool sendable(uint64_t type, ParamMask allowed, IetfVersion v) {
  return param_type_name(type, v) && (allowed & param_bit(type));
}
Error not_sendable(uint64_t type, IetfVersion v, const char* message) {
  if (!param_type_name(type, v))
    return make_error(message, name_or_type(type, IetfVersion::Draft22),
                      std::string("not defined in ") + version_name(v));
  return make_error(message, name_or_type(type, v), "not allowed in this message");
}

}  // namespace

// ---- Count ----

size_t MessageParams::count(IetfVersion v) const {
  size_t n = authorization_tokens.size() + range_filters.size();
  n += object_delivery_timeout.has_value() + rendezvous_timeout.has_value() +
       subgroup_delivery_timeout.has_value() + expires.has_value() + largest_object.has_value() +
       fill_timeout.has_value() + forward.has_value() + subscriber_priority.has_value() +
       group_order.has_value() + fill.has_value() + new_group_request.has_value() +
       track_namespace_prefix.has_value() + include_properties.has_value();
  n += location_filter_is_typed(v) ? location_filter.has_value() : subscription_filter.has_value();
  return n;
}

bool MessageParams::empty() const {
  return count(IetfVersion::Draft18) == 0 && count(IetfVersion::Draft22) == 0;
}

// ---- Encoding ----

namespace {

// 17.10: a one-byte parameter (FORWARD, SUBSCRIBER_PRIORITY, GROUP_ORDER, INCLUDE_PROPERTIES) is a
// uint8 in -18 / -22 and, in @moq/lite's -17, a varint like every even type.
void put_byte_param(Writer& w, uint8_t value, IetfVersion v) {
  if (params_by_parity(v)) {
    w.varint(value);
  } else {
    w.u8(value);
  }
}

struct TypeWriter {
  Writer& w;
  uint64_t prev = 0;
  void type(uint64_t t) {
    w.varint(t - prev);
    prev = t;
  }
};

void encode_location_filter(Writer& w, const LocationFilter& f) {
  w.varint(uint64_t(f.type));
  switch (f.type) {
    case LocationFilterType::None:
    case LocationFilterType::NextObject:
      break;
    case LocationFilterType::RelativeStart:
      w.varint(f.start_group);
      break;
    case LocationFilterType::AbsoluteStart:
      w.varint(f.start_group);
      w.varint(f.start_object);
      break;
    case LocationFilterType::AbsoluteRange:
      w.varint(f.start_group);
      w.varint(f.start_object);
      w.varint(f.end_group_delta);
      break;
    case LocationFilterType::AbsoluteRangeEnd:
      w.varint(f.start_group);
      w.varint(f.start_object);
      w.varint(f.end_group_delta);
      w.varint(f.end_object);
      break;
  }
}

void encode_subscription_filter(Writer& w, const SubscriptionFilter& f) {
  const size_t mark = w.begin_length();
  w.varint(uint64_t(f.type));
  if (f.type == SubscriptionFilterType::AbsoluteStart ||
      f.type == SubscriptionFilterType::AbsoluteRange)
    encode_location(w, f.start);
  if (f.type == SubscriptionFilterType::AbsoluteRange) w.varint(f.end_group_delta);
  w.end_length(mark);
}

void encode_range_filter(Writer& w, const RangeFilter& f) {
  const size_t mark = w.begin_length();
  if (!f.clear) {
    w.u8(f.set_id);
    if (has_property_type(param_code(f.type))) w.varint(f.property_type);
    for (const auto& r : f.ranges) {
      w.varint(r.start_delta);
      w.varint(r.end_delta);
    }
    if (f.open_start_delta) w.varint(*f.open_start_delta);
  }
  w.end_length(mark);
}

void encode_range_filters(TypeWriter& tw, const std::vector<RangeFilter>& filters, uint64_t first,
                          uint64_t last) {
  for (uint64_t t = first; t <= last; ++t)
    for (const auto& f : filters)
      if (param_code(f.type) == t) {
        tw.type(t);
        encode_range_filter(tw.w, f);
      }
}

void encode_fill(Writer& w, const FillParameters& f) {
  const size_t mark = w.begin_length();
  TypeWriter tw{w};
  if (f.fill_timeout) {
    tw.type(param_code(ParamType::FillTimeout));
    w.varint(*f.fill_timeout);
  }
  if (f.subscriber_priority) {
    tw.type(param_code(ParamType::SubscriberPriority));
    w.u8(*f.subscriber_priority);
  }
  if (f.location_filter) {
    tw.type(param_code(ParamType::LocationFilter));
    encode_location_filter(w, *f.location_filter);
  }
  if (f.group_order) {
    tw.type(param_code(ParamType::GroupOrder));
    w.u8(uint8_t(*f.group_order));
  }
  encode_range_filters(tw, f.range_filters, param_code(ParamType::SubgroupFilter),
                       param_code(ParamType::ObjectPropertyFilter));
  w.end_length(mark);
}

}  // namespace

void encode_params(Writer& w, const MessageParams& p, IetfVersion v) {
  w.varint(p.count(v));
  TypeWriter tw{w};
  if (p.object_delivery_timeout) {
    tw.type(param_code(ParamType::ObjectDeliveryTimeout));
    w.varint(*p.object_delivery_timeout);
  }
  for (const auto& t : p.authorization_tokens) {
    tw.type(param_code(ParamType::AuthorizationToken));
    const size_t mark = w.begin_length();
    encode_token(w, t);
    w.end_length(mark);
  }
  if (p.rendezvous_timeout) {
    tw.type(param_code(ParamType::RendezvousTimeout));
    w.varint(*p.rendezvous_timeout);
  }
  if (p.subgroup_delivery_timeout) {
    tw.type(param_code(ParamType::SubgroupDeliveryTimeout));
    w.varint(*p.subgroup_delivery_timeout);
  }
  if (p.expires) {
    tw.type(param_code(ParamType::Expires));
    w.varint(*p.expires);
  }
  if (p.largest_object) {
    tw.type(param_code(ParamType::LargestObject));
    // 17.10: an odd type, so -17 (as @moq/lite writes it) puts a length before the Location.
    const size_t mark = params_by_parity(v) ? w.begin_length() : 0;
    encode_location(w, *p.largest_object);
    if (params_by_parity(v)) w.end_length(mark);
  }
  if (p.fill_timeout) {
    tw.type(param_code(ParamType::FillTimeout));
    w.varint(*p.fill_timeout);
  }
  if (p.forward) {
    tw.type(param_code(ParamType::Forward));
    put_byte_param(w, *p.forward ? 1 : 0, v);
  }
  if (p.subscriber_priority) {
    tw.type(param_code(ParamType::SubscriberPriority));
    put_byte_param(w, *p.subscriber_priority, v);
  }
  if (location_filter_is_typed(v)) {
    if (p.location_filter) {
      tw.type(param_code(ParamType::LocationFilter));
      encode_location_filter(w, *p.location_filter);
    }
  } else if (p.subscription_filter) {
    tw.type(param_code(ParamType::LocationFilter));
    encode_subscription_filter(w, *p.subscription_filter);
  }
  if (p.group_order) {
    tw.type(param_code(ParamType::GroupOrder));
    put_byte_param(w, uint8_t(*p.group_order), v);
  }
  if (p.fill) {
    tw.type(param_code(ParamType::FillParameters));
    encode_fill(w, *p.fill);
  }
  encode_range_filters(tw, p.range_filters, param_code(ParamType::SubgroupFilter),
                       param_code(ParamType::TrackPropertyFilter));
  if (p.new_group_request) {
    tw.type(param_code(ParamType::NewGroupRequest));
    w.varint(*p.new_group_request);
  }
  if (p.track_namespace_prefix) {
    tw.type(param_code(ParamType::TrackNamespacePrefix));
    encode_namespace(w, *p.track_namespace_prefix);
  }
  if (p.include_properties) {
    tw.type(param_code(ParamType::IncludeProperties));
    put_byte_param(w, *p.include_properties ? 1 : 0, v);
  }
}

// ---- Decoding ----

namespace {

// A one-byte parameter: a uint8, or under -17 a varint that must fit one (17.10).
uint8_t read_byte_param(Reader& r, const char* name, IetfVersion v) {
  if (!params_by_parity(v)) return r.u8(name);
  const uint64_t x = r.varint(name);
  if (r.ok() && x > 255) r.fail(name, "value " + describe_value(x) + " does not fit 8 bits");
  return static_cast<uint8_t>(x);
}

uint8_t read_flag(Reader& r, const char* name, IetfVersion v) {
  const uint8_t b = read_byte_param(r, name, v);
  if (r.ok() && b > 1) r.fail(name, "value " + std::to_string(b) + ", must be 0 or 1");
  return b;
}

GroupOrder read_group_order(Reader& r, IetfVersion v) {
  const uint8_t b = read_byte_param(r, "GROUP_ORDER", v);
  if (r.ok() && b != 1 && b != 2)
    r.fail("GROUP_ORDER", "value " + std::to_string(b) + ", must be 1 or 2");
  return GroupOrder(b);
}

// 17.10: under -17 LARGEST_OBJECT is an odd type with a length, which must hold the Location
// exactly.
Location read_largest_object(Reader& r, const char* name, IetfVersion v) {
  if (!params_by_parity(v)) return decode_location(r, name, name);
  const uint64_t len = r.varint(name);
  if (!r.ok()) return {};
  Reader c = r.child(name, len);
  if (!r.ok()) return {};
  const Location loc = decode_location(c, name, name);
  if (c.ok()) c.expect_end(name);
  r.adopt(c, name);
  return loc;
}

LocationFilter read_location_filter(Reader& r) {
  LocationFilter f;
  constexpr const char* kName = "LOCATION_FILTER";
  const uint64_t t = r.varint(kName);
  if (!r.ok()) return f;
  if (t > 5) {
    r.fail(kName, "unknown location filter type " + describe_value(t));
    return f;
  }
  f.type = LocationFilterType(t);
  if (t >= 1 && t <= 4) f.start_group = r.varint(kName);
  if (t >= 2 && t <= 4) f.start_object = r.varint(kName);
  if (t >= 3 && t <= 4) {
    f.end_group_delta = r.varint(kName);
    if (r.ok() && f.end_group_delta > UINT64_MAX - f.start_group)
      r.fail(kName, "StartGroup " + describe_value(f.start_group) + " + EndGroupDelta " +
                        describe_value(f.end_group_delta) + " exceeds 2^64-1");
  }
  if (t == 4) f.end_object = r.varint(kName);
  return f;
}

SubscriptionFilter read_subscription_filter(Reader& r) {
  SubscriptionFilter f;
  constexpr const char* kName = "SUBSCRIPTION_FILTER";
  const uint64_t len = r.varint(kName);
  if (!r.ok()) return f;
  Reader c = r.child(kName, len);
  if (!r.ok()) return f;
  const uint64_t t = c.varint(kName);
  if (c.ok() && (t < 1 || t > 4)) c.fail(kName, "unknown filter type " + describe_value(t));
  if (c.ok()) {
    f.type = SubscriptionFilterType(t);
    if (t >= 3) f.start = decode_location(c, kName, kName);
    if (t == 4) {
      f.end_group_delta = c.varint(kName);
      if (c.ok() && f.end_group_delta > UINT64_MAX - f.start.group)
        c.fail(kName, "start group " + describe_value(f.start.group) + " + end group delta " +
                          describe_value(f.end_group_delta) + " exceeds 2^64-1");
    }
    c.expect_end(kName);
  }
  r.adopt(c, kName);
  return f;
}

RangeFilter read_range_filter(Reader& r, uint64_t type, const char* name) {
  RangeFilter f;
  f.type = ParamType(type);
  const uint64_t len = r.varint(name);
  if (!r.ok()) return f;
  if (len == 0) {
    f.clear = true;
    return f;
  }
  Reader c = r.child(name, len);
  if (!r.ok()) return f;
  f.set_id = c.u8(name);
  if (has_property_type(type)) f.property_type = c.varint(name);
  while (c.ok() && !c.at_end()) {
    const uint64_t start = c.varint(name);
    if (!c.ok()) break;
    if (c.at_end()) {
      f.open_start_delta = start;
      break;
    }
    const uint64_t end = c.varint(name);
    if (c.ok()) f.ranges.push_back({start, end});
  }
  r.adopt(c, name);
  return f;
}

void read_param_value(Reader& r, uint64_t type, MessageParams& p, IetfVersion v);

FillParameters read_fill(Reader& r, IetfVersion v) {
  FillParameters f;
  constexpr const char* kName = "FILL_PARAMETERS";
  const uint64_t len = r.varint(kName);
  if (!r.ok()) return f;
  Reader c = r.child(kName, len);
  if (!r.ok()) return f;
  const ParamMask allowed = allowed_params(ParamScope::Fill, v);
  MessageParams inner;
  uint64_t prev = 0;
  bool first = true;
  while (c.ok() && !c.at_end()) {
    const uint64_t delta = c.varint(kName);
    if (!c.ok()) break;
    if (delta > UINT64_MAX - prev) {
      c.fail(kName, "nested parameter type overflows 2^64-1");
      break;
    }
    const uint64_t type = prev + delta;
    if (!first && delta == 0 && !is_repeatable(type)) {
      c.fail(kName, std::string("nested ") + name_or_type(type, v) + " repeated");
      break;
    }
    if (!(allowed & param_bit(type)) || !param_type_name(type, v)) {
      c.fail(kName, "nested parameter type " + describe_value(type) +
                        " is not allowed inside FILL_PARAMETERS");
      break;
    }
    prev = type;
    first = false;
    read_param_value(c, type, inner, v);
  }
  r.adopt(c, kName);
  f.fill_timeout = inner.fill_timeout;
  f.subscriber_priority = inner.subscriber_priority;
  f.location_filter = inner.location_filter;
  f.group_order = inner.group_order;
  f.range_filters = std::move(inner.range_filters);
  return f;
}

void read_param_value(Reader& r, uint64_t type, MessageParams& p, IetfVersion v) {
  const char* name = name_or_type(type, v);
  switch (ParamType(type)) {
    case ParamType::ObjectDeliveryTimeout:
      p.object_delivery_timeout = r.varint(name);
      return;
    case ParamType::AuthorizationToken: {
      const uint64_t len = r.varint(name);
      if (!r.ok()) return;
      Reader c = r.child(name, len);
      if (!r.ok()) return;
      Token t = decode_token(c);
      r.adopt(c, name, kKeyValueFormattingError);
      if (r.ok()) p.authorization_tokens.push_back(std::move(t));
      return;
    }
    case ParamType::RendezvousTimeout:
      p.rendezvous_timeout = r.varint(name);
      return;
    case ParamType::SubgroupDeliveryTimeout:
      p.subgroup_delivery_timeout = r.varint(name);
      return;
    case ParamType::Expires:
      p.expires = r.varint(name);
      return;
    case ParamType::LargestObject:
      p.largest_object = read_largest_object(r, name, v);
      return;
    case ParamType::FillTimeout:
      p.fill_timeout = r.varint(name);
      return;
    case ParamType::Forward:
      p.forward = read_flag(r, name, v) == 1;
      return;
    case ParamType::SubscriberPriority:
      p.subscriber_priority = read_byte_param(r, name, v);
      return;
    case ParamType::LocationFilter:
      if (location_filter_is_typed(v)) {
        p.location_filter = read_location_filter(r);
      } else {
        p.subscription_filter = read_subscription_filter(r);
      }
      return;
    case ParamType::GroupOrder:
      p.group_order = read_group_order(r, v);
      return;
    case ParamType::FillParameters:
      p.fill = read_fill(r, v);
      return;
    case ParamType::SubgroupFilter:
    case ParamType::ObjectIdFilter:
    case ParamType::PriorityFilter:
    case ParamType::ObjectPropertyFilter:
    case ParamType::TrackPropertyFilter: {
      RangeFilter f = read_range_filter(r, type, name);
      if (r.ok()) p.range_filters.push_back(std::move(f));
      return;
    }
    case ParamType::NewGroupRequest:
      p.new_group_request = r.varint(name);
      return;
    case ParamType::TrackNamespacePrefix:
      p.track_namespace_prefix = decode_namespace(r, name);
      return;
    case ParamType::IncludeProperties:
      p.include_properties = read_flag(r, name, v) == 1;
      return;
  }
  r.fail(name, "unknown parameter type " + describe_value(type));
}

}  // namespace

void decode_params(Reader& r, ParamMask allowed, IetfVersion v, MessageParams& p) {
  const uint64_t count = r.varint("number of parameters");
  uint64_t prev = 0;
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    const uint64_t delta = r.varint("parameter type");
    if (!r.ok()) break;
    if (delta > UINT64_MAX - prev) {
      r.fail("parameter type", "delta " + describe_value(delta) + " after " + describe_value(prev) +
                                   " exceeds 2^64-1");
      break;
    }
    const uint64_t type = prev + delta;
    const char* name = param_type_name(type, v);
    if (!name) {
      r.fail("parameter type",
             "unknown parameter " + describe_value(type) + " in " + version_name(v));
      break;
    }
    if (i > 0 && delta == 0 && !is_repeatable(type)) {
      r.fail(name, "repeated (only AUTHORIZATION_TOKEN and range filters may repeat)");
      break;
    }
    if (!(allowed & param_bit(type))) {
      r.fail(name, "parameter " + describe_value(type) + " is not allowed in this message");
      break;
    }
    prev = type;
    read_param_value(r, type, p, v);
  }
}

// ---- Encode-side checks ----

namespace {

Status check_location_filter(const LocationFilter& f, const char* message) {
  if (uint8_t(f.type) > 5) return make_error(message, "LOCATION_FILTER", "unknown type");
  const bool ranged =
      f.type == LocationFilterType::AbsoluteRange || f.type == LocationFilterType::AbsoluteRangeEnd;
  if (ranged && f.end_group_delta > UINT64_MAX - f.start_group)
    return make_error(message, "LOCATION_FILTER", "StartGroup + EndGroupDelta exceeds 2^64-1");
  // Fields the type does not carry must be zero, or they would not survive a round trip.
  const uint8_t t = uint8_t(f.type);
  if ((t < 1 || t > 4) && f.start_group != 0)
    return make_error(message, "LOCATION_FILTER", "StartGroup set for a type without it");
  if ((t < 2 || t > 4) && f.start_object != 0)
    return make_error(message, "LOCATION_FILTER", "StartObject set for a type without it");
  if (!ranged && f.end_group_delta != 0)
    return make_error(message, "LOCATION_FILTER", "EndGroupDelta set for a type without it");
  if (t != 4 && f.end_object != 0)
    return make_error(message, "LOCATION_FILTER", "EndObject set for a type without it");
  return {};
}

Status check_subscription_filter(const SubscriptionFilter& f, const char* message) {
  const uint8_t t = uint8_t(f.type);
  if (t < 1 || t > 4) return make_error(message, "SUBSCRIPTION_FILTER", "unknown type");
  if (t < 3 && f.start != Location{})
    return make_error(message, "SUBSCRIPTION_FILTER", "start set for a type without it");
  if (t != 4 && f.end_group_delta != 0)
    return make_error(message, "SUBSCRIPTION_FILTER", "end group delta set for a type without it");
  if (t == 4 && f.end_group_delta > UINT64_MAX - f.start.group)
    return make_error(message, "SUBSCRIPTION_FILTER", "end group overflows 2^64-1");
  return {};
}

Status check_range_filter_shape(const RangeFilter& f, uint64_t max_type, const char* message) {
  const uint64_t t = param_code(f.type);
  if (!is_range_filter_type(t) || t > max_type)
    return make_error(message, "range filter", "type " + describe_value(t) + " not allowed here");
  if (f.clear && (f.set_id != 0 || f.property_type != 0 || !f.ranges.empty() ||
                  f.open_start_delta.has_value()))
    return make_error(message, param_type_name(t, IetfVersion::Draft22),
                      "a clearing (Length 0) filter carries no SetID or ranges");
  if (!has_property_type(t) && f.property_type != 0)
    return make_error(message, param_type_name(t, IetfVersion::Draft22),
                      "property type set on a filter without one");
  return {};
}

}  // namespace

Status check_params(const MessageParams& p, ParamMask allowed, IetfVersion v, const char* message) {
  using P = ParamType;
  const bool typed = location_filter_is_typed(v);
  if (typed && p.subscription_filter)
    return make_error(message, "SUBSCRIPTION_FILTER", "is the draft-18 form of parameter 0x21");
  if (!typed && p.location_filter)
    return make_error(message, "LOCATION_FILTER", "is the draft-22 form of parameter 0x21");
  const std::pair<bool, P> simple[] = {
      {p.object_delivery_timeout.has_value(), P::ObjectDeliveryTimeout},
      {!p.authorization_tokens.empty(), P::AuthorizationToken},
      {p.rendezvous_timeout.has_value(), P::RendezvousTimeout},
      {p.subgroup_delivery_timeout.has_value(), P::SubgroupDeliveryTimeout},
      {p.expires.has_value(), P::Expires},
      {p.largest_object.has_value(), P::LargestObject},
      {p.fill_timeout.has_value(), P::FillTimeout},
      {p.forward.has_value(), P::Forward},
      {p.subscriber_priority.has_value(), P::SubscriberPriority},
      {p.subscription_filter.has_value() || p.location_filter.has_value(), P::LocationFilter},
      {p.group_order.has_value(), P::GroupOrder},
      {p.fill.has_value(), P::FillParameters},
      {p.new_group_request.has_value(), P::NewGroupRequest},
      {p.track_namespace_prefix.has_value(), P::TrackNamespacePrefix},
      {p.include_properties.has_value(), P::IncludeProperties},
  };
  for (const auto& [has, type] : simple) {
    if (has && !sendable(param_code(type), allowed, v))
      return not_sendable(param_code(type), v, message);
  }
  for (const auto& f : p.range_filters) {
    if (!sendable(param_code(f.type), allowed, v))
      return not_sendable(param_code(f.type), v, message);
    Status s = check_range_filter_shape(f, param_code(ParamType::TrackPropertyFilter), message);
    if (!s.ok()) return s;
  }
  for (const auto& t : p.authorization_tokens) {
    Status s = check_token(t, message);
    if (!s.ok()) return s;
  }
  if (p.group_order && *p.group_order != GroupOrder::Ascending &&
      *p.group_order != GroupOrder::Descending)
    return make_error(message, "GROUP_ORDER", "must be 1 or 2");
  if (p.location_filter) {
    Status s = check_location_filter(*p.location_filter, message);
    if (!s.ok()) return s;
  }
  if (p.subscription_filter) {
    Status s = check_subscription_filter(*p.subscription_filter, message);
    if (!s.ok()) return s;
  }
  if (p.track_namespace_prefix) {
    Status s = check_namespace(*p.track_namespace_prefix, message, "TRACK_NAMESPACE_PREFIX");
    if (!s.ok()) return s;
  }
  if (p.fill) {
    const FillParameters& f = *p.fill;
    if (f.group_order && *f.group_order != GroupOrder::Ascending &&
        *f.group_order != GroupOrder::Descending)
      return make_error(message, "FILL_PARAMETERS", "GROUP_ORDER must be 1 or 2");
    if (f.location_filter) {
      Status s = check_location_filter(*f.location_filter, message);
      if (!s.ok()) return s;
    }
    for (const auto& rf : f.range_filters) {
      Status s = check_range_filter_shape(rf, param_code(ParamType::ObjectPropertyFilter), message);
      if (!s.ok()) return s;
    }
  }
  return {};
}

}  // namespace moq::wire::ietf
