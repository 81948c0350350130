#include "harness/cli/fatal_errors.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

namespace moq::cli {

namespace {

const char* g_program = "moqbench";

// Writes with fputs only: no allocation, since memory may have run out.
[[noreturn]] void on_terminate() {
  std::fputs(g_program, stderr);
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::bad_alloc&) {
      std::fputs(
          ": out of memory (std::bad_alloc): the case needs more memory than this process could "
          "get; lower its largest axes (moqbench list shows them)\n",
          stderr);
    } catch (const std::exception& e) {
      std::fputs(": fatal: an exception escaped: ", stderr);
      std::fputs(e.what(), stderr);
      std::fputs("\n", stderr);
    } catch (...) {
      std::fputs(": fatal: an exception of unknown type escaped\n", stderr);
    }
  } else {
    std::fputs(": fatal: std::terminate called\n", stderr);
  }
  std::fflush(stderr);
  std::abort();
}

}  // namespace

void install_fatal_error_handlers(const char* program) {
  g_program = program;
  std::set_terminate(on_terminate);
}

}  // namespace moq::cli
