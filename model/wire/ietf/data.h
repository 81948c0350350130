// The data plane of moq-transport draft-18 / draft-22, and draft-17 for interop (version.h,
// 17.N): their data streams and datagrams:
// unidirectional stream types, SUBGROUP_HEADER and the objects on a subgroup stream, FETCH_HEADER
// and the objects on a fetch stream, OBJECT_DATAGRAM.
//
// Hot path rules: encoders write into a caller buffer (room for the kMax... size plus any
// property bytes) and return the length, with no allocation; 0 means the arguments break a rule
// named next to the function. Decoders read from a span, never copy, and return a Decoded<T>
// (model/base/decoded.h); only a Malformed one builds an error text (PROTOCOL_VIOLATION,
// "<message>: field '<field>': <problem> (value N (0xN))"). An object header decode stops at the
// payload and reports its length, so the session slices the payload Bytes by reference.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>

#include "model/base/decoded.h"
#include "model/base/varint.h"
#include "model/wire/ietf/codes.h"
#include "model/wire/ietf/version.h"

namespace moq::wire::ietf {

// ---- Unidirectional stream types (4.1) ----
enum class UniStreamKind : uint8_t { Subgroup, Fetch, Control, Padding };
// Reads the stream type (consumed only by this call: the header decoders read it again). Any
// value other than a valid SUBGROUP_HEADER type, 0x05, 0x2F00 or the padding type is Malformed.
Decoded<UniStreamKind> classify_uni_stream(std::span<const uint8_t> in);
namespace detail {
// The -17 rules (17.3, 17.7) on a type classify_uni_stream / decode_subgroup_header accepted: d
// becomes Malformed when they break one.
void check_draft17_stream_type(std::span<const uint8_t> in, Decoded<UniStreamKind>& d);
}  // namespace detail
// The same under draft v: -17 has no FIRST_OBJECT subgroup types (17.7), and its stream type may
// not use the 7-byte varint form (17.3). Inline, one result object: the -18 and -22 path costs a
// test of v.
inline Decoded<UniStreamKind> classify_uni_stream(std::span<const uint8_t> in, IetfVersion v) {
  Decoded<UniStreamKind> d = classify_uni_stream(in);
  if (d.ok() && !has_first_object_subgroup_types(v)) detail::check_draft17_stream_type(in, d);
  return d;
}

// ---- SUBGROUP_HEADER (4.2) ----
enum class SubgroupIdMode : uint8_t {
  Zero = 0,           // no field, Subgroup ID 0
  FirstObjectId = 1,  // no field, Subgroup ID = the first object's ID on this stream
  Explicit = 2,       // field present
};
struct SubgroupHeader {
  uint64_t track_alias = 0;
  uint64_t group_id = 0;
  SubgroupIdMode subgroup_mode = SubgroupIdMode::Zero;
  uint64_t subgroup_id = 0;        // Explicit only (Zero: 0; FirstObjectId: see the first object)
  bool default_priority = false;   // DEFAULT_PRIORITY bit: no priority byte
  uint8_t publisher_priority = 0;  // when !default_priority
  bool has_properties = false;     // PROPERTIES bit: every object has a Properties block
  bool end_of_group = false;       // END_OF_GROUP bit
  bool first_object = false;       // FIRST_OBJECT bit
  bool operator==(const SubgroupHeader&) const = default;
};
inline constexpr size_t kMaxSubgroupHeaderSize = 1 + 3 * kMaxVarintSize + 1;
// The type byte for h's flags (0b0XX1XXXX).
uint8_t subgroup_type(const SubgroupHeader& h);
// The valid SUBGROUP_HEADER types: 0b0XX1XXXX without Subgroup ID mode 0b11.
constexpr bool is_subgroup_type(uint64_t t) {
  return t < 0x80 && (t & 0x10) && ((t & 0x06) != 0x06);  // 48 values
}
// Returns the header size; 0 when subgroup_id is set outside Explicit mode.
size_t encode_subgroup_header(const SubgroupHeader& h, uint8_t* out);
Decoded<SubgroupHeader> decode_subgroup_header(std::span<const uint8_t> in);
namespace detail {
void check_draft17_subgroup_header(std::span<const uint8_t> in, Decoded<SubgroupHeader>& d);
}  // namespace detail
// The same under draft v: -17 refuses the FIRST_OBJECT types (17.7) and 7-byte varints in the
// header's fields (17.3).
inline Decoded<SubgroupHeader> decode_subgroup_header(std::span<const uint8_t> in, IetfVersion v) {
  Decoded<SubgroupHeader> d = decode_subgroup_header(in);
  if (d.ok() && !has_first_object_subgroup_types(v)) detail::check_draft17_subgroup_header(in, d);
  return d;
}
// The header of h as draft v may send it: -17 has no FIRST_OBJECT bit, so it is cleared there.
SubgroupHeader subgroup_header_for(SubgroupHeader h, IetfVersion v);

// ---- Objects on a subgroup stream (4.3) ----
struct SubgroupObject {
  uint64_t object_id = 0;
  std::span<const uint8_t> properties{};  // the KVP bytes (no Length); empty when none
  uint64_t payload_length = 0;
  ObjectStatus status = ObjectStatus::Normal;  // from the status field when payload_length is 0
};
// Per-stream state: object IDs are delta-coded (first: the delta; then previous + delta + 1) and
// nothing may follow an End of Group / End of Track status.
struct SubgroupStreamState {
  bool started = false;
  bool ended = false;
  // started, not ended, and the header has no PROPERTIES bit: the next object may be Object ID
  // Delta 0 with no properties block. Kept with them by the codec, so that the per-object fast
  // path tests one flag.
  bool delta0_ready = false;
  uint64_t last_object_id = 0;
  uint64_t first_object_id = 0;  // the Subgroup ID in FirstObjectId mode
};
inline constexpr size_t kMaxSubgroupObjectHeaderSize = 4 * kMaxVarintSize;

namespace detail {
// Every object; the inline functions below call these when their fast path does not apply.
size_t encode_any_subgroup_object(SubgroupStreamState& st, const SubgroupHeader& h,
                                  uint64_t object_id, std::span<const uint8_t> properties,
                                  uint64_t payload_length, ObjectStatus status, uint8_t* out);
Decoded<SubgroupObject> decode_any_subgroup_object(std::span<const uint8_t> in,
                                                   const SubgroupHeader& h,
                                                   SubgroupStreamState& st);
}  // namespace detail

// Writes the object's fields up to its payload; out needs kMaxSubgroupObjectHeaderSize plus
// properties.size() bytes. Returns 0 when: object_id is not above the previous one; properties
// are given but h.has_properties is false; a non-Normal status comes with a payload or
// properties; an unknown status; or the stream already ended with End of Group / End of Track.
//
// Inline, the header nearly every object of a stream gets: the object right after the previous
// one, Normal, with no properties block, is Object ID Delta 0 and its length, and for a zero
// length the Normal status (0) after it: an empty object, which a track of markers or of empty
// frames is made of, costs what a one-byte one does.
inline size_t encode_subgroup_object(SubgroupStreamState& st, const SubgroupHeader& h,
                                     uint64_t object_id, std::span<const uint8_t> properties,
                                     uint64_t payload_length, ObjectStatus status, uint8_t* out) {
  if (st.delta0_ready && st.last_object_id != UINT64_MAX && object_id == st.last_object_id + 1 &&
      properties.empty() && status == ObjectStatus::Normal) {
    out[0] = 0;
    st.last_object_id = object_id;
    size_t n = 1 + encode_varint(payload_length, kVarint, out + 1);
    if (payload_length == 0) out[n++] = uint8_t(ObjectStatus::Normal);
    return n;
  }
  return detail::encode_any_subgroup_object(st, h, object_id, properties, payload_length, status,
                                            out);
}

// Decodes the fields before the payload (consumed: up to the payload); the state advances only
// on Ok. Inline, the fast path of encode_subgroup_object.
// The fast path alone: a whole header of the next object with delta 0 and, for a zero length,
// the Normal status. Returns the header's size and sets payload_length, the state advanced as
// decode_subgroup_object would; 0 when the object is any other (a status other than Normal, which
// may end the stream, is the general decoder's). For a per-object loop that wants no
// SubgroupObject built.
inline size_t decode_next_subgroup_object(std::span<const uint8_t> in, SubgroupStreamState& st,
                                          uint64_t& payload_length) {
  if (in.size() >= 2 && in[0] == 0 && st.delta0_ready && st.last_object_id != UINT64_MAX) {
    const VarintDecode length = decode_varint(in.subspan(1), kVarint);
    if (length.status == DecodeStatus::Ok) {
      size_t n = 1 + length.length;
      if (length.value == 0) {
        if (in.size() == n || in[n] != uint8_t(ObjectStatus::Normal)) return 0;
        ++n;
      }
      st.last_object_id += 1;
      payload_length = length.value;
      return n;
    }
  }
  return 0;
}
inline Decoded<SubgroupObject> decode_subgroup_object(std::span<const uint8_t> in,
                                                      const SubgroupHeader& h,
                                                      SubgroupStreamState& st) {
  uint64_t payload_length = 0;
  if (const size_t n = decode_next_subgroup_object(in, st, payload_length))
    return decoded(SubgroupObject{.object_id = st.last_object_id, .payload_length = payload_length},
                   n);
  return detail::decode_any_subgroup_object(in, h, st);
}

// ---- FETCH_HEADER and fetch-stream objects (4.5) ----
inline constexpr size_t kMaxFetchHeaderSize = 1 + kMaxVarintSize;
size_t encode_fetch_header(uint64_t request_id, uint8_t* out);
// The value is the Request ID.
Decoded<uint64_t> decode_fetch_header(std::span<const uint8_t> in);

enum class FetchRecordKind : uint8_t {
  Object,
  EndOfNonExistentRange,  // flags 0x8C
  EndOfUnknownRange,      // flags 0x10C
  EndOfTimedOutRange,     // flags 0x20C, -22 only
};
struct FetchObject {
  FetchRecordKind kind = FetchRecordKind::Object;
  uint64_t group_id = 0;
  uint64_t object_id = 0;
  bool datagram = false;  // forwarded as a datagram: no Subgroup ID (flag 0x40)
  uint64_t subgroup_id = 0;
  uint8_t publisher_priority = 0;
  std::span<const uint8_t> properties{};  // KVP bytes; empty when none
  uint64_t payload_length = 0;
};
// The "prior object" a fetch object's flags refer to. group_order comes from the FETCH's
// GROUP_ORDER parameter (Ascending when absent); it decides the sign of Group ID deltas. After an
// End-of-Range marker, group and object are the marker's, subgroup and priority still the last
// real object's ([AMBIG-2]).
struct FetchStreamState {
  GroupOrder group_order = GroupOrder::Ascending;
  bool has_location = false;  // a previous object or End-of-Range marker
  bool has_object = false;    // a previous real object (priority known)
  // The last real object had a Subgroup ID, so Subgroup modes 01/10 may refer to it: false
  // before the first and after a datagram-forwarded one (which has none).
  bool has_subgroup = false;
  uint64_t group_id = 0;
  uint64_t object_id = 0;
  uint64_t subgroup_id = 0;
  uint8_t publisher_priority = 0;
};
inline constexpr size_t kMaxFetchObjectHeaderSize = 6 * kMaxVarintSize + 1;

namespace detail {
// Every record; the inline functions below call these when their fast path does not apply. The
// encoder takes its own copy of the object, so that the inline caller's object never has its
// address taken and its fields stay in registers.
size_t encode_any_fetch_object(FetchStreamState& st, FetchObject o, IetfVersion v, uint8_t* out);
Decoded<FetchObject> decode_any_fetch_object(std::span<const uint8_t> in, FetchStreamState& st,
                                             IetfVersion v);
}  // namespace detail

// Chooses the shortest flags for o given the state and writes the fields up to the payload; out
// needs kMaxFetchObjectHeaderSize plus o.properties.size() bytes. End-of-Range markers write
// flags, Group ID and Object ID ([AMBIG-2]: absolute). Returns 0 when o's group goes against the
// group order, its object ID does not increase within a group, a marker carries object fields,
// or the marker kind does not exist in v.
//
// Inline, the header nearly every record of a fetch stream gets: Serialization Flags 0x00 (the
// next object of the same group, subgroup 0, the same priority, no properties) and its length.
inline size_t encode_fetch_object(FetchStreamState& st, const FetchObject& o, IetfVersion v,
                                  uint8_t* out);
// That header for a caller that knows the object is the next of the previous object's group
// (subgroup 0, the same priority, no properties, not a datagram's): a sender going through one
// group's frames in order after writing the first with encode_fetch_object.
inline size_t encode_next_fetch_object(FetchStreamState& st, uint64_t payload_length,
                                       uint8_t* out) {
  assert(st.has_object && st.object_id != UINT64_MAX);
  out[0] = 0;
  st.object_id += 1;
  st.has_subgroup = true;
  st.subgroup_id = 0;
  return 1 + encode_varint(payload_length, kVarint, out + 1);
}
inline size_t encode_fetch_object(FetchStreamState& st, const FetchObject& o, IetfVersion v,
                                  uint8_t* out) {
  if (o.kind == FetchRecordKind::Object && st.has_object && o.group_id == st.group_id &&
      st.object_id != UINT64_MAX && o.object_id == st.object_id + 1 && o.subgroup_id == 0 &&
      !o.datagram && o.publisher_priority == st.publisher_priority && o.properties.empty()) {
    return encode_next_fetch_object(st, o.payload_length, out);
  }
  return detail::encode_any_fetch_object(st, o, v, out);
}

// The fast path of encode_fetch_object read back: a whole Serialization Flags 0x00 header (the
// next object of the previous object's group, subgroup 0, its priority, no properties). Returns
// the header's size and sets payload_length, the state advanced as decode_fetch_object would;
// 0 when the record is any other (the state untouched). For a per-object loop that wants no
// FetchObject built: the object's group is the previous one's.
inline size_t decode_next_fetch_object(std::span<const uint8_t> in, FetchStreamState& st,
                                       uint64_t& payload_length) {
  if (in.size() >= 2 && in[0] == 0 && st.has_object && st.object_id != UINT64_MAX) {
    const VarintDecode length = decode_varint(in.subspan(1), kVarint);
    if (length.status == DecodeStatus::Ok) {
      st.object_id += 1;
      st.has_subgroup = true;
      st.subgroup_id = 0;
      payload_length = length.value;
      return size_t{1} + length.length;
    }
  }
  return 0;
}

// Decodes a record up to its payload; the state advances only on Ok. Inline, the fast path of
// encode_fetch_object.
inline Decoded<FetchObject> decode_fetch_object(std::span<const uint8_t> in, FetchStreamState& st,
                                                IetfVersion v) {
  uint64_t payload_length = 0;
  if (const size_t n = decode_next_fetch_object(in, st, payload_length)) {
    return decoded(FetchObject{.group_id = st.group_id,
                               .object_id = st.object_id,
                               .publisher_priority = st.publisher_priority,
                               .payload_length = payload_length},
                   n);
  }
  return detail::decode_any_fetch_object(in, st, v);
}

// ---- OBJECT_DATAGRAM (4.4) ----
struct ObjectDatagram {
  bool padding = false;  // a padding datagram (0x132B3E29): nothing else is set
  uint64_t track_alias = 0;
  uint64_t group_id = 0;
  uint64_t object_id = 0;
  bool default_priority = false;
  uint8_t publisher_priority = 0;
  bool end_of_group = false;
  std::span<const uint8_t> properties{};  // KVP bytes; empty when none
  bool has_status = false;                // STATUS bit: a status and no payload
  ObjectStatus status = ObjectStatus::Normal;
  std::span<const uint8_t> payload;  // decode: the rest of the datagram
};
// The valid OBJECT_DATAGRAM types (0b00X0XXXX, STATUS and END_OF_GROUP not together).
constexpr bool is_datagram_type(uint64_t t) {
  return t <= 0x2F && !(t & 0x10) && !((t & 0x20) && (t & 0x02));
}
inline constexpr size_t kMaxDatagramHeaderSize = 5 * kMaxVarintSize + 1;
// Writes everything but the payload; out needs kMaxDatagramHeaderSize plus properties.size().
// Returns 0 when has_status comes with end_of_group, a payload, an unknown status, or
// properties on a non-Normal status.
size_t encode_datagram_header(const ObjectDatagram& d, uint8_t* out);
// Decodes one whole datagram (truncation is Malformed: a datagram never grows).
Decoded<ObjectDatagram> decode_datagram(std::span<const uint8_t> datagram);

// ---- Object Properties (KVP bytes of an object) ----
struct PropertyView {
  uint64_t type = 0;
  uint64_t value = 0;              // even types
  std::span<const uint8_t> bytes;  // odd types
};
// Walks a KVP block without copying. next() returns false at the end or on malformed input
// (then failed() is true).
class PropertyReader {
 public:
  explicit PropertyReader(std::span<const uint8_t> block) : in_(block) {}
  bool next(PropertyView& out);
  bool failed() const { return failed_; }

 private:
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
  uint64_t prev_type_ = 0;
  bool failed_ = false;
};

}  // namespace moq::wire::ietf
