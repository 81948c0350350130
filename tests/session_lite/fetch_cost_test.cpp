// The fetch round's budget, measured with callgrind on the Release build of
// session_lite_fetch_cost (see that file): per round, at most 1,000,000 instructions and 32
// allocations, on every lite version, and a 256-frame round allocates at most 4 times more than
// a 4-frame one. The subscription round (one group stream per round) is held to the same budget.
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

namespace moq::test {
namespace {

constexpr int kRounds = 50;

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

Cost measure(session::Version v, int frames, const std::string& mode) {
  Cost cost;
  Result<std::string> valgrind = counters::find_valgrind();
  if (!valgrind.ok()) {
    ADD_FAILURE() << valgrind.error().message;
    return cost;
  }
  const std::string version(session::version_name(v));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("moq_fetch_cost." + std::to_string(getpid()) + "." + version +
                                     "." + std::to_string(frames) + "." + mode);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string cmd = *valgrind +
                          " --tool=callgrind --collect-atstart=no -q --callgrind-out-file=" +
                          (dir / "cg.out").string() + " " + MOQ_FETCH_COST + " " + version + " " +
                          std::to_string(frames) + " " + std::to_string(kRounds) + " " + mode +
                          " > " + (dir / "stdout").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string label = mode + " " + version + " frames=" + std::to_string(frames) +
                            " rounds=" + std::to_string(kRounds);
  const std::filesystem::path dump = dir / "cg.out.1";
  Result<uint64_t> ir = counters::parse_callgrind_dump_ir(read_text(dump), label, dump.string());
  EXPECT_TRUE(ir.ok()) << (ir.ok() ? "" : ir.error().message) << "\ncommand: " << cmd;
  if (ir.ok()) cost.instructions = static_cast<double>(*ir) / kRounds;
  const std::string out = read_text(dir / "stdout");
  const size_t at = out.find("allocs_per_round=");
  if (at != std::string::npos && out.compare(at + 17, 3, "n/a") != 0) {
    cost.allocs = std::strtod(out.c_str() + at + 17, nullptr);
  }
  std::filesystem::remove_all(dir);
  return cost;
}

class FetchCost : public ::testing::TestWithParam<session::Version> {};

void check_budget(session::Version v, const std::string& mode) {
  const Cost small = measure(v, 4, mode);
  const Cost large = measure(v, 256, mode);
  std::printf(
      "%s %s round: 4 frames %.0f instructions %.2f allocs; 256 frames %.0f "
      "instructions %.2f allocs\n",
      std::string(session::version_name(v)).c_str(), mode.c_str(), small.instructions, small.allocs,
      large.instructions, large.allocs);
  ::testing::Test::RecordProperty(mode + "_instructions_per_round_256",
                                  std::to_string(large.instructions));
  EXPECT_GT(large.instructions, small.instructions) << "nothing was measured";
  EXPECT_LE(large.instructions, 1'000'000);
  ASSERT_GE(small.allocs, 0) << "allocation counting is not active";
  EXPECT_LE(small.allocs, 32);
  EXPECT_LE(large.allocs, 32);
  EXPECT_LE(large.allocs - small.allocs, 4);
}

TEST_P(FetchCost, FetchRoundFitsTheInstructionAndAllocationBudget) {
  check_budget(GetParam(), "fetch");
}

TEST_P(FetchCost, SubscribedRoundFitsTheSameBudget) {
  check_budget(GetParam(), "subscribe");
}

INSTANTIATE_TEST_SUITE_P(Lite, FetchCost,
                         ::testing::Values(session::Version::Lite06, session::Version::Lite07Wip),
                         [](const auto& info) {
                           std::string n(session::version_name(info.param));
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace moq::test
