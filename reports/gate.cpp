#include "reports/gate.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "reports/table.h"

namespace moq::reports {

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegressed:
      return "regressed";
    case Verdict::kImproved:
      return "improved";
    case Verdict::kUnchanged:
      return "unchanged";
    case Verdict::kNew:
      return "new";
    case Verdict::kRemoved:
      return "removed";
  }
  return "unchanged";
}

size_t GateResult::count(Verdict verdict) const {
  size_t n = 0;
  for (const GateCase& c : cases)
    n += c.verdict == verdict ? 1 : 0;
  return n;
}

bool GateResult::failed() const {
  return exit_code() != kExitOk;
}

int GateResult::exit_code() const {
  if (instructions_not_measured) return kExitNotMeasured;
  if (no_common_case) return kExitNoCommonCase;
  if (head_incomplete) return kExitIncomplete;
  if (removed_refused > 0) return kExitRemoved;
  if (count(Verdict::kRegressed) > 0) return kExitRegressed;
  return kExitOk;
}

std::string GateResult::failure() const {
  switch (exit_code()) {
    case kExitNotMeasured:
      return "instructions were not measured (counter none): nothing to compare them with; "
             "--metric allocations compares what was measured";
    case kExitNoCommonCase:
      return "BASE and HEAD have no case in common: nothing was compared";
    case kExitIncomplete:
      return "HEAD's run " + *head_incomplete;
    case kExitRemoved:
      return std::to_string(removed_refused) + " case(s) of BASE missing from HEAD";
    case kExitRegressed:
      return std::to_string(count(Verdict::kRegressed)) + " case(s) regressed";
    default:
      return "";
  }
}

Status parse_gate_metrics(std::string_view text, GateOptions& options) {
  options.compare_instructions = options.compare_allocations = false;
  options.simulated.clear();
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = text.substr(start, comma - start);
    if (item == "instructions") {
      options.compare_instructions = true;
    } else if (item == "allocations") {
      options.compare_allocations = true;
    } else if (const auto sim =
                   std::find_if(results::kSimMetrics.begin(), results::kSimMetrics.end(),
                                [&](results::Metric m) { return results::metric_name(m) == item; });
               sim != results::kSimMetrics.end()) {
      if (std::find(options.simulated.begin(), options.simulated.end(), *sim) ==
          options.simulated.end())
        options.simulated.push_back(*sim);
    } else {
      return Error{"--metric: '" + std::string(item) +
                   "' is not a gated metric (instructions, allocations, l1_misses, ll_misses, "
                   "branch_misses)"};
    }
    start = comma + 1;
  }
  return {};
}

namespace {

std::optional<uint64_t> median_of(const std::optional<results::MetricStats>& stats) {
  if (!stats) return std::nullopt;
  return stats->median;
}

// Allocations are judged by the worst round: one round that allocates more is a regression even
// when the median does not move (a pool that refills every k rounds, a growth on round 3).
std::optional<uint64_t> max_of(const std::optional<results::MetricStats>& stats) {
  if (!stats) return std::nullopt;
  return stats->max;
}

GateLimits limits_for(const GateOptions& options, const GateOverride* rule) {
  GateLimits limits = options.limits;
  if (rule != nullptr) {
    if (rule->max_instructions_regression) {
      limits.max_instructions_regression = *rule->max_instructions_regression;
    }
    if (rule->max_allocations_increase) {
      limits.max_allocations_increase = *rule->max_allocations_increase;
    }
  }
  return limits;
}

void judge(const results::CaseResult& base, const results::CaseResult& head,
           const GateOptions& options, GateCase& out) {
  if (options.compare_instructions) {
    out.base_instructions = median_of(base.metrics.instructions);
    out.head_instructions = median_of(head.metrics.instructions);
  }
  if (options.compare_allocations) {
    out.base_allocations = max_of(base.metrics.allocations);
    out.head_allocations = max_of(head.metrics.allocations);
  }
  out.base_failed = base.flags.failed;
  out.head_failed = head.flags.failed;
  if (head.flags.failed) {
    out.verdict = Verdict::kRegressed;
    out.reasons.push_back("failed in HEAD: " + head.flags.reason.value_or(""));
    return;
  }
  if (base.flags.failed) {
    out.verdict = Verdict::kImproved;
    out.reasons.push_back("failed in BASE, passes in HEAD: " + base.flags.reason.value_or(""));
    return;
  }
  bool regressed = false, improved = false;
  std::vector<std::string> regressions, improvements;
  if (out.base_instructions && out.head_instructions) {
    const double limit = out.limits.max_instructions_regression;
    out.instructions_change_pct = percent_change(*out.base_instructions, *out.head_instructions);
    if (!out.instructions_change_pct) {
      regressed = true;
      regressions.push_back("instructions 0 -> " + format_count(*out.head_instructions));
    } else if (*out.instructions_change_pct > limit) {
      regressed = true;
      regressions.push_back("instructions " + format_pct(*out.instructions_change_pct) + " > " +
                            format_pct(limit));
    } else if (*out.instructions_change_pct < -limit) {
      improved = true;
      improvements.push_back("instructions " + format_pct(*out.instructions_change_pct));
    }
  }
  for (results::Metric metric : options.simulated) {
    const std::optional<uint64_t> before = median_of(base.metrics.get(metric));
    const std::optional<uint64_t> after = median_of(head.metrics.get(metric));
    if (!before || !after) continue;  // gate() refuses files without it
    const std::string name(results::metric_name(metric));
    const double limit = out.limits.max_instructions_regression;
    const std::optional<double> change = percent_change(*before, *after);
    if (!change) {
      regressed = true;
      regressions.push_back(name + " 0 -> " + format_count(*after));
    } else if (*change > limit) {
      regressed = true;
      regressions.push_back(name + " " + format_count(*before) + " -> " + format_count(*after) +
                            " (" + format_pct(*change) + " > " + format_pct(limit) + ")");
    } else if (*change < -limit) {
      improved = true;
      improvements.push_back(name + " " + format_count(*before) + " -> " + format_count(*after) +
                             " (" + format_pct(*change) + ")");
    }
  }
  if (out.base_allocations && out.head_allocations) {
    const uint64_t before = *out.base_allocations, after = *out.head_allocations;
    const uint64_t limit = out.limits.max_allocations_increase;
    const std::string change =
        "allocations max " + format_count(before) + " -> " + format_count(after);
    if (after > before && after - before > limit) {
      regressed = true;
      regressions.push_back(change + " (+" + format_count(after - before) + " > +" +
                            format_count(limit) + ")");
    } else if (before > after && before - after > limit) {
      improved = true;
      improvements.push_back(change);
    }
  }
  if (regressed) {
    out.verdict = Verdict::kRegressed;
    out.reasons = std::move(regressions);
  } else if (improved) {
    out.verdict = Verdict::kImproved;
    out.reasons = std::move(improvements);
  } else {
    out.verdict = Verdict::kUnchanged;
  }
}

}  // namespace

Result<GateResult> gate(const InputFile& base, const InputFile& head, const GateOptions& options) {
  if (Status status = check_same_counter(base, head); !status.ok()) return status.error();
  const double limit = options.limits.max_instructions_regression;
  if (!std::isfinite(limit) || limit < 0) {
    return Error{"max_instructions_regression must be a percentage >= 0, got " +
                 std::to_string(limit)};
  }
  for (const GateOverride& rule : options.overrides) {
    if (rule.max_instructions_regression && (!std::isfinite(*rule.max_instructions_regression) ||
                                             *rule.max_instructions_regression < 0)) {
      return Error{rule.origin + ": max_instructions_regression must be >= 0"};
    }
  }
  GateResult result;
  result.base_label = base.label;
  result.head_label = head.label;
  result.counter = counter_text(base.results.meta);
  result.default_limits = options.limits;
  result.fail_on_removed = options.fail_on_removed;
  if (!options.compare_instructions && !options.compare_allocations && options.simulated.empty())
    return Error{"--metric: no metric to compare"};
  if (options.compare_instructions) result.metrics.push_back("instructions");
  if (options.compare_allocations) result.metrics.push_back("allocations");
  for (results::Metric metric : options.simulated) {
    const std::string name(results::metric_name(metric));
    result.metrics.push_back(name);
    // A simulated metric is there in every case that completed a round, or in none.
    for (const InputFile* file : {&base, &head}) {
      for (const results::CaseResult& c : file->results.cases) {
        if (c.flags.failed || c.metrics.get(metric)) continue;
        return Error{"--metric " + name + ": " + file->label + " has no " + name + " (case " +
                     c.id + "); measure with --counter callgrind " +
                     (metric == results::Metric::kBranchMisses ? "--branch-sim" : "--cache-sim")};
      }
    }
  }
  result.head_incomplete = incomplete_run(head.results.meta);
  result.instructions_not_measured =
      options.compare_instructions &&
      (base.results.meta.counter_backend == results::CounterBackend::kNone ||
       head.results.meta.counter_backend == results::CounterBackend::kNone);
  const CaseLookup base_lookup(base.results), head_lookup(head.results);
  size_t common = 0;
  std::set<const GateOverride*> used;
  auto add = [&](const std::string& id) {
    GateCase c;
    c.id = id;
    c.override = find_override(options.overrides, id);
    if (c.override != nullptr) used.insert(c.override);
    c.limits = limits_for(options, c.override);
    return c;
  };
  for (const results::CaseResult& b : base.results.cases) {
    GateCase c = add(b.id);
    if (const results::CaseResult* h = head_lookup.find(b.id)) {
      ++common;
      judge(b, *h, options, c);
    } else {
      c.verdict = Verdict::kRemoved;
      c.base_instructions = median_of(b.metrics.instructions);
      c.base_allocations = max_of(b.metrics.allocations);
      c.base_failed = b.flags.failed;
      const std::optional<bool> in_plan = planned(head.results.meta, b.id);
      const bool planned_out = in_plan && !*in_plan;
      if (options.allow_removed && planned_out) {
        ++result.removed_allowed;
        c.reasons.push_back("not in HEAD's plan (--allow-removed)");
      } else {
        ++result.removed_refused;
        c.reasons.push_back(!in_plan      ? "not in HEAD, which records no plan leaving it out"
                            : planned_out ? "not in HEAD's plan (--allow-removed accepts it)"
                                          : "in HEAD's plan, never measured");
      }
    }
    result.cases.push_back(std::move(c));
  }
  for (const results::CaseResult& h : head.results.cases) {
    if (base_lookup.find(h.id) != nullptr) continue;
    GateCase c = add(h.id);
    c.verdict = Verdict::kNew;
    c.head_instructions = median_of(h.metrics.instructions);
    c.head_allocations = max_of(h.metrics.allocations);
    c.head_failed = h.flags.failed;
    if (h.flags.failed) {
      // A new case that fails is still a failure in HEAD.
      c.verdict = Verdict::kRegressed;
      c.reasons.push_back("new in HEAD and failed: " + h.flags.reason.value_or(""));
    }
    result.cases.push_back(std::move(c));
  }
  result.no_common_case = common == 0;
  for (const GateOverride& rule : options.overrides) {
    if (used.count(&rule) == 0) result.unused_overrides.push_back(&rule);
  }
  return result;
}

}  // namespace moq::reports
