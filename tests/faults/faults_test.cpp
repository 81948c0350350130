// Every fault scenario on every implemented version keeps what the protocol promises over a range
// of seeds (under ASan and UBSan in ./tools/test); a seed gives the same trace every time and
// different seeds give different ones; `moqbench faults` runs one and refuses bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "harness/cli/cli.h"
#include "harness/runner/faults.h"
#include "harness/runner/registrar.h"
#include "scenarios/fault_check.h"

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr uint64_t kSeeds = 100;

std::vector<std::string> versions() {
  ScenarioRegistry registry;
  EXPECT_TRUE(register_linked_scenarios(registry));
  return registry.swept_versions();  // what `moqbench faults` runs by default
}

TEST(Faults, EveryFaultIsRegisteredOnce) {
  std::set<std::string> names;
  for (const FaultDef& f : registered_faults())
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
  EXPECT_EQ(names, (std::set<std::string>{"close-mid-fetch", "goaway", "group-reset",
                                          "publisher-vanish", "relay-reconnect", "tiny-window"}));
}

TEST(Faults, EveryFaultKeepsEveryPromiseOnEveryVersionAndSeed) {
  for (const FaultDef& f : registered_faults()) {
    for (const std::string& v : versions()) {
      for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
        const FaultOutcome o = f.run(v, seed);
        EXPECT_EQ(o.failure, "") << o.summary
                                 << "\n  replay: " << fault_replay_command(f.name, v, seed);
      }
    }
  }
}

// Regression: a moq-transport viewer whose relay reset a subgroup stream before its header
// arrived waited forever for PUBLISH_DONE's Stream Count (the subscription never ended once its
// publisher vanished). These seeds hung before the TailGrace fix (model/session/core/
// tail_grace.h).
TEST(Faults, APublisherVanishingEndsMoqTransportSubscriptions) {
  for (const std::string v : {"moq-transport-18", "moq-transport-22"}) {
    for (uint64_t seed : {24, 29, 30, 31, 33}) {
      const FaultOutcome o = registered_faults()[2].run(v, seed);
      EXPECT_EQ(o.failure, "") << v << " seed " << seed;
    }
  }
}

TEST(Faults, ASeedGivesTheSameTraceAndSeedsDiffer) {
  for (const FaultDef& f : registered_faults()) {
    for (const std::string& v : versions()) {
      const FaultOutcome a = f.run(v, 7);
      const FaultOutcome b = f.run(v, 7);
      EXPECT_EQ(a.trace, b.trace) << f.name << " " << v;
      EXPECT_EQ(a.summary, b.summary) << f.name << " " << v;
      std::set<std::string> traces;
      for (uint64_t seed = 1; seed <= 5; ++seed)
        traces.insert(f.run(v, seed).trace);
      EXPECT_GE(traces.size(), 4u) << f.name << " " << v;
    }
  }
}

// The checker itself fails on what it is there to catch.
TEST(FaultViewerCheck, CatchesDamagedRepeatedTruncatedAndUnendedGroups) {
  using scenarios::FaultViewer;
  using scenarios::GroupEnd;
  const scenarios::Written written = {{0, {2, true, 0}}, {1, {2, true, 0}}};
  // Frame `index` of group seq arrives carrying frame k of group g.
  auto arrive = [](FaultViewer& v, uint64_t seq, uint64_t index, uint64_t g, uint64_t k) {
    const Bytes payload = scenarios::fault_payload(g, k, 32);
    FrameView f;
    f.chunks = std::span<const Bytes>(&payload, 1);
    v.frame(seq, index, f, 1);
  };
  {  // whole groups: fine
    Fnv64 trace;
    FaultViewer v("v", 32, trace);
    for (uint64_t g = 0; g < 2; ++g) {
      arrive(v, g, 0, g, 0);
      arrive(v, g, 1, g, 1);
      v.group_ended(g, GroupEnd::Finished, 2, 2);
    }
    EXPECT_EQ(v.check(written, {0, 1}), "");
  }
  {  // frame 0 again in the place of frame 1
    Fnv64 trace;
    FaultViewer v("v", 32, trace);
    arrive(v, 0, 0, 0, 0);
    arrive(v, 0, 1, 0, 0);
    v.group_ended(0, GroupEnd::Finished, 2, 2);
    EXPECT_THAT(v.check(written, {}), HasSubstr("is not the frame written there"));
  }
  {  // ended with no reset after one of two frames
    Fnv64 trace;
    FaultViewer v("v", 32, trace);
    arrive(v, 0, 0, 0, 0);
    v.group_ended(0, GroupEnd::Finished, 1, 1);
    EXPECT_THAT(v.check(written, {}), HasSubstr("with no reset"));
  }
  {  // a group seen but never ended, and an untouched group that never arrived
    Fnv64 trace;
    FaultViewer v("v", 32, trace);
    arrive(v, 0, 0, 0, 0);
    EXPECT_THAT(v.check(written, {}), HasSubstr("neither ended nor was reset"));
    FaultViewer w("w", 32, trace);
    arrive(w, 0, 0, 0, 0);
    w.group_ended(0, GroupEnd::Aborted, 1, 1);
    EXPECT_THAT(w.check(written, {1}), HasSubstr("group 1, untouched by the fault, never arrived"));
  }
}

class FaultsCli : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(register_linked_scenarios(registry_)); }
  int run(std::vector<std::string> args) {
    args.insert(args.begin(), "moqbench");
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& a : args)
      argv.push_back(a.data());
    out_.str("");
    err_.str("");
    cli::CliIo io{out_, err_};
    return cli::run_cli(static_cast<int>(argv.size()), argv.data(), registry_, io);
  }
  ScenarioRegistry registry_;
  std::ostringstream out_, err_;
};

TEST_F(FaultsCli, RunsOneFaultVersionAndSeedAndPrintsItsTrace) {
  EXPECT_EQ(run({"faults", "--fault", "group-reset", "--versions", "moq-lite-06", "--seed", "3"}),
            0);
  const FaultOutcome o = registered_faults()[0].run("moq-lite-06", 3);
  EXPECT_THAT(out_.str(), HasSubstr("group-reset moq-lite-06 seed 3: ok, trace " + o.trace));
  EXPECT_THAT(out_.str(), HasSubstr("1 runs, 0 failed"));
  EXPECT_EQ(run({"faults", "--list"}), 0);
  EXPECT_THAT(out_.str(), HasSubstr("relay-reconnect"));
}

TEST_F(FaultsCli, RefusesAnUnknownFaultOrVersion) {
  EXPECT_EQ(run({"faults", "--fault", "nosuch"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("no fault 'nosuch' (faults: group-reset, close-mid-fetch"));
  EXPECT_EQ(run({"faults", "--versions", "moq-lite-99"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("version 'moq-lite-99' is not implemented"));
  EXPECT_EQ(run({"faults", "--seeds", "0"}), 2);
}

TEST_F(FaultsCli, RefusesASeedThatDoesNotFitAndARangeThatOverflows) {
  EXPECT_EQ(run({"faults", "--fault", "group-reset", "--seed", "-1"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("--seed '-1' is not a seed"));
  EXPECT_THAT(out_.str(), Not(HasSubstr("runs,")));
  EXPECT_EQ(run({"faults", "--fault", "group-reset", "--seed", "18446744073709551616"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("'18446744073709551616' is not a seed"));
  EXPECT_EQ(run({"faults", "--fault", "group-reset", "--seed", "7x"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("'7x' is not a seed"));
  EXPECT_EQ(
      run({"faults", "--fault", "group-reset", "--seed", "18446744073709551615", "--seeds", "2"}),
      2);
  EXPECT_THAT(err_.str(),
              HasSubstr("--seed 18446744073709551615 with --seeds 2 runs past the largest seed"));
}

TEST_F(FaultsCli, RunsTheLargestSeedWhenTheRangeEndsOnIt) {
  EXPECT_EQ(run({"faults", "--fault", "group-reset", "--versions", "moq-lite-06", "--seed",
                 "18446744073709551615"}),
            0);
  EXPECT_THAT(out_.str(), HasSubstr("seed 18446744073709551615: ok"));
  EXPECT_THAT(out_.str(), HasSubstr("1 runs, 0 failed"));
  // A version list with no version in it would run nothing: refused, not passed.
  EXPECT_EQ(run({"faults", "--fault", "group-reset", "--versions", ","}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("--versions ',' names no version"));
}

}  // namespace
}  // namespace moq::harness
