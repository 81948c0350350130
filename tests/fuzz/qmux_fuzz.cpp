// libFuzzer target: the QMux-00 frame decoder and a QMux connection fed a hostile byte stream
// (tests/fuzz/qmux_checks.h). Seeds: tests/fuzz/corpus/qmux.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/qmux_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moq::fuzz::check_qmux_input({data, size}, [](const std::string& what) {
    std::fprintf(stderr, "qmux: %s\n", what.c_str());
    std::abort();
  });
  return 0;
}
