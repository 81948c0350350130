#include "harness/counters/aligned_stack.h"

#include <alloca.h>

#include <cstdint>

namespace moq::counters {

[[gnu::noinline]] int run_on_page_aligned_stack(MainFunction body, int argc, char** argv) {
  // The frame address is 16-byte aligned, so is its offset within the page, and alloca moves the
  // stack pointer down by exactly that much: the callee's frame starts at a fixed page offset.
  const auto offset = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) & 4095;
  volatile char* pad = static_cast<char*>(alloca(offset));
  if (offset != 0) pad[0] = 0;  // keeps the allocation from being optimised away
  return body(argc, argv);
}

}  // namespace moq::counters
