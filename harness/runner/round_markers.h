// Two empty functions the runner calls around every measured round's allocation bracket, so that
// a tool outside the process can tell the measured round from set-up, warm-up and teardown:
// `moqbench explain --allocations` runs a case under valgrind's DHAT with a preloaded wrapper
// (harness/counters/dhat_round_wrap.cpp) that records allocations only between them.
//
// They are called outside the instruction counter's region (before its start, after its stop),
// so no instruction count includes them; with no counter (`--counter none`, as explain runs the
// case) nothing but the round's allocation bracket lies between them. Out of line and under
// fixed C names, because valgrind finds what it wraps by symbol name.
#pragma once

extern "C" {
void moq_measured_round_begin() noexcept;
void moq_measured_round_end() noexcept;
}
