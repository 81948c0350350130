// Sharding a sweep across processes or machines (`moqbench sweep --shard I/N`). Case k of the
// sweep's plan (0-based, plan order) runs in shard k mod N + 1: the partition depends only on the
// plan and N, every shard gets a share of every scenario and axis (the plan is a grid walked
// axis by axis), and the shards' sizes differ by at most one case. `moqbench merge` joins the
// shards' results (reports/merge.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "harness/runner/case_builder.h"
#include "harness/runner/runner.h"
#include "model/base/result.h"
#include "reports/schema/results.h"

namespace moq::harness {

struct ShardSpec {
  uint32_t index = 1;  // I, 1-based
  uint32_t count = 1;  // N
};

// "I/N" with 1 <= I <= N <= kMaxShards; an Error names what is wrong with the text.
inline constexpr uint32_t kMaxShards = 10'000;
Result<ShardSpec> parse_shard(std::string_view text);

struct ShardPlan {
  std::vector<CaseSpec> cases;  // this shard's, in plan order
  results::ShardInfo info;      // what its results record
};

// The digest of a plan: FNV-1a of its ids in order and the rounds (16 lowercase hex digits). A
// shard records its whole sweep's; every results file records its own plan's (results::PlanInfo).
std::string plan_digest(const std::vector<CaseSpec>& plan, const RunOptions& run);

// The shard's share of plan. The digest covers the plan's ids in order and the rounds, so two
// shards measured with a different sweep definition never merge.
ShardPlan select_shard(const std::vector<CaseSpec>& plan, ShardSpec spec, const RunOptions& run);

}  // namespace moq::harness
