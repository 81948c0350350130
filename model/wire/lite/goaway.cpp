#include "model/wire/lite/goaway.h"

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/detail/utf8.h"

namespace moq::wire::lite {

Status Goaway::encode(Writer& w, LiteVersion v) const {
  detail::EncodeCheck c(kName, v);
  c.string("New Session URI", uri, kMaxReasonLength);
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) { out.string(uri); });
}

Decoded<Goaway> Goaway::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<Goaway>(in, 0, v, kName, [](Reader& b, Goaway& g) {
    g.uri = detail::read_utf8(b, "New Session URI", kMaxReasonLength);
  });
}

}  // namespace moq::wire::lite
