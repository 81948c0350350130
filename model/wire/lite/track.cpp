#include "model/wire/lite/track.h"

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/detail/utf8.h"

namespace moq::wire::lite {

using detail::EncodeCheck;

Status Track::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.string("Broadcast Path", broadcast, kMaxMessageLength);
  c.string("Track Name", track, kMaxMessageLength);
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) {
    out.string(broadcast);
    out.string(track);
  });
}

Decoded<Track> Track::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<Track>(in, 0, v, kName, [](Reader& b, Track& t) {
    t.broadcast = detail::read_utf8(b, "Broadcast Path", kMaxMessageLength);
    t.track = detail::read_utf8(b, "Track Name", kMaxMessageLength);
  });
}

Status TrackInfo::check() const {
  if (timescale == 0) {
    return detail::violation(kName, "Timescale", "is 0, must be non-zero");
  }
  return {};
}

Status TrackInfo::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  if (max_age_is_opt_plus_one(v)) {
    c.opt_plus_one("Publisher Max Age", max_age_ms);
  } else if (max_age_ms && *max_age_ms >= kLite06MaxAgeNoLimit) {
    c.fail("Publisher Max Age", "finite value " + std::to_string(*max_age_ms) +
                                    " reads as 'no limit' on " + std::string(alpn(v)));
  }
  c.varint("Timescale", timescale);
  if (timescale == 0) c.fail("Timescale", "is 0, must be non-zero");
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) {
    out.u8(priority);
    if (max_age_is_opt_plus_one(v)) {
      detail::write_opt_plus_one(out, max_age_ms);
    } else {
      out.varint(max_age_ms.value_or(kLite06MaxAgeNoLimit));
    }
    out.varint(timescale);
  });
}

Decoded<TrackInfo> TrackInfo::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<TrackInfo>(in, 0, v, kName, [v](Reader& b, TrackInfo& t) {
    t.priority = b.u8("Publisher Priority");
    if (max_age_is_opt_plus_one(v)) {
      t.max_age_ms = b.opt_plus_one("Publisher Max Age");
    } else {
      const uint64_t raw = b.varint("Publisher Max Age");
      if (raw < kLite06MaxAgeNoLimit) t.max_age_ms = raw;
    }
    t.timescale = b.varint("Timescale");
  });
}

}  // namespace moq::wire::lite
