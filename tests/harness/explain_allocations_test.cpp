// `moqbench explain --allocations` run as a user runs it: where one measured round's allocations
// come from, from valgrind's DHAT. The builds measured are the uninstrumented ones (valgrind
// cannot run sanitized binaries): two test-only builds whose round allocates in functions of
// known names (harness/cli/allocating_round_fixture.cpp), and moqbench itself for a round that
// allocates nothing. The explaining moqbench is this build's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary of this build"
#endif
#ifndef MOQBENCH_UNINSTRUMENTED
#error "MOQBENCH_UNINSTRUMENTED must name the uninstrumented moqbench binary"
#endif
#ifndef ALLOC_FIXTURE
#error "ALLOC_FIXTURE must name the uninstrumented moqbench_alloc_fixture"
#endif
#ifndef ALLOC_FIXTURE_MORE
#error "ALLOC_FIXTURE_MORE must name the uninstrumented moqbench_alloc_fixture_more"
#endif

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using testing::ProcessResult;
using testing::run_process;

constexpr const char* kCase = "model/allocating_round/none";

class ExplainAllocationsTest : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> env() const { return {"TMPDIR=" + dir_.string()}; }
};

// The fixture's round allocates once in remember_round (48 bytes); set-up allocates 64 blocks in
// prepare_history and every warm-up round allocates too, none of which may show.
TEST_F(ExplainAllocationsTest, OneBuildNamesTheFunctionThatAllocates) {
  ProcessResult r =
      run_process({MOQBENCH, "explain", "--allocations", ALLOC_FIXTURE, kCase}, env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(std::string(kCase) +
                               ": base: 1 allocation, 48 bytes in one measured round"));
  EXPECT_THAT(r.out, HasSubstr("remember_round"));
  EXPECT_THAT(r.out, Not(HasSubstr("prepare_history")));
  EXPECT_THAT(r.out, Not(HasSubstr("copy_payload_twice")));
  EXPECT_THAT(r.out, HasSubstr("1 allocation site"));

  // A results file of one case: its binary measures the round again, with its warm-up rounds.
  r = run_process({ALLOC_FIXTURE_MORE, "run", kCase, "--counter", "none", "--rounds", "1",
                   "--warmup", "2", "--out", path("more.json")},
                  env());
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_process({MOQBENCH, "explain", "--allocations", path("more.json"), "--format", "md"},
                  env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("more: 3 allocations, 560 bytes in one measured round"));
  EXPECT_THAT(r.out, HasSubstr("| allocations | bytes | function | via | where |"));
  EXPECT_THAT(r.out, MatchesRegex("(.|\n)*\\| 2 \\| 512 \\| [^|]*copy_payload_twice(.|\n)*"));
  EXPECT_THAT(r.out, MatchesRegex("(.|\n)*\\| 1 \\| 48 \\| [^|]*remember_round(.|\n)*"));
  EXPECT_THAT(r.err, Not(HasSubstr("rebuilt")));
}

// Between two builds: the site the second build adds, with its counts and bytes; the site both
// share is unchanged.
TEST_F(ExplainAllocationsTest, TwoBuildsShowTheSiteThatChanged) {
  ProcessResult r = run_process(
      {MOQBENCH, "explain", "--allocations", ALLOC_FIXTURE, ALLOC_FIXTURE_MORE, kCase}, env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(": base 1 -> head 3 allocations (+2), 48 -> 560 bytes (+512)"));
  EXPECT_THAT(r.out,
              MatchesRegex("(.|\n)*copy_payload_twice[^\n]* 0 +2 +\\+2 +0 +512 +\\+512(.|\n)*"));
  EXPECT_THAT(r.out, HasSubstr("1 site changed, 1 unchanged"));
  EXPECT_THAT(r.out, Not(HasSubstr("remember_round")));
}

// A round that allocates nothing says so plainly, alone and between two builds.
TEST_F(ExplainAllocationsTest, ARoundWithoutAllocationsSaysSo) {
  const std::string empty = "model/empty_round/none";
  ProcessResult r =
      run_process({MOQBENCH, "explain", "--allocations", MOQBENCH_UNINSTRUMENTED, empty}, env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, empty + ": base: no allocations in the measured round\n");
  r = run_process({MOQBENCH, "explain", "--allocations", MOQBENCH_UNINSTRUMENTED,
                   MOQBENCH_UNINSTRUMENTED, empty},
                  env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, empty + ": no allocations in the measured round, in base or in head\n");
}

TEST_F(ExplainAllocationsTest, BadInputExitsTwo) {
  ProcessResult r =
      run_process({MOQBENCH, "explain", "--allocations", path("no-such-moqbench"), kCase}, env());
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("no-such-moqbench': no such file"));

  r = run_process({MOQBENCH, "explain", "--allocations", ALLOC_FIXTURE, "model/nosuch/none"},
                  env());
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("refused case model/nosuch/none"));
  EXPECT_THAT(r.err, HasSubstr("unknown scenario 'nosuch'"));

  r = run_process({MOQBENCH, "explain", "--allocations", ALLOC_FIXTURE}, env());
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("name the CASE"));

  // A callgrind profile has no allocation sites.
  std::ofstream(path("round.cg")) << "# callgrind format\n";
  r = run_process({MOQBENCH, "explain", "--allocations", path("round.cg")}, env());
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("holds no allocation sites"));

  // No valgrind at all, and a valgrind without its DHAT tool (an empty tool folder).
  r = run_process({MOQBENCH, "explain", "--allocations", ALLOC_FIXTURE, kCase},
                  {"TMPDIR=" + dir_.string(), "PATH=" + path("empty-path")});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("DHAT is not available: valgrind is not installed"));
  std::filesystem::create_directories(path("no-tools"));
  r = run_process({MOQBENCH, "explain", "--allocations", ALLOC_FIXTURE, kCase},
                  {"TMPDIR=" + dir_.string(), "VALGRIND_LIB=" + path("no-tools")});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("valgrind's DHAT is not available"));

  // Without --allocations, explain still wants two sides.
  r = run_process({MOQBENCH, "explain", ALLOC_FIXTURE}, env());
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("HEAD is missing"));
}

}  // namespace
}  // namespace moq::harness
