// Fast paths for the object headers a stream repeats once per object (spec 4.3, 4.5): on a
// subgroup stream "the next object" (Object ID Delta 0) and on a fetch stream "the next object of
// the same group, subgroup 0, same priority" (Serialization Flags 0x00). Each produces or reads
// exactly what the wire codec (model/wire/ietf/data.h) would, with the same stream-state update,
// and reports "not applicable" (0 / false) for anything else, which the caller hands to the
// codec. The codec stays the reference; tests/session_ietf/fast_path_test.cpp checks the two
// agree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "model/base/varint.h"
#include "model/wire/ietf/data.h"

namespace moq::session::ietf_session {

namespace w = ::moq::wire::ietf;

// Longest header a fast path writes: one flags/delta byte and a payload length.
inline constexpr size_t kMaxFastObjectHeader = 1 + kMaxVarintSize;

inline size_t put_length(uint64_t v, uint8_t* out) {
  if (v < 0x80) {
    *out = static_cast<uint8_t>(v);
    return 1;
  }
  return encode_varint(v, w::kVarint, out);
}

// A non-empty Normal object right after the previous one on a subgroup stream without
// properties. Returns the header size, or 0 when the codec must encode it.
inline size_t encode_next_subgroup_object(w::SubgroupStreamState& st, const w::SubgroupHeader& h,
                                          uint64_t object_id, uint64_t payload_length,
                                          uint8_t* out) {
  if (!st.started || st.ended || h.has_properties || payload_length == 0 ||
      st.last_object_id == UINT64_MAX || object_id != st.last_object_id + 1)
    return 0;
  out[0] = 0;  // Object ID Delta 0: previous + 1
  const size_t n = 1 + put_length(payload_length, out + 1);
  st.last_object_id = object_id;
  return n;
}

// Reads such a header. False when it is not one (or not complete): use the codec.
inline bool decode_next_subgroup_object(std::span<const uint8_t> in, const w::SubgroupHeader& h,
                                        w::SubgroupStreamState& st, uint64_t& payload_length,
                                        size_t& consumed) {
  if (in.size() < 2 || in[0] != 0 || !st.started || st.ended || h.has_properties ||
      st.last_object_id >= UINT64_MAX - 1)
    return false;
  uint64_t len = in[1];
  size_t n = 2;
  if (len >= 0x80) {
    const VarintDecode d = decode_varint(in.subspan(1), w::kVarint);
    if (d.status != DecodeStatus::Ok) return false;
    len = d.value;
    n = 1 + d.length;
  }
  if (len == 0) return false;  // a status follows: the codec reads it
  st.last_object_id += 1;
  payload_length = len;
  consumed = n;
  return true;
}

// The next object of the same group on a fetch stream, subgroup 0, same priority, no
// properties. Returns the header size, or 0 when the codec must encode it.
inline size_t encode_next_fetch_object(w::FetchStreamState& st, uint64_t group_id,
                                       uint64_t object_id, uint8_t priority,
                                       uint64_t payload_length, uint8_t* out) {
  if (!st.has_object || !st.has_subgroup || st.subgroup_id != 0 || st.group_id != group_id ||
      st.publisher_priority != priority || st.object_id == UINT64_MAX ||
      object_id != st.object_id + 1)
    return 0;
  out[0] = 0;  // Serialization Flags 0x00: same group, previous + 1, subgroup 0, same priority
  const size_t n = 1 + put_length(payload_length, out + 1);
  st.object_id = object_id;
  return n;
}

// Reads such a header (flags 0x00). False when it is not one (or not complete): use the codec.
inline bool decode_next_fetch_object(std::span<const uint8_t> in, w::FetchStreamState& st,
                                     uint64_t& payload_length, size_t& consumed) {
  if (in.size() < 2 || in[0] != 0 || !st.has_object || st.object_id == UINT64_MAX) return false;
  uint64_t len = in[1];
  size_t n = 2;
  if (len >= 0x80) {
    const VarintDecode d = decode_varint(in.subspan(1), w::kVarint);
    if (d.status != DecodeStatus::Ok) return false;
    len = d.value;
    n = 1 + d.length;
  }
  st.object_id += 1;
  st.has_subgroup = true;
  st.subgroup_id = 0;
  payload_length = len;
  consumed = n;
  return true;
}

}  // namespace moq::session::ietf_session
