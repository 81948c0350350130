// Case ids, axis values, lists and grids: what is accepted, and that every refusal names the bad
// value.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/runner/case_builder.h"
#include "harness/runner/sweep_plan.h"
#include "tests/harness/fake_scenarios.h"

namespace moq::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class CaseBuilderTest : public ::testing::Test {
 protected:
  ScenarioRegistry registry_ = testing::make_test_registry();
  const ScenarioDef& versioned_ = *registry_.find("versioned");
  const ScenarioDef& plain_ = *registry_.find("plain");
};

TEST_F(CaseBuilderTest, CaseIdRoundTripsAndFillsDefaults) {
  Result<CaseSpec> spec =
      parse_case_id(registry_, "model/versioned/moq-lite-07-wip/publishers=4/viewers=16/mode=slow");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->version(), "moq-lite-07-wip");
  EXPECT_EQ(spec->integer("publishers"), 4);
  EXPECT_EQ(spec->integer("viewers"), 16);
  EXPECT_EQ(spec->text("mode"), "slow");
  EXPECT_EQ(spec->integer("frame_size"), 64);
  EXPECT_EQ(spec->id(), "model/versioned/moq-lite-07-wip/publishers=4/viewers=16/mode=slow");

  Result<CaseSpec> defaults = parse_case_id(registry_, "model/versioned/moq-lite-06");
  ASSERT_TRUE(defaults) << defaults.error().message;
  EXPECT_EQ(defaults->id(), "model/versioned/moq-lite-06/publishers=1/viewers=1/mode=fast");
}

TEST_F(CaseBuilderTest, HiddenDefaultAxisAppearsInTheIdOnlyWhenSet) {
  Result<CaseSpec> spec = parse_case_id(registry_, "model/versioned/moq-lite-06/frame_size=128");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->id(),
            "model/versioned/moq-lite-06/publishers=1/viewers=1/mode=fast/frame_size=128");
  ASSERT_EQ(spec->id_params().size(), 4u);
  Result<CaseSpec> same = parse_case_id(registry_, "model/versioned/moq-lite-06/frame_size=64");
  ASSERT_TRUE(same);
  EXPECT_EQ(same->id(), "model/versioned/moq-lite-06/publishers=1/viewers=1/mode=fast");
}

TEST_F(CaseBuilderTest, ReadingSaysWhatAnIdFilledInOrRewrote) {
  CaseIdReading reading;
  Result<CaseSpec> spec = parse_case_id(
      registry_, "model/versioned/moq-lite-06/mode=slow/publishers=004/frame_size=64", &reading);
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->id(), "model/versioned/moq-lite-06/publishers=4/viewers=1/mode=slow");
  EXPECT_EQ(reading.defaulted, (std::vector<std::string>{"viewers=1"}));
  ASSERT_EQ(reading.respelled.size(), 1u);
  EXPECT_EQ(reading.respelled[0].first, "publishers=004");
  EXPECT_EQ(reading.respelled[0].second, "publishers=4");
  EXPECT_EQ(reading.left_out, (std::vector<std::string>{"frame_size=64"}));

  CaseIdReading canonical;
  ASSERT_TRUE(parse_case_id(registry_, spec->id(), &canonical));
  EXPECT_TRUE(canonical.defaulted.empty());
  EXPECT_TRUE(canonical.respelled.empty());
  EXPECT_TRUE(canonical.left_out.empty());
}

TEST_F(CaseBuilderTest, ScenarioWithoutVersionUsesNone) {
  Result<CaseSpec> spec = parse_case_id(registry_, "model/plain/none/count=3");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->version(), "none");
  EXPECT_EQ(spec->id(), "model/plain/none/count=3");
  Result<CaseSpec> bad = parse_case_id(registry_, "model/plain/moq-lite-06/count=3");
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message, HasSubstr("'moq-lite-06'"));
}

TEST_F(CaseBuilderTest, BadIdsNameTheBadPart) {
  struct Bad {
    const char* id;
    const char* names;
  };
  for (const Bad& b : {
           Bad{"model/nosuch/moq-lite-06", "unknown scenario 'nosuch'"},
           Bad{"model/versioned/moq-lite-99", "unknown version 'moq-lite-99'"},
           Bad{"model/versioned/moq-transport-18", "'moq-transport-18' is not implemented yet"},
           Bad{"model/versioned/moq-lite-06/burst=3", "has no axis 'burst'"},
           Bad{"model/versioned/moq-lite-06/publishers=x", "'x' is not an integer"},
           Bad{"model/versioned/moq-lite-06/publishers=0", "'0' is outside 1..64"},
           Bad{"model/versioned/moq-lite-06/publishers=99999999999999999999", "outside"},
           Bad{"model/versioned/moq-lite-06/mode=medium", "'medium' is not one of fast, slow"},
           Bad{"model/versioned/moq-lite-06/viewers", "'viewers' is not of the form axis=value"},
           Bad{"model/versioned/moq-lite-06/viewers=1/viewers=2", "'viewers' is set twice"},
           Bad{"relay/versioned/moq-lite-06", "does not run on bench 'relay'"},
           Bad{"lab/versioned/moq-lite-06", "unknown bench 'lab'"},
           Bad{"model/versioned", "bench/scenario/version"},
       }) {
    Result<CaseSpec> spec = parse_case_id(registry_, b.id);
    ASSERT_FALSE(spec) << b.id;
    EXPECT_THAT(spec.error().message, HasSubstr(b.names)) << b.id;
  }
}

TEST_F(CaseBuilderTest, SplitList) {
  Result<std::vector<std::string>> ok = split_list("1,4,16", "--viewers");
  ASSERT_TRUE(ok);
  EXPECT_THAT(*ok, ElementsAre("1", "4", "16"));
  for (const char* bad : {"", "1,,4", ",1", "4,", "4,4"}) {
    Result<std::vector<std::string>> r = split_list(bad, "--viewers");
    ASSERT_FALSE(r) << bad;
    EXPECT_THAT(r.error().message, HasSubstr("--viewers: malformed list '" + std::string(bad)))
        << bad;
  }
}

TEST_F(CaseBuilderTest, GridTakesOverridesElseSweepValuesLastAxisFastest) {
  Result<std::vector<CaseSpec>> grid =
      expand_grid(registry_, versioned_, "model", {{"viewers", {"2", "3"}, "--viewers"}});
  ASSERT_TRUE(grid) << grid.error().message;
  std::vector<std::string> ids;
  for (const CaseSpec& c : *grid)
    ids.push_back(c.id());
  EXPECT_THAT(ids, ElementsAre("model/versioned/moq-lite-06/publishers=1/viewers=2/mode=fast",
                               "model/versioned/moq-lite-06/publishers=1/viewers=3/mode=fast",
                               "model/versioned/moq-lite-06/publishers=4/viewers=2/mode=fast",
                               "model/versioned/moq-lite-06/publishers=4/viewers=3/mode=fast",
                               "model/versioned/moq-lite-07-wip/publishers=1/viewers=2/mode=fast",
                               "model/versioned/moq-lite-07-wip/publishers=1/viewers=3/mode=fast",
                               "model/versioned/moq-lite-07-wip/publishers=4/viewers=2/mode=fast",
                               "model/versioned/moq-lite-07-wip/publishers=4/viewers=3/mode=fast"));
}

TEST_F(CaseBuilderTest, GridErrorsNameTheOption) {
  Result<std::vector<CaseSpec>> bad =
      expand_grid(registry_, versioned_, "model", {{"viewers", {"2", "zero"}, "--viewers"}});
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message,
              HasSubstr("--viewers: axis 'viewers': 'zero' is not an integer"));
  bad = expand_grid(registry_, plain_, "model", {{"viewers", {"2"}, "--viewers"}});
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message, HasSubstr("--viewers: scenario 'plain' has no axis 'viewers'"));
}

// A scenario's combination rule runs for every planned case, by every way of naming one: its
// refusal carries the case id, and a combination it accepts is planned as before.
TEST_F(CaseBuilderTest, ScenarioCombinationRulesRunWhenACaseIsPlanned) {
  ScenarioDef def = versioned_;
  def.name = "ruled";
  def.in_default_sweep = false;
  def.check_axes = [](const CaseSpec& spec) -> Status {
    if (spec.integer("viewers") > spec.integer("publishers"))
      return Error{0, "viewers=" + std::to_string(spec.integer("viewers")) +
                          " exceeds publishers=" + std::to_string(spec.integer("publishers"))};
    return {};
  };
  ScenarioRegistry registry = testing::make_test_registry();
  ASSERT_TRUE(registry.add(def));
  const ScenarioDef& ruled = *registry.find("ruled");

  Result<CaseSpec> refused =
      make_case_spec(registry, ruled, "model", {{"publishers", "1"}, {"viewers", "2"}});
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message,
              HasSubstr("case model/ruled/moq-lite-06/publishers=1/viewers=2/mode=fast is "
                        "refused: viewers=2 exceeds publishers=1"));
  Result<CaseSpec> by_id = parse_case_id(registry, "model/ruled/moq-lite-06/viewers=2");
  ASSERT_FALSE(by_id);
  EXPECT_THAT(by_id.error().message, HasSubstr("viewers=2 exceeds publishers=1"));
  Result<std::vector<CaseSpec>> grid =
      expand_grid(registry, ruled, "model", {{"viewers", {"1", "4"}, "--viewers"}});
  ASSERT_FALSE(grid);
  EXPECT_THAT(grid.error().message, HasSubstr("viewers=4 exceeds publishers=1"));
  SweepRequest request;
  request.scenarios = {"ruled"};
  request.axes = {{"viewers", {"4"}, "--viewers"}};
  Result<std::vector<CaseSpec>> swept = plan_sweep(registry, request);
  ASSERT_FALSE(swept);
  EXPECT_THAT(swept.error().message, HasSubstr("viewers=4 exceeds publishers=1"));

  Result<CaseSpec> accepted =
      parse_case_id(registry, "model/ruled/moq-lite-06/publishers=4/viewers=2");
  ASSERT_TRUE(accepted) << accepted.error().message;
  request.axes = {{"viewers", {"1"}, "--viewers"}};
  swept = plan_sweep(registry, request);
  ASSERT_TRUE(swept) << swept.error().message;
  EXPECT_EQ(swept->size(), 4u);  // 2 versions x publishers {1,4}
}

TEST_F(CaseBuilderTest, PlanSweepDefaultsToTheDefaultSweep) {
  Result<std::vector<CaseSpec>> cases = plan_sweep(registry_, {});
  ASSERT_TRUE(cases) << cases.error().message;
  // versioned: 2 versions x publishers {1,4} x viewers {1,16}.
  ASSERT_EQ(cases->size(), 8u);
  EXPECT_EQ(cases->front().id(), "model/versioned/moq-lite-06/publishers=1/viewers=1/mode=fast");
  EXPECT_EQ(cases->back().id(),
            "model/versioned/moq-lite-07-wip/publishers=4/viewers=16/mode=fast");
}

TEST_F(CaseBuilderTest, PlanSweepAppliesAxesToTheScenariosThatHaveThem) {
  SweepRequest request;
  request.scenarios = {"plain", "versioned"};
  request.axes = {{"count", {"2"}, "--set count"}, {"version", {"moq-lite-06"}, "--versions"}};
  Result<std::vector<CaseSpec>> cases = plan_sweep(registry_, request);
  ASSERT_TRUE(cases) << cases.error().message;
  ASSERT_EQ(cases->size(), 1u + 4u);
  EXPECT_EQ((*cases)[0].id(), "model/plain/none/count=2");
  EXPECT_EQ((*cases)[1].version(), "moq-lite-06");
}

TEST_F(CaseBuilderTest, PlanSweepRefusals) {
  struct Bad {
    SweepRequest request;
    const char* names;
  };
  std::vector<Bad> bads;
  bads.push_back({{{"nosuch"}, {}, {}}, "--scenario: unknown scenario 'nosuch'"});
  bads.push_back({{{"plain"}, {}, {{"burst", {"2"}, "--burst"}}},
                  "--burst: no selected scenario has the axis 'burst'"});
  bads.push_back({{{}, {"lab"}, {}}, "--bench: unknown bench 'lab'"});
  bads.push_back({{{"plain"}, {"relay"}, {}}, "does not run on bench 'relay'"});
  bads.push_back({{{}, {}, {{"version", {"moq-lite-99"}, "--versions"}}},
                  "--versions: unknown version 'moq-lite-99'"});
  bads.push_back({{{"plain"}, {}, {{"count", {"2", "02"}, "--set count"}}},
                  "names case model/plain/none/count=2 twice"});
  for (const Bad& b : bads) {
    Result<std::vector<CaseSpec>> cases = plan_sweep(registry_, b.request);
    ASSERT_FALSE(cases) << b.names;
    EXPECT_THAT(cases.error().message, HasSubstr(b.names));
  }
}

TEST_F(CaseBuilderTest, NoImplementedVersionMeansNoCaseAndSaysWhy) {
  ScenarioRegistry r = testing::make_test_registry();
  r.set_versions({}, {"moq-lite-06"});
  Result<std::vector<CaseSpec>> cases = plan_sweep(r, {});
  ASSERT_FALSE(cases);
  EXPECT_THAT(cases.error().message, HasSubstr("no protocol version is implemented yet"));
}

TEST(ScenarioRegistryTest, RefusesMalformedDefinitions) {
  ScenarioRegistry r;
  auto make = [](const CaseSpec&) -> Result<std::unique_ptr<Case>> { return Error{0, "unused"}; };
  ScenarioDef ok{"ok", "fine", {"model"}, {}, false, make, {}, {}};
  EXPECT_TRUE(r.add(ok));
  EXPECT_THAT(r.add(ok).error().message, HasSubstr("registered twice"));
  ScenarioDef slash{"a/b", "bad name", {"model"}, {}, false, make, {}, {}};
  EXPECT_FALSE(r.add(slash));
  ScenarioDef late_version{"late",    "version not first",
                           {"model"}, {AxisSpec::integer("n", "n", 1, 1, 2), AxisSpec::version()},
                           false,     make,
                           {},        {}};
  EXPECT_THAT(r.add(late_version).error().message, HasSubstr("must come first"));
  ScenarioDef bad_default{"bad_default",
                          "default out of range",
                          {"model"},
                          {AxisSpec::integer("n", "n", 5, 1, 2)},
                          false,
                          make,
                          {},
                          {}};
  EXPECT_THAT(r.add(bad_default).error().message, HasSubstr("default outside"));
  ScenarioDef bad_bench{"bad_bench", "unknown bench", {"lab"}, {}, false, make, {}, {}};
  EXPECT_THAT(r.add(bad_bench).error().message, HasSubstr("unknown bench 'lab'"));
}

}  // namespace
}  // namespace moq::harness
