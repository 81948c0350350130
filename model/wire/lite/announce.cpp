#include "model/wire/lite/announce.h"

#include <type_traits>

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/detail/utf8.h"

namespace moq::wire::lite {
namespace {

using detail::EncodeCheck;

void parse_hops(Reader& b, HopList& hops) {
  // Every Hop ID takes at least one byte.
  const uint64_t count = b.count("Hop Count", kMaxHops, 1);
  for (uint64_t i = 0; i < count && b.ok(); ++i) {
    const uint64_t id = b.varint("Hop ID");
    if (!b.ok()) return;
    if (id != 0 && hops.contains(id)) {
      b.fail("Hop ID", "non-zero Hop ID " + std::to_string(id) + " is repeated in the list");
      return;
    }
    hops.push_back(id);
  }
}

void check_route(EncodeCheck& c, const HopList& hops, uint64_t warm, uint64_t cold) {
  for (uint64_t id : hops)
    c.varint("Hop ID", id);
  if (uint64_t id = hops.repeated_id(); id != 0) {
    c.fail("Hop ID", "non-zero Hop ID " + std::to_string(id) + " is repeated in the list");
  }
  c.varint("Warm Route Cost", warm);
  c.varint("Cold Route Cost", cold);
}

void write_route(Writer& w, const HopList& hops, uint64_t warm, uint64_t cold) {
  w.varint(hops.size());
  for (uint64_t id : hops)
    w.varint(id);
  w.varint(warm);
  w.varint(cold);
}

template <class Msg>
Decoded<AnnounceMessage> decode_typed(std::span<const uint8_t> in, size_t offset, LiteVersion v) {
  auto r = detail::decode_sized<Msg>(in, offset, v, Msg::kName, [](Reader& b, Msg& m) {
    if constexpr (std::is_same_v<Msg, AnnounceStart>) {
      m.suffix = detail::read_utf8(b, "Route Prefix Suffix", kMaxMessageLength);
    } else {
      m.id = b.varint("Announce ID");
    }
    if constexpr (!std::is_same_v<Msg, AnnounceEnd>) {
      parse_hops(b, m.hops);
      m.warm_cost = b.varint("Warm Route Cost");
      m.cold_cost = b.varint("Cold Route Cost");
    }
  });
  return widen<AnnounceMessage>(std::move(r));
}

}  // namespace

bool HopList::contains(uint64_t id) const {
  for (uint64_t h : *this)
    if (h == id) return true;
  return false;
}

uint64_t HopList::repeated_id() const {
  for (size_t i = 0; i < size_; ++i) {
    if (ids_[i] == 0) continue;
    for (size_t j = i + 1; j < size_; ++j)
      if (ids_[j] == ids_[i]) return ids_[i];
  }
  return 0;
}

bool HopList::operator==(const HopList& o) const {
  if (size_ != o.size_) return false;
  for (size_t i = 0; i < size_; ++i)
    if (ids_[i] != o.ids_[i]) return false;
  return true;
}

Status AnnounceRequest::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.string("Broadcast Path Prefix", prefix, kMaxMessageLength);
  if (hidden && !has_hidden_flag(v)) {
    c.fail("Hidden", "is set but " + std::string(alpn(v)) + " has no Hidden field");
  }
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) {
    out.string(prefix);
    if (has_hidden_flag(v)) out.u8(hidden ? 1 : 0);
  });
}

Decoded<AnnounceRequest> AnnounceRequest::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<AnnounceRequest>(in, 0, v, kName, [v](Reader& b, AnnounceRequest& m) {
    m.prefix = detail::read_utf8(b, "Broadcast Path Prefix", kMaxMessageLength);
    if (has_hidden_flag(v)) {
      m.hidden = b.boolean("Hidden");
    }
  });
}

Status AnnounceOk::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.varint("Hop ID", hop_id);
  c.varint("Active Count", active_count);
  return detail::encode_sized(w, c, std::nullopt, [&](Writer& out) {
    out.varint(hop_id);
    out.varint(active_count);
  });
}

Decoded<AnnounceOk> AnnounceOk::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<AnnounceOk>(in, 0, v, kName, [](Reader& b, AnnounceOk& m) {
    m.hop_id = b.varint("Hop ID");
    m.active_count = b.varint("Active Count");
  });
}

Status AnnounceStart::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.string("Route Prefix Suffix", suffix, kMaxMessageLength);
  check_route(c, hops, warm_cost, cold_cost);
  return detail::encode_sized(w, c, kType, [&](Writer& out) {
    out.string(suffix);
    write_route(out, hops, warm_cost, cold_cost);
  });
}

Status AnnounceEnd::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.varint("Announce ID", id);
  return detail::encode_sized(w, c, kType, [&](Writer& out) { out.varint(id); });
}

Status AnnounceUpdate::encode(Writer& w, LiteVersion v) const {
  EncodeCheck c(kName, v);
  c.varint("Announce ID", id);
  check_route(c, hops, warm_cost, cold_cost);
  return detail::encode_sized(w, c, kType, [&](Writer& out) {
    out.varint(id);
    write_route(out, hops, warm_cost, cold_cost);
  });
}

Decoded<AnnounceMessage> decode_announce_message(std::span<const uint8_t> in, LiteVersion v) {
  const auto type = detail::read_type(in, v);
  if (!type.ok()) return need_more<AnnounceMessage>(type.needed);
  switch (type.value) {
    case AnnounceStart::kType:
      return decode_typed<AnnounceStart>(in, type.consumed, v);
    case AnnounceEnd::kType:
      return decode_typed<AnnounceEnd>(in, type.consumed, v);
    case AnnounceUpdate::kType:
      return decode_typed<AnnounceUpdate>(in, type.consumed, v);
  }
  return malformed<AnnounceMessage>(detail::unknown_type("ANNOUNCE message", type.value, v));
}

Status encode_announce_message(const AnnounceMessage& m, Writer& w, LiteVersion v) {
  return std::visit([&](const auto& msg) { return msg.encode(w, v); }, m);
}

}  // namespace moq::wire::lite
