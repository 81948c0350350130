#include "reports/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "reports/compare_summary.h"
#include "reports/table.h"

namespace moq::reports {

std::string_view to_string(CaseStatus status) {
  switch (status) {
    case CaseStatus::kMatched:
      return "matched";
    case CaseStatus::kNew:
      return "new";
    case CaseStatus::kRemoved:
      return "removed";
  }
  return "matched";
}

namespace {

std::optional<uint64_t> median_of(const std::optional<results::MetricStats>& stats) {
  if (!stats) return std::nullopt;
  return stats->median;
}

CompareCell cell_of(const results::CaseResult* c) {
  CompareCell cell;
  if (c == nullptr) return cell;
  cell.present = true;
  cell.failed = c->flags.failed;
  cell.instructions = median_of(c->metrics.instructions);
  cell.allocations = median_of(c->metrics.allocations);
  if (c->metrics.allocations) cell.allocations_max = c->metrics.allocations->max;
  for (size_t i = 0; i < results::kSimMetrics.size(); ++i)
    cell.simulated[i] = median_of(c->metrics.get(results::kSimMetrics[i]));
  if (c->metrics.instructions && c->metrics.instructions->samples.size() >= 2)
    cell.instructions_cv = c->metrics.instructions->cv;
  return cell;
}

// The noise of one case: the largest difference over the pairs that both have it (failed
// measurements excluded: a partial run says nothing about noise).
std::optional<NoiseEstimate> noise_of(const std::vector<CompareCell>& cells,
                                      const std::vector<std::pair<size_t, size_t>>& pairs) {
  std::optional<NoiseEstimate> noise;
  for (const auto& [a, b] : pairs) {
    const CompareCell& x = cells[a];
    const CompareCell& y = cells[b];
    if (!x.present || !y.present || x.failed || y.failed) continue;
    if (!noise) noise.emplace();
    if (x.instructions && y.instructions) {
      if (std::optional<double> pct = percent_change(*x.instructions, *y.instructions)) {
        noise->instructions_pct = std::max(noise->instructions_pct.value_or(0.0), std::fabs(*pct));
      }
    }
    if (x.allocations && y.allocations) {
      const uint64_t diff = *x.allocations > *y.allocations ? *x.allocations - *y.allocations
                                                            : *y.allocations - *x.allocations;
      noise->allocations = std::max(noise->allocations, diff);
    }
  }
  return noise;
}

// The larger of the row's two instruction noises; nullopt when neither was measured.
std::optional<double> noise_threshold_pct(const CompareRow& row) {
  std::optional<double> threshold;
  for (const std::optional<NoiseEstimate>* noise : {&row.rerun_noise, &row.build_noise}) {
    if (*noise && (*noise)->instructions_pct)
      threshold = std::max(threshold.value_or(0.0), *(*noise)->instructions_pct);
  }
  return threshold;
}

}  // namespace

Result<Comparison> compare(const std::vector<InputFile>& inputs) {
  if (inputs.size() < 2) {
    return Error{"compare needs at least two results files (BASE and HEAD), got " +
                 std::to_string(inputs.size())};
  }
  if (Status status = check_same_counter(inputs); !status.ok()) return status.error();

  Comparison out;
  for (const InputFile& input : inputs) {
    out.files.push_back({input.path, input.label, input.results.meta});
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (size_t j = i + 1; j < inputs.size(); ++j) {
      const results::Meta& a = inputs[i].results.meta;
      const results::Meta& b = inputs[j].results.meta;
      if (same_build(a, b)) {
        out.same_build_pairs.emplace_back(i, j);
      } else if (same_source(a, b)) {
        out.cross_build_pairs.emplace_back(i, j);
      }
    }
  }

  // Rows are built in BASE's order, then cases BASE lacks in order of first appearance;
  // order_rows then puts the cases that moved most first.
  std::vector<std::string> ids;
  std::set<std::string, std::less<>> seen;
  for (const InputFile& input : inputs) {
    for (const results::CaseResult& c : input.results.cases) {
      if (seen.insert(c.id).second) ids.push_back(c.id);
    }
  }
  out.new_ids.resize(inputs.size());
  out.removed_ids.resize(inputs.size());
  const std::vector<CaseLookup> lookups = lookups_of(inputs);
  for (const std::string& id : ids) {
    CompareRow row;
    row.id = id;
    const results::CaseResult* base_case = lookups[0].find(id);
    for (size_t f = 0; f < inputs.size(); ++f) {
      const results::CaseResult* c = lookups[f].find(id);
      CompareCell cell = cell_of(c);
      if (f > 0 && base_case != nullptr && c == nullptr) out.removed_ids[f].push_back(id);
      if (f > 0 && base_case == nullptr && c != nullptr) out.new_ids[f].push_back(id);
      if (c != nullptr && c->flags.failed) {
        row.notes.push_back("failed in " + inputs[f].label + ": " + c->flags.reason.value_or(""));
      }
      if (f > 0 && base_case != nullptr && c != nullptr) {
        const CompareCell& base_cell = row.cells[0];
        if (!cell.failed && !base_cell.failed && cell.instructions && base_cell.instructions) {
          cell.instructions_change_pct =
              percent_change(*base_cell.instructions, *cell.instructions);
        }
        if (!cell.failed && !base_cell.failed && cell.instructions_cv &&
            base_cell.instructions_cv) {
          cell.spread_pct =
              kSpreadFactor * 100.0 * std::hypot(*base_cell.instructions_cv, *cell.instructions_cv);
        }
        if (c->rounds != base_case->rounds) {
          row.notes.push_back("rounds differ in " + inputs[f].label);
        } else if (!c->flags.failed && !base_case->flags.failed &&
                   c->delivered != base_case->delivered) {
          row.notes.push_back("delivered differs in " + inputs[f].label +
                              " (frames, bytes or hash): not the same work");
        }
      }
      row.cells.push_back(cell);
    }
    if (base_case == nullptr) {
      row.status = CaseStatus::kNew;
    } else {
      row.status = std::all_of(row.cells.begin(), row.cells.end(),
                               [](const CompareCell& cell) { return cell.present; })
                       ? CaseStatus::kMatched
                       : CaseStatus::kRemoved;
    }
    row.rerun_noise = noise_of(row.cells, out.same_build_pairs);
    row.build_noise = noise_of(row.cells, out.cross_build_pairs);
    const std::optional<double> pairs_threshold = noise_threshold_pct(row);
    for (CompareCell& cell : row.cells) {
      std::optional<double> threshold = pairs_threshold;
      if (cell.spread_pct) threshold = std::max(threshold.value_or(0.0), *cell.spread_pct);
      if (threshold && cell.instructions_change_pct && *cell.instructions_change_pct != 0.0)
        cell.significant = std::fabs(*cell.instructions_change_pct) > *threshold;
    }
    if (std::any_of(row.cells.begin(), row.cells.end(),
                    [](const CompareCell& cell) { return cell.spread_pct.has_value(); }))
      out.spread_measured = true;
    out.rows.push_back(std::move(row));
  }
  for (size_t i = 0; i < results::kSimMetrics.size(); ++i) {
    const bool any = std::any_of(out.rows.begin(), out.rows.end(), [&](const CompareRow& row) {
      return std::any_of(row.cells.begin(), row.cells.end(),
                         [&](const CompareCell& cell) { return cell.simulated[i].has_value(); });
    });
    if (any) out.simulated.push_back(results::kSimMetrics[i]);
  }
  out.role_rows = role_split_rows(inputs);
  order_rows(out);
  return out;
}

}  // namespace moq::reports
