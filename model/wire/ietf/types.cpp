#include "model/wire/ietf/types.h"

#include "model/wire/ietf/describe_value.h"
#include "model/wire/ietf/field_error.h"

namespace moq::wire::ietf {

namespace {

std::span<const uint8_t> as_span(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

}  // namespace

// ---- Location ----

void encode_location(Writer& w, Location loc) {
  w.varint(loc.group);
  w.varint(loc.object);
}

Location decode_location(Reader& r, const char* group_field, const char* object_field) {
  Location loc;
  loc.group = r.varint(group_field);
  loc.object = r.varint(object_field);
  return loc;
}

// ---- Namespace and name ----

size_t TrackNamespace::byte_length() const {
  size_t n = 0;
  for (const auto& f : fields)
    n += f.size();
  return n;
}

void encode_namespace(Writer& w, const TrackNamespace& ns) {
  w.varint(ns.fields.size());
  for (const auto& f : ns.fields)
    w.string(f);
}

TrackNamespace decode_namespace(Reader& r, const char* field) {
  TrackNamespace ns;
  decode_namespace(r, field, ns);
  return ns;
}

void decode_namespace(Reader& r, const char* field, TrackNamespace& ns) {
  ns.fields.clear();
  const uint64_t count = r.varint(field);
  if (!r.ok()) return;
  if (count > kMaxNamespaceFields) {
    r.fail(field, "has " + std::to_string(count) + " fields, at most 32 are allowed");
    return;
  }
  ns.fields.reserve(count);
  size_t total = 0;
  for (uint64_t i = 0; i < count; ++i) {
    std::string_view f = r.string(field);
    if (!r.ok()) return;
    if (f.empty()) {
      r.fail(field, "field " + std::to_string(i) + " is empty (fields need at least one byte)");
      return;
    }
    total += f.size();
    if (total > kMaxFullTrackNameLength) {
      r.fail(field, "is longer than 4096 bytes");
      return;
    }
    ns.fields.emplace_back(f);
  }
}

std::string decode_track_name(Reader& r, const TrackNamespace& ns) {
  const uint64_t len = r.varint("track name");
  if (!r.ok()) return {};
  const size_t budget = kMaxFullTrackNameLength - ns.byte_length();
  if (len > budget) {
    r.fail("track name", "length " + std::to_string(len) + " makes the full track name longer " +
                             "than 4096 bytes (namespace uses " + std::to_string(ns.byte_length()) +
                             ")");
    return {};
  }
  auto b = r.raw("track name", static_cast<size_t>(len));
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

Status check_namespace(const TrackNamespace& ns, const char* message, const char* field) {
  if (ns.fields.size() > kMaxNamespaceFields)
    return make_error(message, field,
                      "has " + std::to_string(ns.fields.size()) + " fields, at most 32");
  for (size_t i = 0; i < ns.fields.size(); ++i)
    if (ns.fields[i].empty())
      return make_error(message, field, "field " + std::to_string(i) + " is empty");
  if (ns.byte_length() > kMaxFullTrackNameLength)
    return make_error(message, field, "is longer than 4096 bytes");
  return {};
}

Status check_full_track_name(const TrackNamespace& ns, const std::string& name,
                             const char* message) {
  Status s = check_namespace(ns, message, "track namespace");
  if (!s.ok()) return s;
  if (ns.byte_length() + name.size() > kMaxFullTrackNameLength)
    return make_error(message, "track name", "full track name is longer than 4096 bytes");
  return {};
}

// ---- Key-Value-Pairs ----

void encode_kvps(Writer& w, const std::vector<KeyValuePair>& kvps) {
  uint64_t prev = 0;
  for (const auto& kv : kvps) {
    w.varint(kv.type - prev);
    prev = kv.type;
    if (kv.type & 1) {
      w.string(kv.bytes);
    } else {
      w.varint(kv.value);
    }
  }
}

Status check_kvps(const std::vector<KeyValuePair>& kvps, const char* message, const char* field) {
  uint64_t prev = 0;
  for (const auto& kv : kvps) {
    if (kv.type < prev)
      return make_error(message, field,
                        "type " + describe_value(kv.type) + " follows the larger type " +
                            describe_value(prev) + " (types must not decrease)");
    prev = kv.type;
    if (kv.type & 1) {
      if (kv.bytes.size() > kMaxKvpValueLength)
        return make_error(message, field,
                          "type " + describe_value(kv.type) + " value is " +
                              std::to_string(kv.bytes.size()) + " bytes, at most 65535");
      if (kv.value != 0)
        return make_error(message, field,
                          "odd type " + describe_value(kv.type) + " carries an integer value");
    } else if (!kv.bytes.empty()) {
      return make_error(message, field, "even type " + describe_value(kv.type) + " carries bytes");
    }
  }
  return {};
}

std::vector<KeyValuePair> decode_kvps_to_end(Reader& r, const char* field) {
  std::vector<KeyValuePair> out;
  uint64_t prev = 0;
  while (r.ok() && !r.at_end()) {
    const uint64_t delta = r.varint(field);
    if (!r.ok()) break;
    if (delta > UINT64_MAX - prev) {
      r.fail(field, "type delta " + describe_value(delta) + " after type " + describe_value(prev) +
                        " exceeds 2^64-1");
      break;
    }
    KeyValuePair kv;
    kv.type = prev + delta;
    prev = kv.type;
    if (kv.type & 1) {
      const uint64_t len = r.varint(field);
      if (!r.ok()) break;
      if (len > kMaxKvpValueLength) {
        r.fail(field, "type " + describe_value(kv.type) + " has length " + std::to_string(len) +
                          ", at most 65535");
        break;
      }
      auto b = r.raw(field, static_cast<size_t>(len));
      kv.bytes.assign(reinterpret_cast<const char*>(b.data()), b.size());
    } else {
      kv.value = r.varint(field);
    }
    if (r.ok()) out.push_back(std::move(kv));
  }
  return out;
}

namespace {

// The checks of 7.5 on one property; returns the failure text or empty, and sets code.
std::string track_property_problem(const KeyValuePair& kv, bool nested, uint64_t& code) {
  code = kProtocolViolation;
  switch (kv.type) {
    case uint64_t(PropertyType::DefaultPublisherPriority):
      if (kv.value > 255) {
        code = kKeyValueFormattingError;
        return "DEFAULT_PUBLISHER_PRIORITY is " + describe_value(kv.value) + ", at most 255";
      }
      break;
    case uint64_t(PropertyType::DefaultPublisherGroupOrder):
      if (kv.value != 1 && kv.value != 2)
        return "DEFAULT_PUBLISHER_GROUP_ORDER is " + describe_value(kv.value) + ", must be 1 or 2";
      break;
    case uint64_t(PropertyType::DynamicGroups):
      if (kv.value > 1) return "DYNAMIC_GROUPS is " + describe_value(kv.value) + ", must be 0 or 1";
      break;
    case uint64_t(PropertyType::ImmutableProperties): {
      code = kKeyValueFormattingError;
      if (nested) return "IMMUTABLE_PROPERTIES nested inside IMMUTABLE_PROPERTIES";
      Reader inner(as_span(kv.bytes), kVarint, "IMMUTABLE_PROPERTIES");
      auto inner_kvps = decode_kvps_to_end(inner, "properties");
      if (!inner.ok()) return "IMMUTABLE_PROPERTIES value is not well-formed KVPs";
      for (const auto& ikv : inner_kvps) {
        std::string p = track_property_problem(ikv, true, code);
        if (!p.empty()) return "inside IMMUTABLE_PROPERTIES: " + p;
      }
      code = kProtocolViolation;
      break;
    }
    default:
      break;
  }
  return {};
}

}  // namespace

Properties decode_track_properties(Reader& r) {
  Properties props = decode_kvps_to_end(r, "track properties");
  if (!r.ok()) return props;
  for (const auto& kv : props) {
    uint64_t code;
    std::string p = track_property_problem(kv, false, code);
    if (!p.empty()) {
      r.fail_code(code, "track properties", p);
      break;
    }
  }
  return props;
}

Status check_track_properties(const Properties& props, const char* message) {
  Status s = check_kvps(props, message, "track properties");
  if (!s.ok()) return s;
  for (const auto& kv : props) {
    uint64_t code;
    std::string p = track_property_problem(kv, false, code);
    if (!p.empty()) return make_error(message, "track properties", p, code);
  }
  return {};
}

// ---- Token ----

void encode_token(Writer& w, const Token& t) {
  w.varint(uint64_t(t.alias_type));
  switch (t.alias_type) {
    case TokenAliasType::Delete:
    case TokenAliasType::UseAlias:
      w.varint(t.alias);
      break;
    case TokenAliasType::Register:
      w.varint(t.alias);
      w.varint(t.token_type);
      w.raw(as_span(t.value));
      break;
    case TokenAliasType::UseValue:
      w.varint(t.token_type);
      w.raw(as_span(t.value));
      break;
  }
}

Token decode_token(Reader& r) {
  Token t;
  const uint64_t alias_type = r.varint("token alias type");
  if (!r.ok()) return t;
  if (alias_type > 3) {
    r.fail_code(kKeyValueFormattingError, "token alias type",
                "unknown alias type " + describe_value(alias_type));
    return t;
  }
  t.alias_type = TokenAliasType(alias_type);
  if (t.alias_type != TokenAliasType::UseValue) t.alias = r.varint("token alias");
  if (t.alias_type == TokenAliasType::Register || t.alias_type == TokenAliasType::UseValue) {
    t.token_type = r.varint("token type");
    auto rest = r.raw("token value", r.remaining());
    t.value.assign(reinterpret_cast<const char*>(rest.data()), rest.size());
  }
  if (r.ok() && !r.at_end())
    r.fail_code(kKeyValueFormattingError, "token",
                std::to_string(r.remaining()) + " bytes left after an alias-only token");
  return t;
}

Status check_token(const Token& t, const char* message) {
  if (uint64_t(t.alias_type) > 3)
    return make_error(message, "token alias type", "unknown alias type", kKeyValueFormattingError);
  const bool has_value =
      t.alias_type == TokenAliasType::Register || t.alias_type == TokenAliasType::UseValue;
  if (!has_value && (t.token_type != 0 || !t.value.empty()))
    return make_error(message, "token", "DELETE / USE_ALIAS carry no token type or value");
  if (t.alias_type == TokenAliasType::UseValue && t.alias != 0)
    return make_error(message, "token", "USE_VALUE carries no alias");
  return {};
}

// ---- Redirect ----

void encode_redirect(Writer& w, const Redirect& r) {
  w.string(r.connect_uri);
  encode_namespace(w, r.track_namespace);
  w.string(r.track_name);
}

Redirect decode_redirect(Reader& r) {
  Redirect out;
  out.connect_uri = std::string(r.string("redirect connect URI"));
  decode_namespace(r, "redirect track namespace", out.track_namespace);
  out.track_name = decode_track_name(r, out.track_namespace);
  return out;
}

}  // namespace moq::wire::ietf
