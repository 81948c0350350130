#include "model/wire/lite/fetch.h"

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/detail/utf8.h"

namespace moq::wire::lite {
namespace {

std::string end_below_start(uint64_t end, uint64_t start) {
  return "inclusive end " + std::to_string(end) + " is below Frame Start " + std::to_string(start);
}

}  // namespace

Status Fetch::encode(Writer& w, LiteVersion v) const {
  detail::EncodeCheck c(kName, v);
  c.string("Broadcast Path", broadcast, kMaxMessageLength);
  c.string("Track Name", track, kMaxMessageLength);
  c.varint("Group Sequence", group);
  c.varint("Frame Start", frame_start);
  c.opt_plus_one("Frame End", frame_end);
  if (frame_end && *frame_end < frame_start) {
    c.fail("Frame End", end_below_start(*frame_end, frame_start));
  }
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) {
    out.string(broadcast);
    out.string(track);
    out.u8(priority);
    out.varint(group);
    out.varint(frame_start);
    detail::write_opt_plus_one(out, frame_end);
  });
}

Decoded<Fetch> Fetch::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<Fetch>(in, 0, v, kName, [](Reader& b, Fetch& f) {
    f.broadcast = detail::read_utf8(b, "Broadcast Path", kMaxMessageLength);
    f.track = detail::read_utf8(b, "Track Name", kMaxMessageLength);
    f.priority = b.u8("Subscriber Priority");
    f.group = b.varint("Group Sequence");
    f.frame_start = b.varint("Frame Start");
    f.frame_end = b.opt_plus_one("Frame End");
    if (b.ok() && f.frame_end && *f.frame_end < f.frame_start) {
      b.fail("Frame End", end_below_start(*f.frame_end, f.frame_start));
    }
  });
}

}  // namespace moq::wire::lite
