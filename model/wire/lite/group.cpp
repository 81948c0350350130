#include "model/wire/lite/group.h"

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/stream_type.h"

namespace moq::wire::lite {

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
  out[0] = stream_type_byte(UniStream::Group);
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

Error detail::delta_out_of_range(uint64_t zigzag) {
  return violation(FrameHeader::kName, "Timestamp Delta",
                   "zigzag value " + std::to_string(zigzag) + " is outside [-2^61, 2^61)");
}

Error detail::payload_too_large(uint64_t payload_size) {
  return length_over_limit(FrameHeader::kName, payload_size);
}

}  // namespace moq::wire::lite
