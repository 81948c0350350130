#include "harness/runner/round_markers.h"

// The empty asm keeps each call and body from being elided or merged: the wrapper needs a call.
extern "C" [[gnu::noinline, gnu::noipa]] void moq_measured_round_begin() noexcept {
  asm volatile("");
}

extern "C" [[gnu::noinline, gnu::noipa]] void moq_measured_round_end() noexcept {
  asm volatile("");
}
