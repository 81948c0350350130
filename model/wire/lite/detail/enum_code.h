// Wire codes read as an enum whose enumerators are the code points (not for use outside
// model/wire/lite): once a code fits the enum's underlying type, cast it and let an exhaustive
// switch on the enum say which values are defined, so that each code point is written once, in
// the enum.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace moq::wire::lite::detail {

// True when code fits E's underlying type (it may still name no enumerator).
template <class E>
constexpr bool fits(uint64_t code) {
  return code <= std::numeric_limits<std::underlying_type_t<E>>::max();
}

}  // namespace moq::wire::lite::detail
