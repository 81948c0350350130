// The congested scenario: delivery timed on the virtual clock through a viewer link slower than
// the publisher's rate. On every version the viewer gets the newest groups first, old ones are
// let go, and latency stays within two group durations at twice the link's rate; within the
// link's rate every group arrives whole; the same case gives the same timing.
#include <gtest/gtest.h>

#include "harness/runner/case_builder.h"
#include "harness/runner/registrar.h"
#include "harness/runner/runner.h"

namespace moq::harness {
namespace {

constexpr uint32_t kRounds = 10;

class CongestedTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { ASSERT_TRUE(register_linked_scenarios(registry_)); }

  results::CaseResult run(const std::string& axes) {
    const std::string id = "model/congested/" + GetParam() + axes;
    Result<CaseSpec> spec = parse_case_id(registry_, id);
    EXPECT_TRUE(spec) << spec.error().message;
    if (!spec) return {};
    results::CaseResult r = run_case(*spec, RunOptions{3, kRounds}, nullptr);
    EXPECT_FALSE(r.flags.failed) << id << ": " << r.flags.reason.value_or("");
    EXPECT_TRUE(r.timing.has_value()) << id;
    return r;
  }

  ScenarioRegistry registry_;
};

TEST_P(CongestedTest, AtTwiceTheLinkRateLatencyStaysWithinTwoGroupDurations) {
  results::CaseResult r = run("/overload_pct=200/frame_size=1000");
  ASSERT_TRUE(r.timing);
  const results::DeliveryTiming& t = *r.timing;
  EXPECT_LE(t.group_latency_ns.p99, 2 * t.group_duration_ns);
  EXPECT_GT(t.frame_latency_ns.p50, 0u);
  EXPECT_GT(r.delivered.frames, 0u);
  ASSERT_EQ(t.viewers.size(), 1u);
  // Half the link's worth of each group cannot arrive: old groups are let go, none skipped.
  EXPECT_GT(t.viewers[0].reset, 0u);
  EXPECT_EQ(t.viewers[0].whole + t.viewers[0].reset + t.viewers[0].skipped, kRounds);
}

TEST_P(CongestedTest, WithinTheLinkRateEveryGroupArrivesWhole) {
  results::CaseResult r = run("/overload_pct=100/frame_size=1000");
  ASSERT_TRUE(r.timing);
  const results::DeliveryTiming& t = *r.timing;
  ASSERT_EQ(t.viewers.size(), 1u);
  EXPECT_EQ(t.viewers[0].whole, kRounds);
  EXPECT_EQ(t.viewers[0].reset, 0u);
  EXPECT_EQ(t.viewers[0].skipped, 0u);
  EXPECT_EQ(r.delivered.frames, kRounds * 8);
  // A group's last frame is written 7/8 of a group duration after its first and then takes a
  // frame's time on the link plus its latency: within two group durations, beyond one.
  EXPECT_GT(t.group_latency_ns.p50, t.group_duration_ns);
  EXPECT_LE(t.group_latency_ns.max, 2 * t.group_duration_ns);
}

TEST_P(CongestedTest, TheSameCaseGivesTheSameTiming) {
  const std::string axes = "/viewers=3/overload_pct=300";
  results::CaseResult a = run(axes);
  results::CaseResult b = run(axes);
  ASSERT_TRUE(a.timing && b.timing);
  EXPECT_EQ(*a.timing, *b.timing);
  EXPECT_EQ(a.timing->viewers.size(), 3u);
  EXPECT_EQ(a.delivered, b.delivered);
  ASSERT_TRUE(a.metrics.tasks_run && b.metrics.tasks_run);
  EXPECT_EQ(a.metrics.tasks_run->samples, b.metrics.tasks_run->samples);
}

INSTANTIATE_TEST_SUITE_P(AllVersions, CongestedTest,
                         ::testing::Values("moq-lite-06", "moq-lite-07-wip", "moq-transport-18",
                                           "moq-transport-22"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace moq::harness
