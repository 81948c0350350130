// Every registered scenario runs on every implemented version it takes and delivers exactly what
// its rounds promise; the default sweep is fetch_frames over every implemented version x
// publishers {1,4} x viewers {1,16} x frames {4,256}.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/runner/case_builder.h"
#include "harness/runner/registrar.h"
#include "harness/runner/runner.h"
#include "harness/runner/sweep_plan.h"
#include "model/data/track.h"

namespace moq::harness {
namespace {

using ::testing::HasSubstr;

class ScenariosTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(register_linked_scenarios(registry_)); }

  results::CaseResult run(const std::string& id, RunOptions options = {1, 2}) {
    Result<CaseSpec> spec = parse_case_id(registry_, id);
    EXPECT_TRUE(spec) << spec.error().message;
    if (!spec) return {};
    return run_case(*spec, options, nullptr);
  }

  ScenarioRegistry registry_;
};

TEST_F(ScenariosTest, EveryVersionIsImplementedAndKnown) {
  EXPECT_FALSE(registry_.implemented_versions().empty());
  EXPECT_EQ(registry_.known_versions().front(), "moq-lite-06");
}

TEST_F(ScenariosTest, RegistrarsGiveEveryScenarioOnceInNameOrder) {
  ASSERT_EQ(registry_.scenarios().size(), registered_scenario_count());
  for (size_t i = 1; i < registry_.scenarios().size(); ++i)
    EXPECT_LT(registry_.scenarios()[i - 1]->name, registry_.scenarios()[i]->name);
  // Registering them again into the same registry is refused as a duplicate.
  Status again = register_linked_scenarios(registry_);
  ASSERT_FALSE(again);
  EXPECT_THAT(again.error().message, HasSubstr("registered twice"));
  Result<ScenarioDef> one = registered_scenario("fetch_frames");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->name, "fetch_frames");
  Result<ScenarioDef> none = registered_scenario("nosuch");
  ASSERT_FALSE(none);
  EXPECT_THAT(none.error().message,
              HasSubstr("(registered: churn, congested, delivery, empty_round, fetch_frames"));
}

TEST_F(ScenariosTest, DefaultSweepIsFetchFramesOnBothBenchesOverEveryVersion) {
  Result<std::vector<CaseSpec>> cases = plan_sweep(registry_, {});
  ASSERT_TRUE(cases) << cases.error().message;
  // The model bench's 8 shapes per version, then the relay bench's at relays 1 and 2.
  const size_t versions = registry_.swept_versions().size();
  ASSERT_EQ(cases->size(), 8 * versions + 16 * versions);
  for (const CaseSpec& c : *cases)
    EXPECT_EQ(c.scenario().name, "fetch_frames");
  EXPECT_EQ(cases->front().id(), "model/fetch_frames/" + registry_.swept_versions().front() +
                                     "/publishers=1/viewers=1/frames=4");
  EXPECT_EQ((*cases)[8 * versions - 1].id(), "model/fetch_frames/" +
                                                 registry_.swept_versions().back() +
                                                 "/publishers=4/viewers=16/frames=256");
  EXPECT_EQ((*cases)[8 * versions].id(), "relay/fetch_frames/" +
                                             registry_.swept_versions().front() +
                                             "/relays=1/publishers=1/viewers=1/frames=4");
  EXPECT_EQ(cases->back().id(), "relay/fetch_frames/" + registry_.swept_versions().back() +
                                    "/relays=2/publishers=4/viewers=16/frames=256");
}

TEST_F(ScenariosTest, TheRelaysAxisExistsOnTheRelayBenchOnly) {
  const std::string version = registry_.implemented_versions().front();
  Result<CaseSpec> model = parse_case_id(
      registry_, "model/fetch_frames/" + version + "/relays=2/publishers=1/viewers=1/frames=4");
  ASSERT_FALSE(model);
  EXPECT_THAT(model.error().message,
              HasSubstr("axis 'relays' of scenario 'fetch_frames' exists on bench relay only"));
  // A sweep over both benches takes --set relays for the relay bench and leaves the model alone.
  SweepRequest request;
  request.scenarios = {"fetch_frames"};
  request.axes = {{"relays", {"4"}, "--set relays"},
                  {"version", {version}, "--versions"},
                  {"viewers", {"1"}, "--viewers"},
                  {"publishers", {"1"}, "--publishers"},
                  {"frames", {"4"}, "--frames"}};
  Result<std::vector<CaseSpec>> cases = plan_sweep(registry_, request);
  ASSERT_TRUE(cases) << cases.error().message;
  ASSERT_EQ(cases->size(), 2u);
  EXPECT_EQ((*cases)[0].id(), "model/fetch_frames/" + version + "/publishers=1/viewers=1/frames=4");
  EXPECT_EQ((*cases)[1].id(),
            "relay/fetch_frames/" + version + "/relays=4/publishers=1/viewers=1/frames=4");
}

TEST_F(ScenariosTest, SessionScenariosDeliverOnEveryVersion) {
  // Every swept version: the interop-only moq-transport-17 is left to tests/session_ietf,
  // tests/session and tests/relay, which run it, to keep this suite's time.
  for (const std::string& version : registry_.swept_versions()) {
    // 2 publishers, 3 viewers: publisher 0 has viewers 0 and 2, publisher 1 has viewer 1.
    struct Want {
      std::string id;
      uint64_t frames_per_round;
    };
    for (const Want& w : {
             Want{"model/fetch_frames/" + version + "/publishers=2/viewers=3/frames=5", 15},
             Want{"model/fetch_range/" + version + "/publishers=2/viewers=3/burst=3", 3 * 3 * 4},
             Want{"model/subscribe_frames/" + version + "/publishers=2/viewers=3/frames=5", 15},
             Want{"model/fetch_frames/" + version + "/publishers=3/viewers=1/frames=2", 2},
             // The relay bench: one relay, and a mesh where every viewer crosses a peer hop.
             Want{"relay/fetch_frames/" + version + "/relays=1/publishers=2/viewers=3/frames=5",
                  15},
             Want{"relay/fetch_frames/" + version + "/relays=3/publishers=2/viewers=3/frames=5",
                  15},
             Want{"relay/fetch_range/" + version + "/relays=2/publishers=2/viewers=3/burst=3",
                  3 * 3 * 4},
             Want{"relay/subscribe_frames/" + version + "/relays=4/publishers=2/viewers=3/frames=5",
                  15},
         }) {
      results::CaseResult c = run(w.id);
      EXPECT_FALSE(c.flags.failed) << w.id << ": " << c.flags.reason.value_or("");
      EXPECT_EQ(c.delivered.frames, 2 * w.frames_per_round) << w.id;
      EXPECT_EQ(c.delivered.bytes, 64 * c.delivered.frames) << w.id;
      ASSERT_TRUE(c.metrics.streams_opened) << w.id;
      EXPECT_GT(c.metrics.streams_opened->min, 0u) << w.id;
      EXPECT_GT(c.metrics.wire_bytes->min, 64 * w.frames_per_round) << w.id;
      EXPECT_GT(c.metrics.tasks_run->min, 0u) << w.id;
    }
  }
}

TEST_F(ScenariosTest, RelayScenariosRunOnEveryVersionAndBothBenches) {
  // Every swept version (the interop-only one runs in tests/relay, as above).
  for (const std::string& version : registry_.swept_versions()) {
    struct Want {
      std::string id;
      uint64_t frames_per_round;  // join and leave read the joined broadcast's 4-frame group
    };
    for (const Want& w : {
             Want{"model/join/" + version + "/broadcasts=3", 4},
             Want{"relay/join/" + version + "/relays=2/broadcasts=3", 4},
             Want{"model/leave/" + version + "/broadcasts=3", 4},
             Want{"relay/leave/" + version + "/relays=3/broadcasts=3", 4},
             Want{"relay/join_stale/" + version + "/relays=2/broadcasts=3", 4},
             Want{"model/prefixes/" + version + "/broadcasts=4/follow=9", 0},
             Want{"relay/prefixes/" + version + "/relays=2/broadcasts=4/follow=9", 0},
             Want{"model/prefixes_teardown/" + version + "/broadcasts=4/follow=9", 0},
             Want{"relay/prefixes_teardown/" + version + "/relays=2/broadcasts=4/follow=9", 0},
             Want{"model/churn/" + version + "/sessions=3/held=5", 0},
             Want{"relay/churn/" + version + "/relays=2/sessions=3/held=5", 0},
             // 2 publishers x 3 broadcasts; 5 viewers watching 2 each; 2 groups of 4 frames.
             Want{"model/delivery/" + version +
                      "/publishers=2/broadcasts=3/viewers=5/watch=2/burst=2",
                  5 * 2 * 2 * 4},
             Want{"relay/delivery/" + version +
                      "/relays=3/publishers=2/broadcasts=3/viewers=5/watch=2/burst=2",
                  5 * 2 * 2 * 4},
             Want{"relay/delivery/" + version +
                      "/relays=2/publishers=2/broadcasts=3/viewers=5/watch=2/burst=1/paced=yes",
                  5 * 2},
         }) {
      results::CaseResult c = run(w.id, {3, 2});
      EXPECT_FALSE(c.flags.failed) << w.id << ": " << c.flags.reason.value_or("");
      ASSERT_TRUE(c.metrics.tasks_run) << w.id;
      // Paced delivery measures whole groups: the 2 rounds asked for become 4.
      const uint64_t rounds = c.metrics.tasks_run->samples.size();
      EXPECT_EQ(rounds, w.id.ends_with("paced=yes") ? 4u : 2u) << w.id;
      EXPECT_EQ(c.delivered.frames, rounds * w.frames_per_round) << w.id;
      EXPECT_GT(c.metrics.tasks_run->min, 0u) << w.id;
    }
  }
}

TEST_F(ScenariosTest, FrameSizeIsSettableAndChangesWhatIsDelivered) {
  const std::string version = registry_.implemented_versions().front();
  results::CaseResult c =
      run("model/fetch_frames/" + version + "/publishers=1/viewers=1/frames=3/frame_size=1000");
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  EXPECT_EQ(c.id,
            "model/fetch_frames/" + version + "/publishers=1/viewers=1/frames=3/frame_size=1000");
  EXPECT_EQ(c.delivered.bytes, 2u * 3u * 1000u);
}

TEST_F(ScenariosTest, SameCaseSameDeliveryHash) {
  const std::string version = registry_.implemented_versions().front();
  const std::string id = "model/fetch_frames/" + version + "/publishers=1/viewers=2/frames=4";
  results::CaseResult a = run(id), b = run(id);
  EXPECT_EQ(a.delivered, b.delivered);
  // Over the same rounds (subscribe_frames warms up for longer, so both take its warm-up), the
  // same payloads reach the same viewers whether fetched or subscribed.
  RunOptions options{CacheLimits{}.max_groups + 2, 2};
  results::CaseResult fetched = run(id, options);
  results::CaseResult subscribed =
      run("model/subscribe_frames/" + version + "/publishers=1/viewers=2/frames=4", options);
  EXPECT_EQ(subscribed.rounds.warmup, fetched.rounds.warmup);
  EXPECT_EQ(subscribed.delivered, fetched.delivered);
  EXPECT_NE(fetched.delivered.hash, a.delivered.hash);  // other rounds, other payloads
}

TEST_F(ScenariosTest, SubscribeWarmsUpUntilTheViewerCacheIsFull) {
  results::CaseResult c = run("model/subscribe_frames/" + registry_.implemented_versions().front() +
                              "/publishers=1/viewers=1/frames=4");
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  EXPECT_GT(c.rounds.warmup, 1u);
}

TEST_F(ScenariosTest, GroupWriteFramesAllocatesNothingPerRound) {
  results::CaseResult c = run("model/group_write_frames/none/frames=64/batch=8", {3, 3});
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  EXPECT_EQ(c.delivered.frames, 3u * 64u);
  EXPECT_EQ(c.metrics.allocations->max, 0u);
  // One reader poll per batch, and one more for the end of the group.
  EXPECT_EQ(c.metrics.tasks_run->median, 64u / 8u + 1u);
  EXPECT_EQ(c.metrics.streams_opened->max, 0u);
}

// The reader takes every frame written so far at each wake-up and the writer moves payloads
// staged before the round: whatever the batch (one frame, one not dividing the group, the whole
// group), every round delivers its frames in order with the payloads the round check expects.
TEST_F(ScenariosTest, GroupWriteFramesDeliversEveryFrameWhateverTheBatch) {
  for (const char* batch : {"1", "3", "10", "64"}) {
    results::CaseResult c =
        run(std::string("model/group_write_frames/none/frames=10/batch=") + batch, {2, 3});
    ASSERT_FALSE(c.flags.failed) << batch << ": " << c.flags.reason.value_or("");
    EXPECT_EQ(c.delivered.frames, 3u * 10u) << batch;
    EXPECT_EQ(c.metrics.allocations->max, 0u) << batch;
  }
}

// The rule is checked when the case is planned, and the factory applies the same rule to a spec
// that did not come through the planner.
TEST_F(ScenariosTest, OversizedGroupIsRefusedWhenPlannedAndByTheFactory) {
  const std::string rule =
      "frames=65536 x frame_size=1048576 = 68719476736 bytes exceeds the largest group";
  Result<CaseSpec> planned =
      parse_case_id(registry_, "model/group_write_frames/none/frames=65536/frame_size=1048576");
  ASSERT_FALSE(planned);
  EXPECT_THAT(planned.error().message, HasSubstr(rule));
  const ScenarioDef& def = *registry_.find("group_write_frames");
  const CaseSpec unplanned(
      def, "model", std::string(kNoVersion),
      {{"frames", int64_t{65536}}, {"batch", int64_t{1}}, {"frame_size", int64_t{1048576}}});
  Result<std::unique_ptr<Case>> made = def.make(unplanned);
  ASSERT_FALSE(made);
  EXPECT_THAT(made.error().message, HasSubstr(rule));
}

}  // namespace
}  // namespace moq::harness
