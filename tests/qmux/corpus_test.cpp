// The QMux fuzz target's checks (tests/fuzz/qmux_checks.h) on its committed seeds, so that the
// regular tests run them without a fuzzing build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "tests/fuzz/qmux_checks.h"

#ifndef MOQ_QMUX_CORPUS
#error "MOQ_QMUX_CORPUS must name tests/fuzz/corpus/qmux"
#endif

namespace moq::fuzz {
namespace {

TEST(QmuxCorpus, EverySeedPassesTheFuzzChecks) {
  size_t seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MOQ_QMUX_CORPUS)) {
    std::ifstream f(entry.path(), std::ios::binary);
    const std::vector<uint8_t> input((std::istreambuf_iterator<char>(f)),
                                     std::istreambuf_iterator<char>());
    check_qmux_input(input, [&](const std::string& what) {
      ADD_FAILURE() << entry.path().filename() << ": " << what;
    });
    ++seeds;
  }
  EXPECT_GE(seeds, 10u);
}

}  // namespace
}  // namespace moq::fuzz
