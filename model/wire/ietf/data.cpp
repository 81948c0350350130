// The data plane (data.h) in one file past 600 lines: every stream kind here shares the property
// codec, the object flags and the error wording of its first sections, and each encoder sits
// beside the decoder it must agree with; split by stream kind, those helpers would become a header
// of their own for files that read only one another. Sections follow data.h's order.
#include "model/wire/ietf/data.h"

#include <cstring>
#include <string>

#include "model/base/codec.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::wire::ietf {

namespace {

// A strict prefix of a valid item: at least one more byte is needed.
template <class T>
Decoded<T> more(std::span<const uint8_t> in) {
  return need_more<T>(in.size() + 1);
}

// "<message>: field '<field>': <problem> (value N (0xN))", PROTOCOL_VIOLATION.
Error bad(const char* message, const char* field, const char* problem, uint64_t value) {
  return Error{kProtocolViolation, std::string(message) + ": field '" + field + "': " + problem +
                                       " (value " + describe_value(value) + ")"};
}

// The stream decoders run once per stream or object, so they read fields with model/base's inline
// decode_varint rather than through a Reader (whose error text they do not need: NeedMore has
// none, and Malformed names a static problem). Reads the varint at in[at...] into v and moves
// `at` past it; false while it has not all arrived. Forced inline: GCC keeps it out of line,
// which costs a call per field.
[[gnu::always_inline]] inline bool read_varint(std::span<const uint8_t> in, size_t& at,
                                               uint64_t& v) {
  const VarintDecode d = decode_varint(in.subspan(at), kVarint);
  if (d.status != DecodeStatus::Ok) return false;
  v = d.value;
  at += d.length;
  return true;
}

// The next n bytes as a view, moving `at` past them; false while they have not all arrived.
bool read_bytes(std::span<const uint8_t> in, size_t& at, uint64_t n, std::span<const uint8_t>& v) {
  if (n > in.size() - at) return false;
  v = in.subspan(at, static_cast<size_t>(n));
  at += static_cast<size_t>(n);
  return true;
}

bool valid_properties(std::span<const uint8_t> block) {
  PropertyReader r(block);
  PropertyView v;
  while (r.next(v)) {
  }
  return !r.failed();
}

constexpr const char* kSubgroupHeader = "SUBGROUP_HEADER";
constexpr const char* kSubgroupObject = "subgroup object";
constexpr const char* kFetchHeader = "FETCH_HEADER";
constexpr const char* kFetchObject = "fetch object";
constexpr const char* kDatagram = "OBJECT_DATAGRAM";

}  // namespace

// ---- Properties ----

bool PropertyReader::next(PropertyView& out) {
  if (failed_ || pos_ >= in_.size()) return false;
  // The block is complete: a short field is as malformed as a bad one.
  Reader r(in_.subspan(pos_), kVarint, "properties");
  const uint64_t delta = r.varint("type delta");
  if (!r.ok() || delta > UINT64_MAX - prev_type_) {
    failed_ = true;
    return false;
  }
  out.type = prev_type_ + delta;
  out.value = 0;
  out.bytes = {};
  if (out.type & 1) {
    out.bytes = r.bytes("value", 65535);
  } else {
    out.value = r.varint("value");
  }
  if (!r.ok()) {
    failed_ = true;
    return false;
  }
  prev_type_ = out.type;
  pos_ += r.consumed();
  return true;
}

// ---- Stream types ----

Decoded<UniStreamKind> classify_uni_stream(std::span<const uint8_t> in) {
  size_t at = 0;
  uint64_t t;
  if (!read_varint(in, at, t)) return more<UniStreamKind>(in);
  UniStreamKind kind;
  if (t == kFetchHeaderType) {
    kind = UniStreamKind::Fetch;
  } else if (t == uint64_t(MessageType::Setup)) {
    kind = UniStreamKind::Control;
  } else if (t == kPaddingStreamType) {
    kind = UniStreamKind::Padding;
  } else if (is_subgroup_type(t)) {
    kind = UniStreamKind::Subgroup;
  } else {
    return malformed<UniStreamKind>(
        bad("unidirectional stream", "stream type", "unknown stream type", t));
  }
  return decoded(kind, at);
}

namespace {
// 17.3: the first `fields` varints of in (complete: decoded before) use the 7-byte form.
bool has_seven_byte_varint(std::span<const uint8_t> in, size_t fields) {
  size_t at = 0;
  for (size_t i = 0; i < fields && at < in.size(); ++i) {
    if ((in[at] & 0xFE) == 0xFC) return true;
    at += decode_varint(in.subspan(at), kVarint).length;
  }
  return false;
}
constexpr const char* kSevenByte = "the 7-byte varint form is invalid in draft-17";
}  // namespace

void detail::check_draft17_stream_type(std::span<const uint8_t> in, Decoded<UniStreamKind>& d) {
  if (has_seven_byte_varint(in, 1)) {
    d = malformed<UniStreamKind>(bad("unidirectional stream", "stream type", kSevenByte, in[0]));
  } else if (d.value == UniStreamKind::Subgroup && (in[0] & 0x40)) {
    d = malformed<UniStreamKind>(bad("unidirectional stream", "stream type",
                                     "FIRST_OBJECT subgroup types are not in draft-17", in[0]));
  }
}

// ---- SUBGROUP_HEADER ----

void detail::check_draft17_subgroup_header(std::span<const uint8_t> in,
                                           Decoded<SubgroupHeader>& d) {
  const size_t fields = d.value.subgroup_mode == SubgroupIdMode::Explicit ? 4 : 3;
  if (d.value.first_object) {
    d = malformed<SubgroupHeader>(
        bad(kSubgroupHeader, "type", "FIRST_OBJECT types are not in draft-17", in[0]));
  } else if (has_seven_byte_varint(in, fields)) {
    d = malformed<SubgroupHeader>(bad(kSubgroupHeader, "type", kSevenByte, in[0]));
  }
}

SubgroupHeader subgroup_header_for(SubgroupHeader h, IetfVersion v) {
  if (!has_first_object_subgroup_types(v)) h.first_object = false;
  return h;
}

uint8_t subgroup_type(const SubgroupHeader& h) {
  return static_cast<uint8_t>(0x10 | (h.has_properties ? 0x01 : 0) |
                              (uint8_t(h.subgroup_mode) << 1) | (h.end_of_group ? 0x08 : 0) |
                              (h.default_priority ? 0x20 : 0) | (h.first_object ? 0x40 : 0));
}

size_t encode_subgroup_header(const SubgroupHeader& h, uint8_t* out) {
  if (uint8_t(h.subgroup_mode) > 2) return 0;
  if (h.subgroup_mode != SubgroupIdMode::Explicit && h.subgroup_id != 0) return 0;
  uint8_t* p = out;
  *p++ = subgroup_type(h);
  p += encode_varint(h.track_alias, kVarint, p);
  p += encode_varint(h.group_id, kVarint, p);
  if (h.subgroup_mode == SubgroupIdMode::Explicit) p += encode_varint(h.subgroup_id, kVarint, p);
  if (!h.default_priority) *p++ = h.publisher_priority;
  return static_cast<size_t>(p - out);
}

Decoded<SubgroupHeader> decode_subgroup_header(std::span<const uint8_t> in) {
  size_t at = 0;
  uint64_t t;
  if (!read_varint(in, at, t)) return more<SubgroupHeader>(in);
  if (!is_subgroup_type(t))
    return malformed<SubgroupHeader>(bad(kSubgroupHeader, "type", "not a SUBGROUP_HEADER type", t));
  SubgroupHeader h;
  h.has_properties = t & 0x01;
  h.subgroup_mode = SubgroupIdMode((t & 0x06) >> 1);
  h.end_of_group = t & 0x08;
  h.default_priority = t & 0x20;
  h.first_object = t & 0x40;
  if (!read_varint(in, at, h.track_alias) || !read_varint(in, at, h.group_id))
    return more<SubgroupHeader>(in);
  if (h.subgroup_mode == SubgroupIdMode::Explicit && !read_varint(in, at, h.subgroup_id))
    return more<SubgroupHeader>(in);
  if (!h.default_priority) {
    if (at == in.size()) return more<SubgroupHeader>(in);
    h.publisher_priority = in[at++];
  }
  return decoded(h, at);
}

// ---- Subgroup objects ----

size_t detail::encode_any_subgroup_object(SubgroupStreamState& st, const SubgroupHeader& h,
                                          uint64_t object_id, std::span<const uint8_t> properties,
                                          uint64_t payload_length, ObjectStatus status,
                                          uint8_t* out) {
  if (st.ended || !is_known_object_status(uint64_t(status))) return 0;
  if (status != ObjectStatus::Normal && (payload_length != 0 || !properties.empty())) return 0;
  if (!properties.empty() && !h.has_properties) return 0;
  uint64_t delta = object_id;
  if (st.started) {
    if (object_id <= st.last_object_id) return 0;
    delta = object_id - st.last_object_id - 1;
  }
  uint8_t* p = out;
  p += encode_varint(delta, kVarint, p);
  if (h.has_properties) {
    p += encode_varint(properties.size(), kVarint, p);
    if (!properties.empty()) std::memcpy(p, properties.data(), properties.size());
    p += properties.size();
  }
  p += encode_varint(payload_length, kVarint, p);
  if (payload_length == 0) p += encode_varint(uint64_t(status), kVarint, p);
  if (!st.started) st.first_object_id = object_id;
  st.started = true;
  st.last_object_id = object_id;
  st.ended = status != ObjectStatus::Normal;
  st.delta0_ready = !st.ended && !h.has_properties;
  return static_cast<size_t>(p - out);
}

Decoded<SubgroupObject> detail::decode_any_subgroup_object(std::span<const uint8_t> in,
                                                           const SubgroupHeader& h,
                                                           SubgroupStreamState& st) {
  if (st.ended) {
    if (in.empty()) return more<SubgroupObject>(in);
    return malformed<SubgroupObject>(
        bad(kSubgroupObject, "object ID delta", "object after End of Group / End of Track", in[0]));
  }
  size_t at = 0;
  uint64_t delta;
  if (!read_varint(in, at, delta)) return more<SubgroupObject>(in);
  uint64_t id = delta;
  if (st.started) {
    if (delta >= UINT64_MAX - st.last_object_id)
      return malformed<SubgroupObject>(
          bad(kSubgroupObject, "object ID delta", "object ID exceeds 2^64-1", delta));
    id = st.last_object_id + delta + 1;
  }
  std::span<const uint8_t> props;
  if (h.has_properties) {
    uint64_t len;
    if (!read_varint(in, at, len) || !read_bytes(in, at, len, props))
      return more<SubgroupObject>(in);
    if (!valid_properties(props))
      return malformed<SubgroupObject>(
          bad(kSubgroupObject, "properties", "not well-formed Key-Value-Pairs", len));
  }
  uint64_t payload_length;
  if (!read_varint(in, at, payload_length)) return more<SubgroupObject>(in);
  ObjectStatus status = ObjectStatus::Normal;
  if (payload_length == 0) {
    uint64_t s;
    if (!read_varint(in, at, s)) return more<SubgroupObject>(in);
    if (!is_known_object_status(s))
      return malformed<SubgroupObject>(
          bad(kSubgroupObject, "object status", "unknown object status", s));
    status = ObjectStatus(s);
    if (status != ObjectStatus::Normal && !props.empty())
      return malformed<SubgroupObject>(
          bad(kSubgroupObject, "properties", "present on an object whose status is not Normal", s));
  }
  if (!st.started) st.first_object_id = id;
  st.started = true;
  st.last_object_id = id;
  st.ended = status != ObjectStatus::Normal;
  st.delta0_ready = !st.ended && !h.has_properties;
  return decoded(SubgroupObject{id, props, payload_length, status}, at);
}

// ---- FETCH_HEADER ----

size_t encode_fetch_header(uint64_t request_id, uint8_t* out) {
  uint8_t* p = out;
  p += encode_varint(kFetchHeaderType, kVarint, p);
  p += encode_varint(request_id, kVarint, p);
  return static_cast<size_t>(p - out);
}

Decoded<uint64_t> decode_fetch_header(std::span<const uint8_t> in) {
  size_t at = 0;
  uint64_t t;
  if (!read_varint(in, at, t)) return more<uint64_t>(in);
  if (t != kFetchHeaderType)
    return malformed<uint64_t>(bad(kFetchHeader, "type", "not the FETCH_HEADER type", t));
  uint64_t id;
  if (!read_varint(in, at, id)) return more<uint64_t>(in);
  return decoded(id, at);
}

// ---- Fetch objects ----

namespace {

constexpr uint64_t kFlagObjectId = 0x04;
constexpr uint64_t kFlagGroupId = 0x08;
constexpr uint64_t kFlagPriority = 0x10;
constexpr uint64_t kFlagProperties = 0x20;
constexpr uint64_t kFlagDatagram = 0x40;
constexpr uint64_t kEndOfNonExistent = 0x8C;
constexpr uint64_t kEndOfUnknown = 0x10C;
constexpr uint64_t kEndOfTimedOut = 0x20C;

uint64_t marker_flags(FetchRecordKind k) {
  switch (k) {
    case FetchRecordKind::EndOfNonExistentRange:
      return kEndOfNonExistent;
    case FetchRecordKind::EndOfUnknownRange:
      return kEndOfUnknown;
    case FetchRecordKind::EndOfTimedOutRange:
      return kEndOfTimedOut;
    case FetchRecordKind::Object:
      break;
  }
  return 0;
}

}  // namespace

size_t detail::encode_any_fetch_object(FetchStreamState& st, FetchObject o, IetfVersion v,
                                       uint8_t* out) {
  uint8_t* p = out;
  if (o.kind != FetchRecordKind::Object) {
    if (uint8_t(o.kind) > uint8_t(FetchRecordKind::EndOfTimedOutRange)) return 0;
    if (o.kind == FetchRecordKind::EndOfTimedOutRange && !has_timed_out_range_marker(v)) return 0;
    if (o.datagram || o.subgroup_id || o.publisher_priority || !o.properties.empty() ||
        o.payload_length)
      return 0;
    p += encode_varint(marker_flags(o.kind), kVarint, p);
    p += encode_varint(o.group_id, kVarint, p);
    p += encode_varint(o.object_id, kVarint, p);
    st.has_location = true;
    st.group_id = o.group_id;
    st.object_id = o.object_id;
    return static_cast<size_t>(p - out);
  }
  if (o.datagram && o.subgroup_id != 0) return 0;
  uint64_t flags = 0;
  uint64_t group_field = 0;
  uint64_t object_field = 0;
  bool group_changed = !st.has_location;
  if (!st.has_location) {
    flags |= kFlagGroupId | kFlagObjectId;
    group_field = o.group_id;
    object_field = o.object_id;
  } else {
    if (o.group_id != st.group_id) {
      group_changed = true;
      const bool ascending = st.group_order != GroupOrder::Descending;
      if (ascending ? o.group_id < st.group_id : o.group_id > st.group_id) return 0;
      flags |= kFlagGroupId;
      if (fetch_objects_absolute(v)) {
        group_field = o.group_id;  // 17.11
      } else {
        group_field = ascending ? o.group_id - st.group_id - 1 : st.group_id - o.group_id - 1;
      }
    }
    const bool next_id = st.object_id != UINT64_MAX && o.object_id == st.object_id + 1;
    if (group_changed) {
      if (!next_id) {
        flags |= kFlagObjectId;
        object_field = o.object_id;
      }
    } else {
      if (o.object_id <= st.object_id) return 0;
      if (!next_id) {
        flags |= kFlagObjectId;
        object_field = fetch_objects_absolute(v) ? o.object_id : o.object_id - st.object_id;
      }
    }
  }
  uint64_t subgroup_mode = 0;
  if (o.datagram) {
    flags |= kFlagDatagram;
  } else if (o.subgroup_id == 0) {
    subgroup_mode = 0;
  } else if (st.has_subgroup && o.subgroup_id == st.subgroup_id) {
    subgroup_mode = 1;
  } else if (st.has_subgroup && st.subgroup_id != UINT64_MAX &&
             o.subgroup_id == st.subgroup_id + 1) {
    subgroup_mode = 2;
  } else {
    subgroup_mode = 3;
  }
  flags |= subgroup_mode;
  if (!st.has_object || o.publisher_priority != st.publisher_priority) flags |= kFlagPriority;
  if (!o.properties.empty()) flags |= kFlagProperties;

  p += encode_varint(flags, kVarint, p);
  if (flags & kFlagGroupId) p += encode_varint(group_field, kVarint, p);
  if (subgroup_mode == 3) p += encode_varint(o.subgroup_id, kVarint, p);
  if (flags & kFlagObjectId) p += encode_varint(object_field, kVarint, p);
  if (flags & kFlagPriority) *p++ = o.publisher_priority;
  if (flags & kFlagProperties) {
    p += encode_varint(o.properties.size(), kVarint, p);
    std::memcpy(p, o.properties.data(), o.properties.size());
    p += o.properties.size();
  }
  p += encode_varint(o.payload_length, kVarint, p);
  st.has_location = true;
  st.has_object = true;
  st.group_id = o.group_id;
  st.object_id = o.object_id;
  st.publisher_priority = o.publisher_priority;
  // Modes 01/10 refer to this object's Subgroup ID, which a datagram-forwarded one lacks.
  st.has_subgroup = !o.datagram;
  st.subgroup_id = o.subgroup_id;
  return static_cast<size_t>(p - out);
}

Decoded<FetchObject> detail::decode_any_fetch_object(std::span<const uint8_t> in,
                                                     FetchStreamState& st, IetfVersion v) {
  size_t at = 0;
  uint64_t flags;
  if (!read_varint(in, at, flags)) return more<FetchObject>(in);
  if (flags >= 128) {
    FetchRecordKind kind;
    if (flags == kEndOfNonExistent) {
      kind = FetchRecordKind::EndOfNonExistentRange;
    } else if (flags == kEndOfUnknown) {
      kind = FetchRecordKind::EndOfUnknownRange;
    } else if (flags == kEndOfTimedOut && has_timed_out_range_marker(v)) {
      kind = FetchRecordKind::EndOfTimedOutRange;
    } else {
      return malformed<FetchObject>(
          bad(kFetchObject, "serialization flags", "unknown serialization flags", flags));
    }
    uint64_t group, object;
    if (!read_varint(in, at, group) || !read_varint(in, at, object)) return more<FetchObject>(in);
    FetchObject marker;
    marker.kind = kind;
    marker.group_id = group;
    marker.object_id = object;
    st.has_location = true;
    st.group_id = group;
    st.object_id = object;
    return decoded(marker, at);
  }
  const bool datagram = flags & kFlagDatagram;
  const uint64_t subgroup_mode = datagram ? 0 : (flags & 0x03);
  if (!st.has_location && (!(flags & kFlagGroupId) || !(flags & kFlagObjectId)))
    return malformed<FetchObject>(bad(kFetchObject, "serialization flags",
                                      "the first object must carry Group ID and Object ID", flags));
  if ((subgroup_mode == 1 || subgroup_mode == 2) && !st.has_subgroup)
    return malformed<FetchObject>(bad(kFetchObject, "serialization flags",
                                      "refers to a prior Subgroup ID that is absent (no prior "
                                      "object, or a datagram-forwarded one)",
                                      flags));
  if (!(flags & kFlagPriority) && !st.has_object)
    return malformed<FetchObject>(bad(kFetchObject, "serialization flags",
                                      "refers to a prior priority that is absent", flags));

  uint64_t group = st.group_id;
  if (flags & kFlagGroupId) {
    uint64_t group_field;
    if (!read_varint(in, at, group_field)) return more<FetchObject>(in);
    if (!st.has_location) {
      group = group_field;
    } else if (fetch_objects_absolute(v)) {
      // 17.11: absolute, and still a new group in the stream's order.
      const bool ascending = st.group_order != GroupOrder::Descending;
      if (ascending ? group_field <= st.group_id : group_field >= st.group_id)
        return malformed<FetchObject>(bad(
            kFetchObject, "group ID", "not a later group in the fetch's group order", group_field));
      group = group_field;
    } else if (st.group_order == GroupOrder::Descending) {
      if (group_field >= st.group_id)
        return malformed<FetchObject>(
            bad(kFetchObject, "group ID delta", "group ID below 0", group_field));
      group = st.group_id - group_field - 1;
    } else {
      if (group_field >= UINT64_MAX - st.group_id)
        return malformed<FetchObject>(
            bad(kFetchObject, "group ID delta", "group ID exceeds 2^64-1", group_field));
      group = st.group_id + group_field + 1;
    }
  }
  uint64_t subgroup = 0;
  if (subgroup_mode == 3) {
    if (!read_varint(in, at, subgroup)) return more<FetchObject>(in);
  } else if (subgroup_mode == 1) {
    subgroup = st.subgroup_id;
  } else if (subgroup_mode == 2) {
    if (st.subgroup_id == UINT64_MAX)
      return malformed<FetchObject>(
          bad(kFetchObject, "serialization flags", "subgroup ID exceeds 2^64-1", flags));
    subgroup = st.subgroup_id + 1;
  }
  uint64_t object;
  if (flags & kFlagObjectId) {
    uint64_t field;
    if (!read_varint(in, at, field)) return more<FetchObject>(in);
    if (!st.has_location || (flags & kFlagGroupId)) {
      object = field;
    } else if (fetch_objects_absolute(v)) {
      // 17.11: absolute, and increasing within the group.
      if (field <= st.object_id)
        return malformed<FetchObject>(
            bad(kFetchObject, "object ID", "object ID does not increase within the group", field));
      object = field;
    } else {
      // Objects within a group come in increasing Object ID order, so a zero delta would repeat
      // the previous location.
      if (field == 0)
        return malformed<FetchObject>(bad(kFetchObject, "object ID delta",
                                          "object ID does not increase within the group", field));
      if (field > UINT64_MAX - st.object_id)
        return malformed<FetchObject>(
            bad(kFetchObject, "object ID delta", "object ID exceeds 2^64-1", field));
      object = st.object_id + field;
    }
  } else {
    if (st.object_id == UINT64_MAX)
      return malformed<FetchObject>(
          bad(kFetchObject, "serialization flags", "object ID exceeds 2^64-1", flags));
    object = st.object_id + 1;
  }
  uint8_t priority = st.publisher_priority;
  if (flags & kFlagPriority) {
    if (at == in.size()) return more<FetchObject>(in);
    priority = in[at++];
  }
  std::span<const uint8_t> props;
  if (flags & kFlagProperties) {
    uint64_t len;
    if (!read_varint(in, at, len) || !read_bytes(in, at, len, props)) return more<FetchObject>(in);
    if (!valid_properties(props))
      return malformed<FetchObject>(
          bad(kFetchObject, "properties", "not well-formed Key-Value-Pairs", len));
  }
  uint64_t payload_length;
  if (!read_varint(in, at, payload_length)) return more<FetchObject>(in);

  st.has_location = true;
  st.has_object = true;
  st.group_id = group;
  st.object_id = object;
  st.publisher_priority = priority;
  // Modes 01/10 refer to this object's Subgroup ID, which a datagram-forwarded one lacks.
  st.has_subgroup = !datagram;
  st.subgroup_id = subgroup;
  return decoded(FetchObject{FetchRecordKind::Object, group, object, datagram, subgroup, priority,
                             props, payload_length},
                 at);
}

// ---- Datagrams ----

size_t encode_datagram_header(const ObjectDatagram& d, uint8_t* out) {
  if (d.padding) return 0;
  if (d.has_status) {
    if (d.end_of_group || !d.payload.empty() || !is_known_object_status(uint64_t(d.status)))
      return 0;
    if (d.status != ObjectStatus::Normal && !d.properties.empty()) return 0;
  }
  uint64_t type = 0;
  if (!d.properties.empty()) type |= 0x01;
  if (d.end_of_group) type |= 0x02;
  if (d.object_id == 0) type |= 0x04;
  if (d.default_priority) type |= 0x08;
  if (d.has_status) type |= 0x20;
  uint8_t* p = out;
  p += encode_varint(type, kVarint, p);
  p += encode_varint(d.track_alias, kVarint, p);
  p += encode_varint(d.group_id, kVarint, p);
  if (d.object_id != 0) p += encode_varint(d.object_id, kVarint, p);
  if (!d.default_priority) *p++ = d.publisher_priority;
  if (!d.properties.empty()) {
    p += encode_varint(d.properties.size(), kVarint, p);
    std::memcpy(p, d.properties.data(), d.properties.size());
    p += d.properties.size();
  }
  if (d.has_status) p += encode_varint(uint64_t(d.status), kVarint, p);
  return static_cast<size_t>(p - out);
}

Decoded<ObjectDatagram> decode_datagram(std::span<const uint8_t> datagram) {
  // A datagram never grows: a field cut short is Malformed, never NeedMore.
  Reader r(datagram, kVarint, kDatagram);
  const uint64_t t = r.varint("type");
  if (!r.ok())
    return malformed<ObjectDatagram>(bad(kDatagram, "type", "datagram ends inside the type", 0));
  if (t == kPaddingDatagramType) {
    ObjectDatagram padding;
    padding.padding = true;
    return decoded(padding, datagram.size());
  }
  if (!is_datagram_type(t))
    return malformed<ObjectDatagram>(bad(kDatagram, "type", "not an OBJECT_DATAGRAM type", t));
  ObjectDatagram d;
  d.end_of_group = t & 0x02;
  d.default_priority = t & 0x08;
  d.has_status = t & 0x20;
  d.track_alias = r.varint("track alias");
  if (!r.ok())
    return malformed<ObjectDatagram>(
        bad(kDatagram, "track alias", "datagram ends inside the field", t));
  d.group_id = r.varint("group ID");
  if (!r.ok())
    return malformed<ObjectDatagram>(
        bad(kDatagram, "group ID", "datagram ends inside the field", t));
  if (!(t & 0x04)) d.object_id = r.varint("object ID");
  if (!r.ok())
    return malformed<ObjectDatagram>(
        bad(kDatagram, "object ID", "datagram ends inside the field", t));
  if (!d.default_priority) d.publisher_priority = r.u8("publisher priority");
  if (!r.ok())
    return malformed<ObjectDatagram>(
        bad(kDatagram, "publisher priority", "datagram ends inside the field", t));
  if (t & 0x01) {
    d.properties = r.bytes("properties");
    if (!r.ok())
      return malformed<ObjectDatagram>(
          bad(kDatagram, "properties", "datagram ends inside the field", t));
    if (d.properties.empty())
      return malformed<ObjectDatagram>(
          bad(kDatagram, "properties", "PROPERTIES bit set with Length 0", 0));
    if (!valid_properties(d.properties))
      return malformed<ObjectDatagram>(
          bad(kDatagram, "properties", "not well-formed Key-Value-Pairs", d.properties.size()));
  }
  if (d.has_status) {
    const uint64_t s = r.varint("object status");
    if (!r.ok())
      return malformed<ObjectDatagram>(
          bad(kDatagram, "object status", "datagram ends inside the field", t));
    if (!is_known_object_status(s))
      return malformed<ObjectDatagram>(bad(kDatagram, "object status", "unknown object status", s));
    d.status = ObjectStatus(s);
    if (d.status != ObjectStatus::Normal && !d.properties.empty())
      return malformed<ObjectDatagram>(
          bad(kDatagram, "properties", "present on an object whose status is not Normal", s));
    if (!r.at_end())
      return malformed<ObjectDatagram>(bad(kDatagram, "object status",
                                           "bytes follow the status of a STATUS datagram",
                                           r.remaining()));
  } else {
    d.payload = r.rest();
  }
  return decoded(d, datagram.size());
}

}  // namespace moq::wire::ietf
