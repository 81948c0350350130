// Group streams and frames: the hot path (draft-lcurley-moq-lite-06, GROUP, FRAME and FETCH).
//   uni stream: Stream Type 0x0, GROUP { Length, Subscribe ID (i), Group Sequence (i),
//               Frame Start (i) }, FRAME*, FIN
//   FRAME { Timestamp Delta (i, zigzag), Message Length (i), Payload }  (fetch streams too)
// Encoders write into a caller buffer with room for the max size and return the length, or 0 for
// a value the version cannot carry; they never allocate. Decoders never copy a payload: decoding
// a FRAME header yields the payload length, and the payload is the next payload_size bytes of the
// stream, which the session slices by reference.
//
// The FRAME header functions are inline: the session calls them for every frame, and with
// model/base's inline varints a usual header (small delta, payload below 16 KiB) costs a few
// compares and stores. Only a malformed header leaves the inline path, to build its message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "model/base/decoded.h"
#include "model/base/varint.h"
#include "model/wire/lite/limits.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

struct GroupHeader {
  static constexpr const char* kName = "GROUP";

  uint64_t subscribe_id = 0;
  uint64_t sequence = 0;
  uint64_t frame_start = 0;  // index of the first FRAME on this stream; non-zero = leading gap

  bool operator==(const GroupHeader&) const = default;
};

// The GROUP body is at most 27 bytes, so its Message Length is one byte in both forms.
inline constexpr size_t kMaxGroupHeaderSize = 1 + 3 * kMaxVarintSize;
inline constexpr size_t kMaxGroupStreamHeaderSize = 1 + kMaxGroupHeaderSize;

// GROUP (Length + Body). Returns the bytes written, or 0 when a field exceeds max_varint(v).
size_t encode_group_header(const GroupHeader& h, LiteVersion v, uint8_t* out);
// The stream type byte 0x0 followed by GROUP: the first bytes of a group stream.
size_t encode_group_stream_header(const GroupHeader& h, LiteVersion v, uint8_t* out);
// GROUP (Length + Body), without the stream type. Same strict length rules as every message.
Decoded<GroupHeader> decode_group_header(std::span<const uint8_t> in, LiteVersion v);

// The signed timestamp delta range of the Rust stack, [-2^61, 2^61): its zigzag form is below
// 2^62, so it fits a QUIC varint.
inline constexpr int64_t kMinTimestampDelta = -(int64_t{1} << 61);
inline constexpr int64_t kMaxTimestampDelta = (int64_t{1} << 61) - 1;

// The zigzag values of [kMinTimestampDelta, kMaxTimestampDelta] are exactly those up to 2^62-1.
inline constexpr uint64_t kMaxZigzagDelta = kQuicVarintMax;

constexpr uint64_t zigzag_encode(int64_t s) {
  return (static_cast<uint64_t>(s) << 1) ^ static_cast<uint64_t>(s >> 63);
}
constexpr int64_t zigzag_decode(uint64_t u) {
  return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
}

struct FrameHeader {
  static constexpr const char* kName = "FRAME";

  // From the previous frame's timestamp; the first frame of a stream deltas from 0.
  int64_t timestamp_delta = 0;
  uint64_t payload_size = 0;  // at most kMaxMessageLength

  bool operator==(const FrameHeader&) const = default;
};

inline constexpr size_t kMaxFrameHeaderSize = 2 * kMaxVarintSize;

// Timestamp Delta + Message Length. Returns the bytes written, or 0 when the delta is outside
// [kMinTimestampDelta, kMaxTimestampDelta] or the payload size exceeds kMaxMessageLength.
inline size_t encode_frame_header(int64_t timestamp_delta, uint64_t payload_size, LiteVersion v,
                                  uint8_t* out) {
  const uint64_t zigzag = zigzag_encode(timestamp_delta);
  // One compare for the usual header: both values within the smaller limit.
  static_assert(kMaxMessageLength < kMaxZigzagDelta);
  if ((zigzag | payload_size) > kMaxMessageLength) [[unlikely]] {
    if (zigzag > kMaxZigzagDelta || payload_size > kMaxMessageLength) return 0;
  }
  const VarintForm form = varint_form(v);
  const size_t n = encode_varint(zigzag, form, out);
  return n + encode_varint(payload_size, form, out + n);
}

namespace detail {
// The two ways a FRAME header is malformed, out of the inline path.
[[gnu::cold]] Error delta_out_of_range(uint64_t zigzag);
[[gnu::cold]] Error payload_too_large(uint64_t payload_size);

// decode_frame_header for one varint form, so that every prefix test is a constant. A header
// split between reads is the rare case: NeedMore is marked unlikely.
template <VarintForm Form>
inline Decoded<FrameHeader> decode_frame_header(std::span<const uint8_t> in) {
  const VarintDecode delta = decode_varint(in, Form);
  if (delta.status != DecodeStatus::Ok) [[unlikely]] {
    return need_more<FrameHeader>(delta.length);
  }
  if (delta.value > kMaxZigzagDelta) [[unlikely]] {
    return malformed<FrameHeader>(delta_out_of_range(delta.value));
  }
  const VarintDecode size = decode_varint(in.subspan(delta.length), Form);
  if (size.status != DecodeStatus::Ok) [[unlikely]] {
    return need_more<FrameHeader>(delta.length + size.length);
  }
  if (size.value > kMaxMessageLength) [[unlikely]] {
    return malformed<FrameHeader>(payload_too_large(size.value));
  }
  return decoded(FrameHeader{zigzag_decode(delta.value), size.value},
                 size_t{delta.length} + size.length);
}
}  // namespace detail

// consumed = the header's size; the payload follows. NeedMore only inside the two varints.
inline Decoded<FrameHeader> decode_frame_header(std::span<const uint8_t> in, LiteVersion v) {
  return varint_form(v) == VarintForm::Quic
             ? detail::decode_frame_header<VarintForm::Quic>(in)
             : detail::decode_frame_header<VarintForm::LeadingOnes>(in);
}

}  // namespace moq::wire::lite
