#include "model/wire/lite/goaway.h"

#include "model/wire/lite/detail/body_codec.h"

namespace moq::wire::lite {

Status Goaway::encode(Writer& w, LiteVersion v) const {
  detail::EncodeCheck c(kName, v);
  c.string("New Session URI", uri, kMaxReasonLength);
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) { out.string(uri); });
}

DecodeResult<Goaway> Goaway::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<Goaway>(in, 0, v, kName, [](detail::BodyReader& b, Goaway& g) {
    b.string("New Session URI", kMaxReasonLength, g.uri);
  });
}

}  // namespace moq::wire::lite
