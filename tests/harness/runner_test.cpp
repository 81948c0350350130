// The round runner over fake cases: call order, per-round samples of every metric, delivery
// totals, and failures recorded (not thrown) with a reason naming the round and what differed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/counters/alloc_counter.h"
#include "harness/runner/memory_estimate.h"
#include "harness/runner/runner.h"
#include "reports/schema/json_io.h"
#include "reports/schema/validate.h"
#include "tests/harness/fake_scenarios.h"

namespace moq::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class RunnerTest : public ::testing::Test {
 protected:
  results::CaseResult run(const testing::FakeBehaviour& b, RunOptions options = {2, 4}) {
    def_.name = "fake";
    def_.make = [b](const CaseSpec&) -> Result<std::unique_ptr<Case>> {
      return testing::make_fake_case(b);
    };
    CaseSpec spec(def_, "model", "none", {});
    results::CaseResult c = run_case(spec, options, nullptr);
    results::Status valid =
        results::validate_case(results::to_json(c), results::CounterBackend::kNone);
    EXPECT_TRUE(valid) << valid.error().message;
    return c;
  }
  ScenarioDef def_;
};

TEST_F(RunnerTest, CallsTheCaseInOrder) {
  testing::CallLog log;
  testing::FakeBehaviour b;
  b.log = &log;
  results::CaseResult c = run(b, {1, 2});
  EXPECT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  EXPECT_THAT(log.calls, ElementsAre("setup", "prepare 0", "run 0", "check 0", "prepare 1", "run 1",
                                     "check 1", "prepare 2", "run 2", "check 2", "teardown"));
}

TEST_F(RunnerTest, RecordsOneSamplePerMeasuredRound) {
  testing::FakeBehaviour b;
  b.allocs_per_round = 3;
  results::CaseResult c = run(b, {2, 4});
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  EXPECT_EQ(c.id, "model/fake/none");
  EXPECT_EQ(c.rounds.warmup, 2u);
  EXPECT_EQ(c.rounds.measured, 4u);
  EXPECT_FALSE(c.metrics.instructions);  // no counter
  ASSERT_TRUE(c.metrics.allocations);
  if (counters::alloc_counting_active()) {
    EXPECT_THAT(c.metrics.allocations->samples, ElementsAre(3, 3, 3, 3));
    EXPECT_EQ(c.metrics.allocation_bytes->median, 3u * 24u);
  }
  EXPECT_THAT(c.metrics.streams_opened->samples, ElementsAre(3, 3, 3, 3));
  // The fake writes 100 + round bytes; measured rounds are 2..5.
  EXPECT_THAT(c.metrics.wire_bytes->samples, ElementsAre(102, 103, 104, 105));
  EXPECT_EQ(c.metrics.wire_bytes->median, 103u);  // the lower middle
  EXPECT_EQ(c.metrics.wire_bytes->mean, 103.5);
  EXPECT_THAT(c.metrics.tasks_run->samples, ElementsAre(7, 7, 7, 7));
  EXPECT_EQ(c.metrics.wall_ns->samples.size(), 4u);
  EXPECT_EQ(c.delivered.frames, 8u);  // 2 per measured round
  EXPECT_EQ(c.delivered.bytes, 64u);
  EXPECT_EQ(c.delivered.hash.size(), 16u);
}

TEST_F(RunnerTest, SameWorkGivesTheSameHashDifferentWorkAnother) {
  testing::FakeBehaviour b;
  results::CaseResult one = run(b);
  results::CaseResult two = run(b);
  EXPECT_EQ(one.delivered, two.delivered);
  results::CaseResult longer = run(b, {2, 5});
  EXPECT_NE(one.delivered.hash, longer.delivered.hash);
}

TEST_F(RunnerTest, MissingFrameFailsTheCaseNamingBoth) {
  testing::FakeBehaviour b;
  b.bad_delivery_round = 3;  // the second measured round
  results::CaseResult c = run(b, {2, 4});
  ASSERT_TRUE(c.flags.failed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("measured round 2: delivery check failed: delivered 1 "
                                         "frames, 8 bytes"));
  EXPECT_THAT(*c.flags.reason, HasSubstr("expected 2 frames, 16 bytes"));
  // The round that completed before the failure is kept.
  ASSERT_TRUE(c.metrics.allocations);
  EXPECT_EQ(c.metrics.allocations->samples.size(), 1u);
}

TEST_F(RunnerTest, WrongBytesFailTheCase) {
  testing::FakeBehaviour b;
  b.bad_hash_round = 0;  // a warm-up round
  results::CaseResult c = run(b, {2, 4});
  ASSERT_TRUE(c.flags.failed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("warm-up round 1: delivery check failed"));
  EXPECT_FALSE(c.metrics.allocations);  // no measured round completed
  EXPECT_FALSE(c.metrics.wall_ns);
}

TEST_F(RunnerTest, SetupRoundErrorAndExceptionAreRecorded) {
  testing::FakeBehaviour setup;
  setup.fail_setup = true;
  results::CaseResult c = run(setup);
  ASSERT_TRUE(c.flags.failed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("setup: fake setup failure"));

  testing::FakeBehaviour error;
  error.error_round = 4;
  c = run(error, {2, 4});
  ASSERT_TRUE(c.flags.failed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("measured round 3: fake round error"));
  EXPECT_EQ(c.metrics.tasks_run->samples.size(), 2u);

  testing::FakeBehaviour thrown;
  thrown.throw_round = 1;
  c = run(thrown);
  ASSERT_TRUE(c.flags.failed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("exception: fake throw"));
}

// Running out of memory in a case is a failed case that says so (the process used to abort
// without a word); and a case whose estimate cannot fit is refused before it is built.
TEST_F(RunnerTest, OutOfMemoryIsRecordedAsSuch) {
  testing::FakeBehaviour starved;
  starved.bad_alloc_round = 3;
  results::CaseResult c = run(starved);
  ASSERT_TRUE(c.flags.failed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("out of memory (std::bad_alloc)"));
  EXPECT_THAT(*c.flags.reason, HasSubstr("lower its largest axes"));
}

TEST_F(RunnerTest, CaseBeyondMemoryIsRefusedBeforeItIsBuilt) {
  bool built = false;
  def_.name = "huge";
  def_.axes = {AxisSpec::integer("viewers", "viewers", 1, 1, 1 << 20)};
  def_.make = [&built](const CaseSpec&) -> Result<std::unique_ptr<Case>> {
    built = true;
    return testing::make_fake_case({});
  };
  def_.estimate_memory = [](const CaseSpec& spec) {
    MemoryEstimate e;
    e.add("what each viewer holds", uint64_t{1} << 50,
          {{"viewers", static_cast<uint64_t>(spec.integer("viewers"))}}, {"viewers"});
    return e;
  };
  CaseSpec spec(def_, "model", "none", {{"viewers", int64_t{4}}});
  results::CaseResult c = run_case(spec, {}, nullptr);
  ASSERT_TRUE(c.flags.failed);
  EXPECT_FALSE(built);
  EXPECT_THAT(*c.flags.reason, HasSubstr("needs about 4.0 PiB of memory"));
  EXPECT_THAT(*c.flags.reason, HasSubstr("what each viewer holds (viewers 4 x 1.0 PiB)"));
  EXPECT_THAT(*c.flags.reason, HasSubstr("; lower viewers"));
}

TEST(MemoryEstimateTest, TermsMultiplyTheirFactorsAndNameTheAxes) {
  MemoryEstimate e;
  e.add("frames each viewer holds", 320, {{"viewers", 1024}, {"groups", 1}, {"frames", 65536}},
        {"viewers", "frames"});
  e.add("the process", 32 << 20, {});
  EXPECT_EQ(e.total(), 320ull * 1024 * 65536 + (32 << 20));
  ASSERT_TRUE(e.largest());
  EXPECT_EQ(e.largest()->what,
            "frames each viewer holds (viewers 1024 x groups 1 x frames 65536 x 320 B)");
  EXPECT_EQ(e.largest()->axes, (std::vector<std::string>{"viewers", "frames"}));
  e.add("absurd", UINT64_MAX / 2, {{"n", 3}});
  EXPECT_EQ(e.total(), UINT64_MAX) << "saturates, never wraps";
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(20ull << 30), "20.0 GiB");
  EXPECT_EQ(format_bytes(1000), "1000 B");
}

TEST_F(RunnerTest, FactoryErrorIsRecorded) {
  def_.name = "fake";
  def_.make = [](const CaseSpec&) -> Result<std::unique_ptr<Case>> {
    return Error{0, "no such topology"};
  };
  CaseSpec spec(def_, "model", "none", {});
  results::CaseResult c = run_case(spec, {}, nullptr);
  ASSERT_TRUE(c.flags.failed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("building the case: no such topology"));
}

// A counter that reports 1000 + its call number, multiplexed on chosen calls, failing on one.
class ScriptedCounter final : public counters::InstructionCounter {
 public:
  std::vector<bool> multiplexed;  // per stop() call; beyond the end: not multiplexed
  int fail_stop_at = -1;

  Status start() override { return {}; }
  Result<counters::InstrReading> stop() override {
    int call = calls_++;
    if (call == fail_stop_at) return Error{0, "scripted counter failure"};
    counters::InstrReading r;
    r.instructions = 1000 + static_cast<uint64_t>(call);
    r.multiplexed = static_cast<size_t>(call) < multiplexed.size() && multiplexed[call];
    r.backend = results::CounterBackend::kPerf;
    return r;
  }
  counters::CounterBackend backend() const override { return results::CounterBackend::kPerf; }
  const std::string& event() const override { return event_; }

 private:
  int calls_ = 0;
  std::string event_ = "instructions:u";
};

class CountedRunnerTest : public RunnerTest {
 protected:
  results::CaseResult run_counted(ScriptedCounter& counter, RunOptions options) {
    def_.name = "fake";
    def_.make = [](const CaseSpec&) -> Result<std::unique_ptr<Case>> {
      return testing::make_fake_case({});
    };
    CaseSpec spec(def_, "model", "none", {});
    results::CaseResult c = run_case(spec, options, &counter);
    results::Status valid =
        results::validate_case(results::to_json(c), results::CounterBackend::kPerf);
    EXPECT_TRUE(valid) << valid.error().message;
    return c;
  }
};

TEST_F(CountedRunnerTest, CountsOnlyMeasuredRounds) {
  ScriptedCounter counter;
  results::CaseResult c = run_counted(counter, {2, 3});
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  ASSERT_TRUE(c.metrics.instructions);
  // Warm-up rounds are not counted: the counter's first reading is the first measured round.
  EXPECT_THAT(c.metrics.instructions->samples, ElementsAre(1000, 1001, 1002));
  EXPECT_FALSE(c.flags.multiplexed);
}

TEST_F(CountedRunnerTest, MultiplexedReadingsAreRejectedAndReplaced) {
  ScriptedCounter counter;
  counter.multiplexed = {false, true, false};
  results::CaseResult c = run_counted(counter, {1, 3});
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  EXPECT_TRUE(c.flags.multiplexed);
  EXPECT_THAT(c.metrics.instructions->samples, ElementsAre(1000, 1002, 1003));
  EXPECT_EQ(c.metrics.allocations->samples.size(), 3u);
  EXPECT_EQ(c.delivered.frames, 6u);  // only accepted rounds count
}

TEST_F(CountedRunnerTest, AlwaysMultiplexedFails) {
  ScriptedCounter counter;
  counter.multiplexed = std::vector<bool>(100, true);
  results::CaseResult c = run_counted(counter, {1, 3});
  ASSERT_TRUE(c.flags.failed);
  EXPECT_TRUE(c.flags.multiplexed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("multiplexed"));
  EXPECT_FALSE(c.metrics.instructions);
}

TEST_F(CountedRunnerTest, CounterErrorFailsTheCase) {
  ScriptedCounter counter;
  counter.fail_stop_at = 1;
  results::CaseResult c = run_counted(counter, {1, 3});
  ASSERT_TRUE(c.flags.failed);
  EXPECT_THAT(*c.flags.reason, HasSubstr("measured round 2: counter: scripted counter failure"));
  EXPECT_THAT(c.metrics.instructions->samples, ElementsAre(1000));
}

}  // namespace
}  // namespace moq::harness
