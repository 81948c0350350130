#include "reports/merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

namespace moq::reports {

namespace {

// The first field in which two shards' builds differ, or nullopt.
std::optional<std::string> build_difference(const results::Meta& a, const results::Meta& b) {
  if (a.tool_version != b.tool_version) return "tool version";
  if (a.git_commit != b.git_commit) return "git commit";
  if (a.git_dirty != b.git_dirty) return "dirty tree";
  if (a.compiler != b.compiler) return "compiler";
  if (a.compiler_flags != b.compiler_flags) return "compiler flags";
  if (a.build_type != b.build_type) return "build type";
  if (a.counter_backend == results::CounterBackend::kPerf && a.cpu_model != b.cpu_model)
    return "CPU model (perf counts differ between CPUs)";
  return std::nullopt;
}

std::string shard_text(const results::ShardInfo& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count) + " of " +
         std::to_string(s.plan_cases) + " cases (plan " + s.plan_digest + ")";
}

// The argv of a shard without its --shard option: the sweep the merge is of.
std::vector<std::string> without_shard_option(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--shard") {
      ++i;
      continue;
    }
    if (argv[i].rfind("--shard=", 0) == 0) continue;
    out.push_back(argv[i]);
  }
  return out;
}

}  // namespace

namespace {

// The merged file's plan is the sweep's (the ids the shards present name, in plan order; the
// shards' common digest), and its run is complete only when every shard's was and no planned
// case is missing; a shard that was interrupted makes the merge interrupted by the same signal.
void record_plan_and_end(Merge& m, const results::ShardInfo& plan,
                         const std::vector<const InputFile*>& by_shard) {
  results::PlanInfo merged_plan;
  merged_plan.digest = plan.plan_digest;
  merged_plan.selection = "merge of " + std::to_string(plan.count) + " shards of a sweep of " +
                          std::to_string(plan.plan_cases) + " cases";
  for (uint64_t k = 0; k < plan.plan_cases; ++k) {
    if (const InputFile* f = by_shard[k % plan.count])
      merged_plan.cases.push_back(f->results.meta.shard->cases[k / plan.count]);
  }
  results::RunEnd end;
  end.state = m.complete() ? results::RunState::kComplete : results::RunState::kRunning;
  for (const InputFile* f : by_shard) {
    if (f == nullptr || !f->results.meta.run) continue;
    const results::RunEnd& shard_end = *f->results.meta.run;
    if (shard_end.state == results::RunState::kInterrupted) {
      end.state = shard_end.state;
      end.signal = shard_end.signal;
    } else if (shard_end.state == results::RunState::kRunning &&
               end.state == results::RunState::kComplete) {
      end.state = results::RunState::kRunning;
    }
  }
  end.cases_done = m.merged.cases.size();
  for (const results::CaseResult& c : m.merged.cases)
    if (c.flags.failed) end.failed.push_back(c.id);
  m.merged.meta.plan = std::move(merged_plan);
  m.merged.meta.run = std::move(end);
}

}  // namespace

Result<Merge> merge_shards(const std::vector<InputFile>& shards) {
  if (shards.empty()) return Error{"merge: no results file given"};
  for (const InputFile& f : shards) {
    if (!f.results.meta.shard)
      return Error{f.path + ": not a shard of a sweep (made by sweep --shard I/N)"};
  }
  if (Status st = check_same_counter(shards); !st.ok()) return st.error();
  const InputFile& first = shards.front();
  const results::ShardInfo& plan = *first.results.meta.shard;
  for (const InputFile& f : shards) {
    const results::ShardInfo& s = *f.results.meta.shard;
    if (s.count != plan.count || s.plan_cases != plan.plan_cases ||
        s.plan_digest != plan.plan_digest) {
      return Error{f.path + ": shard " + shard_text(s) + " is of another sweep than " + first.path +
                   ": shard " + shard_text(plan)};
    }
    if (std::optional<std::string> d = build_difference(first.results.meta, f.results.meta))
      return Error{f.path + ": another build than " + first.path + " (" + *d + " differs)"};
  }

  // Each shard number's first file; the cases by id, first file first.
  std::vector<const InputFile*> by_shard(plan.count, nullptr);
  std::map<std::string_view, const results::CaseResult*> by_id;
  Merge m;
  for (const InputFile& f : shards) {
    const InputFile*& slot = by_shard[f.results.meta.shard->index - 1];
    if (!slot) slot = &f;
    for (const results::CaseResult& c : f.results.cases) {
      if (!by_id.emplace(c.id, &c).second) m.duplicated.push_back(c.id);
    }
  }
  std::sort(m.duplicated.begin(), m.duplicated.end());
  m.duplicated.erase(std::unique(m.duplicated.begin(), m.duplicated.end()), m.duplicated.end());

  const InputFile* lowest = *std::find_if(by_shard.begin(), by_shard.end(),
                                          [](const InputFile* f) { return f != nullptr; });
  m.merged.meta = lowest->results.meta;
  m.merged.meta.shard.reset();
  m.merged.meta.command_line = without_shard_option(lowest->results.meta.command_line);
  for (const InputFile& f : shards)
    m.merged.meta.start_time = std::min(m.merged.meta.start_time, f.results.meta.start_time);
  // Case k of the plan is case k / N of shard k mod N + 1.
  for (uint64_t k = 0; k < plan.plan_cases; ++k) {
    const InputFile* f = by_shard[k % plan.count];
    if (!f) {
      ++m.missing_cases;
      continue;
    }
    const std::string& id = f->results.meta.shard->cases[k / plan.count];
    auto it = by_id.find(id);
    if (it == by_id.end()) {
      ++m.missing_cases;
      m.missing.push_back(id);
      continue;
    }
    m.merged.cases.push_back(*it->second);
  }
  for (uint32_t i = 0; i < plan.count; ++i)
    if (!by_shard[i]) m.missing_shards.push_back(i + 1);
  record_plan_and_end(m, plan, by_shard);
  return m;
}

std::string describe(const Merge& m) {
  std::string out = "merged " + std::to_string(m.merged.cases.size()) + " cases";
  if (m.complete()) return out + ": the whole sweep\n";
  out += "; the sweep is incomplete:\n";
  if (!m.missing_shards.empty()) {
    out += "  missing shards (no file; their cases cannot be named):";
    for (uint32_t s : m.missing_shards)
      out += " " + std::to_string(s);
    out += "\n";
  }
  if (m.missing_cases > 0) out += "  missing cases: " + std::to_string(m.missing_cases) + "\n";
  for (const std::string& id : m.missing)
    out += "    " + id + "\n";
  if (!m.duplicated.empty())
    out += "  cases in more than one file (the first file's kept): " +
           std::to_string(m.duplicated.size()) + "\n";
  for (const std::string& id : m.duplicated)
    out += "    " + id + "\n";
  return out;
}

}  // namespace moq::reports
