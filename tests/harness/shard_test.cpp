// Shards of a sweep (harness/runner/shard.h): "I/N" is parsed strictly, the N shards partition the
// plan exactly (case k in shard k mod N + 1, plan order kept), and the plan digest tells sweep
// definitions apart.
#include "harness/runner/shard.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "harness/runner/sweep_plan.h"
#include "tests/harness/fake_scenarios.h"

namespace moq::harness {
namespace {

using ::testing::HasSubstr;

TEST(Shard, TextIsIOfN) {
  Result<ShardSpec> s = parse_shard("2/4");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->index, 2u);
  EXPECT_EQ(s->count, 4u);
  EXPECT_TRUE(parse_shard("1/1"));
  for (const char* bad :
       {"", "2", "0/4", "5/4", "-1/4", "1/0", "1/", "/4", "1/4x", " 1/4", "1/10001", "a/b"}) {
    Result<ShardSpec> r = parse_shard(bad);
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_THAT(r.error().message, HasSubstr("--shard '" + std::string(bad) + "'"));
    }
  }
  EXPECT_THAT(parse_shard("5/4").error().message, HasSubstr("from 1 to N (4)"));
}

TEST(Shard, TheShardsPartitionThePlanInPlanOrder) {
  ScenarioRegistry registry = testing::make_test_registry();
  Result<std::vector<CaseSpec>> plan = plan_sweep(registry, {});
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->size(), 8u);
  for (uint32_t n : {1u, 3u, 8u, 11u}) {
    std::multiset<std::string> seen;
    std::string digest;
    for (uint32_t i = 1; i <= n; ++i) {
      ShardPlan part = select_shard(*plan, {i, n}, RunOptions{});
      EXPECT_EQ(part.info.index, i);
      EXPECT_EQ(part.info.count, n);
      EXPECT_EQ(part.info.plan_cases, 8u);
      if (i == 1) digest = part.info.plan_digest;
      EXPECT_EQ(part.info.plan_digest, digest) << "every shard names the same plan";
      ASSERT_EQ(part.cases.size(), part.info.cases.size());
      for (size_t j = 0; j < part.cases.size(); ++j) {
        EXPECT_EQ(part.cases[j].id(), (*plan)[(i - 1) + j * n].id());
        EXPECT_EQ(part.info.cases[j], part.cases[j].id());
        seen.insert(part.cases[j].id());
      }
    }
    ASSERT_EQ(seen.size(), plan->size()) << n << " shards";
    for (const CaseSpec& c : *plan)
      EXPECT_EQ(seen.count(c.id()), 1u) << c.id() << " in " << n << " shards";
  }
}

TEST(Shard, TheDigestChangesWithTheCasesAndTheRounds) {
  ScenarioRegistry registry = testing::make_test_registry();
  std::vector<CaseSpec> plan = plan_sweep(registry, {}).value();
  const std::string base = select_shard(plan, {1, 2}, RunOptions{3, 10}).info.plan_digest;
  EXPECT_EQ(select_shard(plan, {2, 2}, RunOptions{3, 10}).info.plan_digest, base);
  EXPECT_NE(select_shard(plan, {1, 2}, RunOptions{3, 11}).info.plan_digest, base);
  EXPECT_NE(select_shard(plan, {1, 2}, RunOptions{2, 10}).info.plan_digest, base);
  std::vector<CaseSpec> fewer(plan.begin(), plan.end() - 1);
  EXPECT_NE(select_shard(fewer, {1, 2}, RunOptions{3, 10}).info.plan_digest, base);
}

}  // namespace
}  // namespace moq::harness
