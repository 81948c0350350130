#include "model/wire/lite/datagram.h"

#include "model/wire/lite/detail/body_codec.h"

namespace moq::wire::lite {

size_t encode_datagram_header(const DatagramHeader& h, size_t payload_size, LiteVersion v,
                              uint8_t* out) {
  const VarintForm form = varint_form(v);
  size_t n = 0;
  for (uint64_t field : {h.subscribe_id, h.group, h.timestamp}) {
    const size_t k = encode_varint(field, form, out + n);
    if (k == 0) return 0;
    n += k;
  }
  if (payload_size > kMaxDatagramSize - n) return 0;
  return n;
}

Decoded<DatagramHeader> decode_datagram(std::span<const uint8_t> datagram, LiteVersion v) {
  if (datagram.size() > kMaxDatagramSize) {
    return malformed<DatagramHeader>(
        detail::violation(DatagramHeader::kName, "Payload",
                          "datagram of " + std::to_string(datagram.size()) + " bytes exceeds " +
                              std::to_string(kMaxDatagramSize)));
  }
  static constexpr const char* kFields[] = {"Subscribe ID", "Group Sequence", "Timestamp"};
  const VarintForm form = varint_form(v);
  uint64_t values[3];
  size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    const VarintDecode d = decode_varint(datagram.subspan(pos), form);
    if (d.status != DecodeStatus::Ok) {
      return malformed<DatagramHeader>(detail::violation(
          DatagramHeader::kName, kFields[i],
          "the datagram ends inside this field (" + std::to_string(datagram.size()) + " bytes)"));
    }
    values[i] = d.value;
    pos += d.length;
  }
  return decoded(DatagramHeader{values[0], values[1], values[2]}, pos);
}

}  // namespace moq::wire::lite
