// `moqbench load` against its in-process relay over loopback QUIC: what it measures is in a valid
// results file (loss, latency, the relay's allocations per frame), and it fails loudly when it
// cannot reach a relay. The full shape of issue 11's budget (16 publishers x 64 viewers, 1 KiB at
// 30 frames/s for 10 s, pinned to one core, no loss) runs under the `long` label.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary to run"
#endif

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::run_process;

class LoadTest : public testing::ScratchDirTest {
 protected:
  results::ResultsFile load(std::vector<std::string> args) {
    std::vector<std::string> argv = {MOQBENCH, "load", "--out", path("load.json")};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessResult r = run_process(argv);
    EXPECT_EQ(r.status, 0) << r.err;
    last_out_ = r.out;
    results::Result<results::ResultsFile> file = results::read_results_file(path("load.json"));
    EXPECT_TRUE(file) << file.error().message << "\n" << r.err;
    return file ? *file : results::ResultsFile{};
  }
  std::string last_out_;
};

TEST_F(LoadTest, ASmallLoadArrivesWholeAndIsRecorded) {
  results::ResultsFile f = load({"--publishers", "2", "--viewers", "4", "--duration", "2"});
  ASSERT_EQ(f.cases.size(), 1u);
  const results::CaseResult& c = f.cases[0];
  EXPECT_EQ(c.id,
            "relay/load/moq-lite-06/publishers=2/broadcasts=1/viewers=4/frame_size=1024/fps=30/"
            "duration_s=2/relay=in-process/transport=quic");
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  ASSERT_TRUE(c.load);
  EXPECT_EQ(c.load->frames_expected, 2u * 30 * 4);
  EXPECT_EQ(c.load->frames_lost, 0u);
  EXPECT_EQ(c.load->bytes_delivered, c.load->frames_delivered * 1024);
  EXPECT_GT(c.load->frame_latency_ns.p50, 0u);
  EXPECT_LT(c.load->frame_latency_ns.p99, 1'000'000'000u) << "a second late on loopback";
  EXPECT_GT(c.load->group_latency_ns.max, 0u);
  EXPECT_TRUE(c.load->relay_in_process);
  ASSERT_TRUE(c.load->relay_allocations_per_frame);
  EXPECT_EQ(c.rounds.measured, 2u);
  ASSERT_TRUE(c.metrics.packets);
  EXPECT_GT(c.metrics.packets->min, 0u);
  EXPECT_THAT(last_out_, HasSubstr("delivered 240 of 240 frames (lost 0)"));
}

TEST_F(LoadTest, EveryVersionRunsAndBadArgumentsAreRefused) {
  for (const char* v : {"moq-lite-07-wip", "moq-transport-18", "moq-transport-22"}) {
    results::ResultsFile f =
        load({"--version", v, "--publishers", "1", "--viewers", "2", "--duration", "1"});
    ASSERT_EQ(f.cases.size(), 1u) << v;
    EXPECT_EQ(f.cases[0].load->frames_lost, 0u) << v;
  }
  ProcessResult r = run_process({MOQBENCH, "load", "--frame-size", "8"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("--frame-size must be at least 16"));
  r = run_process({MOQBENCH, "load", "--version", "moq-nonsense"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("'moq-nonsense'"));
}

TEST_F(LoadTest, ARelayThatIsNotThereFailsLoudly) {
  ProcessResult r = run_process(
      {MOQBENCH, "load", "--connect", "127.0.0.1:9", "--duration", "1", "--tls-disable-verify"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("nothing listens at 127.0.0.1:9"));
}

}  // namespace
}  // namespace moq::harness
