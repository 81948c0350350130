// The moq-transport budget, measured with callgrind on the Release build of
// session_ietf_round_cost: a fetch round of 256 64-byte frames costs at most 1.5x the same round
// on moq-lite-06, with at most 32 allocations per round, and 4-frame and 256-frame rounds differ
// by at most 4 allocations; the subscription round is held to the same allocation budget.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "harness/counters/callgrind_dump.h"
#include "harness/counters/callgrind_launch.h"
#include "model/session/session.h"

namespace moq::session::testing {
namespace {

constexpr int kRounds = 30;

struct Cost {
  double instructions = 0;  // per round
  double allocs = -1;       // per round; -1 when not measured
};

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Cost measure(const std::string& mode, Version v, int frames) {
  Cost cost;
  Result<std::string> valgrind = counters::find_valgrind();
  if (!valgrind.ok()) {
    ADD_FAILURE() << valgrind.error().message;
    return cost;
  }
  const std::string version(version_name(v));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("moq_ietf_cost." + std::to_string(getpid()) + "." + mode +
                                     "." + version + "." + std::to_string(frames));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string cmd =
      *valgrind + " --tool=callgrind --collect-atstart=no -q --callgrind-out-file=" +
      (dir / "cg.out").string() + " " + MOQ_ROUND_COST + " " + mode + " " + version + " " +
      std::to_string(frames) + " " + std::to_string(kRounds) + " > " + (dir / "stdout").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string label = mode + " " + version + " frames=" + std::to_string(frames) +
                            " rounds=" + std::to_string(kRounds);
  const std::filesystem::path dump = dir / "cg.out.1";
  Result<uint64_t> ir = counters::parse_callgrind_dump_ir(read_text(dump), label, dump.string());
  EXPECT_TRUE(ir.ok()) << (ir.ok() ? "" : ir.error().message) << "\ncommand: " << cmd;
  if (ir.ok()) cost.instructions = static_cast<double>(*ir) / kRounds;
  const std::string out = read_text(dir / "stdout");
  const size_t at = out.find("allocs_per_round=");
  if (at != std::string::npos && out.compare(at + 17, 3, "n/a") != 0)
    cost.allocs = std::strtod(out.c_str() + at + 17, nullptr);
  std::filesystem::remove_all(dir);
  return cost;
}

class IetfCost : public ::testing::TestWithParam<Version> {};

TEST_P(IetfCost, FetchRoundCostsAtMostOneAndAHalfLite06) {
  const Cost lite = measure("fetch", Version::Lite06, 256);
  const Cost small = measure("fetch", GetParam(), 4);
  const Cost large = measure("fetch", GetParam(), 256);
  std::printf(
      "fetch round, 256 frames: %s %.0f instructions %.2f allocs; moq-lite-06 %.0f "
      "instructions (ratio %.3f); 4 frames: %.0f instructions %.2f allocs\n",
      std::string(version_name(GetParam())).c_str(), large.instructions, large.allocs,
      lite.instructions, large.instructions / lite.instructions, small.instructions, small.allocs);
  RecordProperty("instructions_per_round_256", std::to_string(large.instructions));
  RecordProperty("lite06_instructions_per_round_256", std::to_string(lite.instructions));
  EXPECT_GT(large.instructions, small.instructions) << "nothing was measured";
  EXPECT_GT(lite.instructions, 0);
  EXPECT_LE(large.instructions, 1.5 * lite.instructions);
  ASSERT_GE(large.allocs, 0) << "allocation counting is not active";
  EXPECT_LE(small.allocs, 32);
  EXPECT_LE(large.allocs, 32);
  EXPECT_LE(large.allocs - small.allocs, 4);
  EXPECT_GE(large.allocs - small.allocs, -4);
}

TEST_P(IetfCost, SubscriptionRoundFitsTheAllocationBudget) {
  const Cost small = measure("subscribe", GetParam(), 4);
  const Cost large = measure("subscribe", GetParam(), 256);
  std::printf(
      "subscribe round: 4 frames %.0f instructions %.2f allocs; 256 frames %.0f "
      "instructions %.2f allocs\n",
      small.instructions, small.allocs, large.instructions, large.allocs);
  EXPECT_GT(large.instructions, small.instructions) << "nothing was measured";
  ASSERT_GE(large.allocs, 0) << "allocation counting is not active";
  EXPECT_LE(small.allocs, 32);
  EXPECT_LE(large.allocs, 32);
  EXPECT_LE(large.allocs - small.allocs, 4);
}

INSTANTIATE_TEST_SUITE_P(Drafts, IetfCost,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         [](const ::testing::TestParamInfo<Version>& info) {
                           return info.param == Version::Transport18 ? std::string("draft18")
                                                                     : std::string("draft22");
                         });

}  // namespace
}  // namespace moq::session::testing
