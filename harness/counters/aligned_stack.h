// Instruction counts must not depend on the size of the environment. The initial stack pointer
// moves with the bytes of argv and envp, and code such as glibc's memcpy takes paths that depend
// on the alignment of stack buffers, so the same build gave counts that differed by a few
// instructions per round between two shells (measured: 12,417 vs 12,433 instructions for one
// fetch round, depending on 16 bytes of environment). Running main's body on a stack whose
// position within its page is fixed removes that.
#pragma once

namespace moq::counters {

using MainFunction = int (*)(int argc, char** argv);

// Calls body(argc, argv) with the stack pointer at the same offset within a 4 KiB page whatever
// the environment, and returns its result.
int run_on_page_aligned_stack(MainFunction body, int argc, char** argv);

}  // namespace moq::counters
