// Group streams and frames: the hot path (spec sections 5.1, 5.2 and 6).
//   uni stream: Stream Type 0x0, GROUP { Length, Subscribe ID (i), Group Sequence (i),
//               Frame Start (i) }, FRAME*, FIN
//   FRAME { Timestamp Delta (i, zigzag), Message Length (i), Payload }  (fetch streams too)
// Encoders write into a caller buffer with room for the max size and return the length, or 0 for
// a value the version cannot carry; they never allocate. Decoders never copy a payload: decoding
// a FRAME header yields the payload length, and the payload is the next payload_size bytes of the
// stream, which the session slices by reference.
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
size_t encode_frame_header(int64_t timestamp_delta, uint64_t payload_size, LiteVersion v,
                           uint8_t* out);
// consumed = the header's size; the payload follows. NeedMore only inside the two varints.
Decoded<FrameHeader> decode_frame_header(std::span<const uint8_t> in, LiteVersion v);

}  // namespace moq::wire::lite
