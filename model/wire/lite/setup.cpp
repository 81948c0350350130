#include "model/wire/lite/setup.h"

#include <array>

#include "model/wire/lite/detail/body_codec.h"
#include "model/wire/lite/detail/enum_code.h"
#include "model/wire/lite/detail/utf8.h"

namespace moq::wire::lite {
namespace {

const char* param_field(uint64_t id) {
  switch (id) {
    case setup_param::kProbe:
      return "Probe";
    case setup_param::kPath:
      return "Path";
    case setup_param::kRole:
      return "Role";
    case setup_param::kCost:
      return "Cost";
    case setup_param::kHop:
      return "Hop";
  }
  return "Parameter Value";
}

// A varint parameter value: exactly one varint filling the whole value.
uint64_t param_varint(Reader& b, uint64_t id, std::span<const uint8_t> value, LiteVersion v) {
  const VarintDecode d = decode_varint(value, setup_param_varint_form(v));
  if (d.status != DecodeStatus::Ok || d.length != value.size()) {
    b.fail(param_field(id),
           "a " + std::to_string(value.size()) + "-byte value is not exactly one varint");
    return 0;
  }
  return d.value;
}

bool is_varint_param(uint64_t id) {
  return id == setup_param::kProbe || id == setup_param::kRole || id == setup_param::kCost ||
         id == setup_param::kHop;
}

void check_partial_value(Reader& b, uint64_t id, std::span<const uint8_t> part, uint64_t len,
                         LiteVersion v) {
  if (is_varint_param(id) && !part.empty()) {
    // The first byte gives the varint's length, which must be the whole value.
    const VarintDecode d = decode_varint(part.first(1), setup_param_varint_form(v));
    const uint64_t varint_len = d.status == DecodeStatus::Ok ? 1 : d.length;
    if (varint_len != len) {
      b.fail(param_field(id), "a " + std::to_string(len) + "-byte value is not exactly one varint");
    }
  } else if (id == setup_param::kPath &&
             !detail::is_valid_utf8_prefix(
                 {reinterpret_cast<const char*>(part.data()), part.size()})) {
    b.fail("Path", "the " + std::to_string(len) + "-byte value is not valid UTF-8");
  }
}

void parse_setup(Reader& b, SetupMessage& s, LiteVersion v) {
  // Every parameter takes at least an ID byte and a length byte.
  const uint64_t count = b.count("Parameter Count", kMaxSetupParameters, 2);
  std::array<uint64_t, kMaxSetupParameters> seen{};
  for (uint64_t i = 0; i < count && b.ok(); ++i) {
    const uint64_t id = b.varint("Parameter ID");
    const uint64_t len = b.length("Parameter Length", kMaxMessageLength);
    if (!b.ok()) return;
    for (uint64_t j = 0; j < i; ++j) {
      if (seen[j] == id) {
        b.fail("Parameter ID", "parameter " + std::to_string(id) + " is repeated");
        return;
      }
    }
    seen[i] = id;
    if (b.remaining() < len) {
      // The value is still arriving: judge what is there already, so that NeedMore is returned
      // only while the parameter can still be valid.
      check_partial_value(b, id, b.rest(), len, v);
      if (!b.ok()) return;
    }
    const auto value = b.raw(param_field(id), len);
    if (!b.ok()) return;
    switch (id) {
      case setup_param::kProbe:
        s.probe = param_varint(b, id, value, v);
        break;
      case setup_param::kRole:
        s.role = param_varint(b, id, value, v);
        break;
      case setup_param::kCost:
        s.cost = param_varint(b, id, value, v);
        break;
      case setup_param::kHop:
        s.hop = param_varint(b, id, value, v);
        break;
      case setup_param::kPath: {
        std::string_view text(reinterpret_cast<const char*>(value.data()), value.size());
        if (!detail::is_valid_utf8(text)) {
          b.fail("Path", "the " + std::to_string(len) + "-byte value is not valid UTF-8");
          return;
        }
        s.path.emplace(text);
        break;
      }
      default:
        break;  // unknown parameters are ignored
    }
  }
}

void write_varint_param(Writer& w, uint64_t id, const std::optional<uint64_t>& value,
                        LiteVersion v) {
  if (!value) return;
  uint8_t buf[kMaxVarintSize];
  const size_t n = encode_varint(*value, setup_param_varint_form(v), buf);
  w.varint(id);
  w.varint(n);
  w.raw({buf, n});
}

}  // namespace

ProbeLevel SetupMessage::probe_level() const {
  if (!probe) return ProbeLevel::None;
  // Every value from Increase's up reads as Increase.
  if (*probe >= static_cast<uint64_t>(ProbeLevel::Increase)) return ProbeLevel::Increase;
  return static_cast<ProbeLevel>(*probe);
}

SetupRole SetupMessage::role_hint() const {
  if (!role || !detail::fits<SetupRole>(*role)) return SetupRole::Both;
  const auto r = static_cast<SetupRole>(*role);
  switch (r) {
    case SetupRole::Publisher:
    case SetupRole::Subscriber:
      return r;
    case SetupRole::Both:
      break;
  }
  return SetupRole::Both;  // Both, or a value with no meaning
}

Status SetupMessage::encode(Writer& w, LiteVersion v) const {
  detail::EncodeCheck check(kName, v);
  if (probe) check.varint("Probe", *probe);
  if (path) check.string("Path", *path, kMaxMessageLength);
  if (role) check.varint("Role", *role);
  if (cost) check.varint("Cost", *cost);
  if (hop) check.varint("Hop", *hop);
  return detail::encode_sized(w, check, std::nullopt, [&](Writer& out) {
    const uint64_t count = uint64_t{probe.has_value()} + path.has_value() + role.has_value() +
                           cost.has_value() + hop.has_value();
    out.varint(count);
    write_varint_param(out, setup_param::kProbe, probe, v);
    if (path) {
      out.varint(setup_param::kPath);
      out.string(*path);
    }
    write_varint_param(out, setup_param::kRole, role, v);
    write_varint_param(out, setup_param::kCost, cost, v);
    write_varint_param(out, setup_param::kHop, hop, v);
  });
}

Decoded<SetupMessage> SetupMessage::decode(std::span<const uint8_t> in, LiteVersion v) {
  return detail::decode_sized<SetupMessage>(
      in, 0, v, kName, [v](Reader& b, SetupMessage& s) { parse_setup(b, s, v); });
}

}  // namespace moq::wire::lite
