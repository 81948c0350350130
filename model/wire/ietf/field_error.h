// The codec's one error for a field that broke the rules: the message, the field and why, under
// a session error code. Internal to model/wire/ietf (the codec's sources include it; its public
// headers do not), so that every message, parameter and filter error reads the same way.
#pragma once

#include <cstdint>
#include <string>

#include "model/base/result.h"
#include "model/wire/ietf/codes.h"

namespace moq::wire::ietf {

// "GOAWAY: field 'new session URI': longer than 8192 bytes", code PROTOCOL_VIOLATION unless told.
Error make_error(const char* message, const char* field, const std::string& why,
                 uint64_t code = kProtocolViolation);

}  // namespace moq::wire::ietf
