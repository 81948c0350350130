// What the moqbench binaries do when memory runs out or an exception escapes where none may: say
// so on stderr before ending, never end silently. (The runner turns a std::bad_alloc inside a case
// into a failed case; this covers what is thrown elsewhere, or from code that may not throw, such
// as a destructor, where C++ calls std::terminate.)
#pragma once

namespace moq::cli {

// Installs a std::terminate handler that prints "<program>: out of memory (std::bad_alloc) ..."
// for std::bad_alloc, "<program>: fatal: <what()>" for another exception, then aborts. `program`
// must outlive the process (a string literal).
void install_fatal_error_handlers(const char* program);

}  // namespace moq::cli
