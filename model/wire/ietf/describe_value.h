// How error messages show a number that came off the wire: decimal and hex, so a code point or a
// field value reads the same way in every error of the codec and the session.
#pragma once

#include <cstdint>
#include <string>

namespace moq::wire::ietf {

// "300 (0x12c)".
std::string describe_value(uint64_t v);

}  // namespace moq::wire::ietf
