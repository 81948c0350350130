// A counter backend is one file plus its name in the results schema's list. "tally", defined in
// this file alone and registered as the real backends register, is found by name by the factory,
// by --counter (in-process moqbench run) and in the help; it measures; an unknown name is still
// refused. What it lacks is the other half, its name in the schema's list: results refuse it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "harness/cli/cli.h"
#include "harness/counters/counter_registry.h"
#include "harness/counters/open_counter.h"
#include "harness/runner/counter_choice.h"
#include "harness/runner/meta.h"
#include "harness/runner/registrar.h"
#include "reports/schema/json_io.h"
#include "reports/schema/validate.h"
#include "tests/harness/in_process_cli.h"
#include "tests/harness/scratch_dir_test.h"

namespace moq::counters {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

constexpr CounterBackend kTally = CounterBackend::named("tally");

// Counts the regions opened before it: its n-th region reads n, so a reading shows which region
// the caller measured, and that it measured through this counter.
class TallyCounter final : public InstructionCounter {
 public:
  explicit TallyCounter(std::string event) : event_(std::move(event)) {}
  Status start() override {
    if (open_) return Error{0, "tally: start() while a region is open"};
    open_ = true;
    ++regions_;
    return {};
  }
  Result<InstrReading> stop() override {
    if (!open_) return Error{0, "tally: stop() without start()"};
    open_ = false;
    return InstrReading{regions_, false, kTally};
  }
  CounterBackend backend() const override { return kTally; }
  const std::string& event() const override { return event_; }

 private:
  std::string event_;
  bool open_ = false;
  uint64_t regions_ = 0;
};

Result<CounterOpening> open_tally(const CounterOptions& options) {
  CounterOpening opening;
  opening.counter =
      std::make_unique<TallyCounter>(options.event.empty() ? "regions" : options.event);
  opening.detail = ": event " + opening.counter->event();
  return opening;
}

// Rank 0: only when asked for by name, never by auto.
CounterBackendDef tally_backend() {
  CounterBackendDef def;
  def.backend = kTally;
  def.takes_event = true;
  def.open = open_tally;
  return def;
}

}  // namespace

MOQ_REGISTER_COUNTER_BACKEND(tally_backend);

namespace {

TEST(CounterRegistry, TheFactoryOpensABackendOfThisFileByName) {
  CounterOptions options;
  options.backend = kTally;
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(options);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ((*c)->backend(), kTally);
  EXPECT_EQ((*c)->event(), "regions");
  for (uint64_t region = 1; region <= 3; ++region) {
    ASSERT_TRUE((*c)->start());
    Result<InstrReading> r = (*c)->stop();
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->instructions, region);
    EXPECT_EQ(r->backend, kTally);
  }
}

TEST(CounterRegistry, CounterChoiceTakesItByName) {
  Result<std::optional<CounterBackend>> parsed = harness::parse_counter_option("tally");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_TRUE(*parsed);
  EXPECT_EQ(**parsed, kTally);
  Result<harness::CounterChoice> choice = harness::choose_counter({*parsed, "notes", {}});
  ASSERT_TRUE(choice) << choice.error().message;
  EXPECT_EQ(choice->backend, kTally);
  EXPECT_FALSE(choice->reexec);
  EXPECT_EQ(choice->event, "notes");
  EXPECT_EQ(choice->why, "counter tally (asked for): event notes");
  ASSERT_NE(choice->counter, nullptr);
  ASSERT_TRUE(choice->counter->start());
  Result<InstrReading> r = choice->counter->stop();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->instructions, 1u);
}

TEST(CounterRegistry, AnUnknownNameIsStillRefused) {
  Result<std::optional<CounterBackend>> parsed = harness::parse_counter_option("tallyho");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message,
            "--counter: unknown counter 'tallyho' (choose auto, none, perf, callgrind, tally)");
  CounterOptions options;
  options.backend = CounterBackend::named("tallyho");
  Result<std::unique_ptr<InstructionCounter>> c = open_instruction_counter(options);
  ASSERT_FALSE(c);
  EXPECT_THAT(c.error().message, HasSubstr("no counter backend 'tallyho'"));
}

TEST(CounterRegistry, HelpAndEventNameItAutoDoesNotTakeIt) {
  EXPECT_EQ(harness::counter_option_help(),
            "instruction counter: auto (perf where the PMU works, else callgrind where valgrind "
            "is installed, else none), perf, callgrind, tally or none");
  EXPECT_TRUE(harness::counter_takes_event(kTally));
  EXPECT_FALSE(harness::counter_takes_event(CounterBackend::kCallgrind));
  EXPECT_EQ(harness::event_counter_names(), "perf or tally");
  Result<harness::CounterChoice> automatic = harness::choose_counter({});
  ASSERT_TRUE(automatic) << automatic.error().message;
  EXPECT_NE(automatic->backend, kTally);
  Result<harness::CounterChoice> fallback = harness::choose_default_counter({}, "--flag");
  ASSERT_TRUE(fallback) << fallback.error().message;
  EXPECT_NE(fallback->backend, kTally);
}

// moqbench run, in-process, over the real empty_round scenario.
class CounterRegistryCli : public harness::testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    Result<harness::ScenarioDef> def = harness::registered_scenario("empty_round");
    ASSERT_TRUE(def) << def.error().message;
    ASSERT_TRUE(registry_.add(std::move(*def)));
  }

  int run(std::vector<std::string> args) {
    harness::testing::CliRun r = harness::testing::run_in_process(registry_, std::move(args));
    out_ = std::move(r.out);
    err_ = std::move(r.err);
    return r.status;
  }

  harness::ScenarioRegistry registry_;
  std::string out_, err_;
};

TEST_F(CounterRegistryCli, RunMeasuresThroughIt) {
  ASSERT_EQ(run({"run", "model/empty_round/none", "--rounds", "2", "--warmup", "0", "--counter",
                 "tally", "--event", "notes"}),
            0)
      << err_;
  EXPECT_THAT(err_, HasSubstr("moqbench: counter tally (asked for): event notes"));
  EXPECT_THAT(out_, HasSubstr("counter   tally (notes)"));
  // Two measured rounds, regions 1 and 2: median (the lower middle) 1, min 1, max 2, mean 1.5.
  EXPECT_THAT(out_, ContainsRegex("instructions +1 +1 +2 +1\\.5"));
}

TEST_F(CounterRegistryCli, RunRefusesAnUnknownNameAndAnEventItDoesNotTake) {
  EXPECT_EQ(run({"run", "model/empty_round/none", "--counter", "tallyho"}), 2);
  EXPECT_THAT(err_, HasSubstr("unknown counter 'tallyho' (choose auto, none, perf, callgrind, "
                              "tally)"));
  EXPECT_EQ(run({"run", "model/empty_round/none", "--counter", "callgrind", "--event", "x"}), 2);
  EXPECT_THAT(err_, HasSubstr("--event 'x' applies to the perf or tally counter only, not to "
                              "--counter callgrind"));
  EXPECT_EQ(run({"run", "--help"}), 0);
  EXPECT_THAT(out_, HasSubstr("tally or none"));
}

// The other half: without its name in the schema's list, results cannot record the backend.
TEST_F(CounterRegistryCli, ResultsRefuseANameTheSchemaDoesNotList) {
  EXPECT_FALSE(kTally.listed());
  EXPECT_FALSE(results::parse_counter_backend("tally"));
  results::Status valid =
      results::validate_meta(results::to_json(harness::make_meta(kTally, "regions", {}, {})));
  ASSERT_FALSE(valid);
  EXPECT_THAT(valid.error().message,
              HasSubstr("counter_backend: expected one of \"none\", \"perf\", \"callgrind\""));
  const std::string out = (dir_ / "results.json").string();
  EXPECT_EQ(run({"run", "model/empty_round/none", "--counter", "tally", "--out", out}), 2);
  EXPECT_THAT(err_, HasSubstr("meta.counter_backend: expected one of"));
}

}  // namespace
}  // namespace moq::counters
