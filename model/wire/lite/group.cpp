#include "model/wire/lite/group.h"

#include "model/wire/lite/detail/body_codec.h"

namespace moq::wire::lite {
namespace {

// Zigzag values of deltas in [kMinTimestampDelta, kMaxTimestampDelta] are exactly those below
// 2^62.
constexpr uint64_t kMaxZigzag = kQuicVarintMax;

}  // namespace

size_t encode_group_header(const GroupHeader& h, LiteVersion v, uint8_t* out) {
  const VarintForm form = varint_form(v);
  uint8_t* p = out + 1;
  for (uint64_t field : {h.subscribe_id, h.sequence, h.frame_start}) {
    const size_t n = encode_varint(field, form, p);
    if (n == 0) return 0;
    p += n;
  }
  // At most 27 bytes: a one-byte length in both forms.
  out[0] = static_cast<uint8_t>(p - out - 1);
  return static_cast<size_t>(p - out);
}

size_t encode_group_stream_header(const GroupHeader& h, LiteVersion v, uint8_t* out) {
  out[0] = 0x0;  // UniStream::Group
  const size_t n = encode_group_header(h, v, out + 1);
  return n == 0 ? 0 : n + 1;
}

Decoded<GroupHeader> decode_group_header(std::span<const uint8_t> in, LiteVersion v) {
  const VarintForm form = varint_form(v);
  const VarintDecode len = decode_varint(in, form);
  if (len.status != DecodeStatus::Ok) return need_more<GroupHeader>(len.length);
  if (len.value > kMaxMessageLength) {
    return malformed<GroupHeader>(detail::length_over_limit(GroupHeader::kName, len.value));
  }
  const uint64_t body_length = len.value;
  const size_t end = len.length + static_cast<size_t>(body_length);
  const bool complete = in.size() >= end;
  const auto body = in.subspan(len.length, (complete ? end : in.size()) - len.length);
  static constexpr const char* kFields[] = {"Subscribe ID", "Group Sequence", "Frame Start"};
  uint64_t values[3];
  size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    const VarintDecode d = decode_varint(body.subspan(pos), form);
    if (d.status != DecodeStatus::Ok) {
      // The varint's first byte already tells whether it can fit in the declared body.
      if (!complete && pos + d.length <= body_length) {
        return need_more<GroupHeader>(end);
      }
      return malformed<GroupHeader>(
          detail::violation(GroupHeader::kName, kFields[i],
                            "the body ends inside this field (Message Length " +
                                std::to_string(body_length) + " is too short)"));
    }
    values[i] = d.value;
    pos += d.length;
  }
  if (pos != body_length) {
    return malformed<GroupHeader>(detail::long_body_error(GroupHeader::kName, body_length, pos));
  }
  return decoded(GroupHeader{values[0], values[1], values[2]}, end);
}

size_t encode_frame_header(int64_t timestamp_delta, uint64_t payload_size, LiteVersion v,
                           uint8_t* out) {
  if (timestamp_delta < kMinTimestampDelta || timestamp_delta > kMaxTimestampDelta) return 0;
  if (payload_size > kMaxMessageLength) return 0;
  const VarintForm form = varint_form(v);
  const size_t n = encode_varint(zigzag_encode(timestamp_delta), form, out);
  return n + encode_varint(payload_size, form, out + n);
}

Decoded<FrameHeader> decode_frame_header(std::span<const uint8_t> in, LiteVersion v) {
  const VarintForm form = varint_form(v);
  const VarintDecode delta = decode_varint(in, form);
  if (delta.status != DecodeStatus::Ok) return need_more<FrameHeader>(delta.length);
  if (delta.value > kMaxZigzag) {
    return malformed<FrameHeader>(detail::violation(
        FrameHeader::kName, "Timestamp Delta",
        "zigzag value " + std::to_string(delta.value) + " is outside [-2^61, 2^61)"));
  }
  const VarintDecode len = decode_varint(in.subspan(delta.length), form);
  if (len.status != DecodeStatus::Ok) {
    return need_more<FrameHeader>(delta.length + len.length);
  }
  if (len.value > kMaxMessageLength) {
    return malformed<FrameHeader>(detail::length_over_limit(FrameHeader::kName, len.value));
  }
  return decoded(FrameHeader{zigzag_decode(delta.value), len.value},
                 size_t{delta.length} + len.length);
}

}  // namespace moq::wire::lite
