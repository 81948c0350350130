// moq-lite strings are UTF-8 (RFC 3629). The validators, and the string field read with them on a
// moq::Reader (not for use outside model/wire/lite).
#pragma once

#include <cstdint>
#include <string_view>

#include "model/base/codec.h"

namespace moq::wire::lite::detail {

// True when text is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view text);
// True when text is valid UTF-8 or a prefix of valid UTF-8 (it may end inside a character).
bool is_valid_utf8_prefix(std::string_view text);

// A length-prefixed UTF-8 string of at most max_len bytes that fits in what is left of the
// reader's declared body; a view into the input (empty once the reader has failed). While the
// string is still arriving, a visible prefix that cannot begin valid UTF-8 is Malformed at once,
// so that NeedMore always means the bytes so far can still begin a valid message.
std::string_view read_utf8(Reader& r, const char* field, uint64_t max_len);

}  // namespace moq::wire::lite::detail
