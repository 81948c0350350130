// unreachable(): marks the end of a switch that handles every enumerator (C++23's
// std::unreachable). The switch stays without a default, so -Wswitch (an error here) names any
// enumerator added later; this only tells the compiler that no other value arrives.
#pragma once

namespace moq {

[[noreturn]] inline void unreachable() {
  __builtin_unreachable();
}

}  // namespace moq
