// Helpers shared by the wire_ietf tests: hex conversion, framing shortcuts and the sample
// messages (every control message of both drafts, with rich parameters) that the round-trip and
// mutation tests start from.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/wire/ietf/control.h"
#include "model/wire/ietf/data.h"

namespace moq::wire::ietf::test {

// "af 00 1c" -> bytes (spaces ignored).
std::vector<uint8_t> hex(std::string_view text);
std::string to_hex(std::span<const uint8_t> bytes);

// Encodes one control message; fails the test when encode_control refuses it.
std::vector<uint8_t> encode(const ControlMessage& m, IetfVersion v);

// Every control message type of draft v, several variants each, all valid.
std::vector<ControlMessage> sample_messages(IetfVersion v);

// Well-formed object property bytes (two KVPs, one odd and one even type).
std::vector<uint8_t> sample_properties();

inline constexpr IetfVersion kVersions[] = {IetfVersion::Draft18, IetfVersion::Draft22};

}  // namespace moq::wire::ietf::test
