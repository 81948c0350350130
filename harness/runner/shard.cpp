#include "harness/runner/shard.h"

#include <charconv>
#include <string>

#include "harness/runner/delivery.h"

namespace moq::harness {

namespace {

// A whole decimal number in [1, kMaxShards], nothing else.
std::optional<uint32_t> shard_number(std::string_view text) {
  uint32_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end || v < 1 || v > kMaxShards) return {};
  return v;
}

}  // namespace

Result<ShardSpec> parse_shard(std::string_view text) {
  const std::string quoted = "--shard '" + std::string(text) + "'";
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    return Error{0, quoted + ": expected I/N (shard I of N, e.g. 2/4)"};
  std::optional<uint32_t> index = shard_number(text.substr(0, slash));
  std::optional<uint32_t> count = shard_number(text.substr(slash + 1));
  if (!count)
    return Error{0, quoted + ": N must be a whole number from 1 to " + std::to_string(kMaxShards)};
  if (!index || *index > *count)
    return Error{
        0, quoted + ": I must be a whole number from 1 to N (" + std::to_string(*count) + ")"};
  return ShardSpec{*index, *count};
}

std::string plan_digest(const std::vector<CaseSpec>& plan, const RunOptions& run) {
  Fnv64 digest;
  digest.add_u64(run.warmup);
  digest.add_u64(run.rounds);
  for (const CaseSpec& c : plan) {
    const std::string id = c.id();
    digest.add(std::span(reinterpret_cast<const uint8_t*>(id.data()), id.size() + 1));  // with NUL
  }
  return hash_hex(digest.value());
}

ShardPlan select_shard(const std::vector<CaseSpec>& plan, ShardSpec spec, const RunOptions& run) {
  ShardPlan out;
  for (size_t k = 0; k < plan.size(); ++k) {
    if (k % spec.count != spec.index - 1) continue;
    out.info.cases.push_back(plan[k].id());
    out.cases.push_back(plan[k]);
  }
  out.info.index = spec.index;
  out.info.count = spec.count;
  out.info.plan_cases = plan.size();
  out.info.plan_digest = plan_digest(plan, run);
  return out;
}

}  // namespace moq::harness
