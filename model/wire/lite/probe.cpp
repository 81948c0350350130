#include "model/wire/lite/probe.h"

#include "model/wire/lite/detail/body_codec.h"

namespace moq::wire::lite {

Status Probe::encode(Writer& w, LiteVersion v) const {
  detail::EncodeCheck c(kName, v);
  c.varint("Bitrate", bitrate);
  c.varint("RTT", rtt_ms);
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) {
    out.varint(bitrate);
    out.varint(rtt_ms);
  });
}

Decoded<Probe> Probe::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<Probe>(in, 0, v, kName, [](Reader& b, Probe& p) {
    p.bitrate = b.varint("Bitrate");
    p.rtt_ms = b.varint("RTT");
  });
}

}  // namespace moq::wire::lite
