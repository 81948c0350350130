// What a figure spec reads from its results files (FigureData), and the number formats the
// generated tables share.
#include <cmath>
#include <cstdio>
#include <string>

#include "reports/figures.h"

namespace moq::reports {

std::string figure_source_path(std::string_view source) {
  if (source == "baseline") return "tests/gate/baseline.json";
  return "tests/gate/figures-" + std::string(source) + ".json";
}

FigureData::FigureData(std::map<std::string, const results::ResultsFile*> sources)
    : sources_(std::move(sources)) {}

const results::ResultsFile& FigureData::file(std::string_view source) {
  auto it = sources_.find(std::string(source));
  if (it != sources_.end()) return *it->second;
  missing("results file '" + std::string(source) + "' (not among the block's sources)");
  return empty_;
}

const results::CaseResult* FigureData::find(std::string_view source, std::string_view id) {
  const results::CaseResult* c = file(source).find_case(id);
  if (c == nullptr)
    missing("case " + std::string(id) + " in " + figure_source_path(source));
  else if (c->flags.failed)
    missing("a passing case " + std::string(id) + " in " + figure_source_path(source) +
            " (it failed)");
  return c;
}

uint64_t FigureData::metric_median(std::string_view source, std::string_view id,
                                   results::Metric metric) {
  const results::CaseResult* c = find(source, id);
  if (c == nullptr) return 0;
  const std::optional<results::MetricStats>& stats = c->metrics.get(metric);
  if (!stats) {
    missing(std::string(results::metric_name(metric)) + " of " + std::string(id) + " in " +
            figure_source_path(source) + " (not measured)");
    return 0;
  }
  return stats->median;
}

uint64_t FigureData::instructions(std::string_view source, std::string_view id) {
  return metric_median(source, id, results::Metric::kInstructions);
}

uint64_t FigureData::allocations_max(std::string_view source, std::string_view id) {
  const results::CaseResult* c = find(source, id);
  if (c == nullptr || !c->metrics.allocations) return 0;
  return c->metrics.allocations->max;
}

uint64_t FigureData::frames_per_round(std::string_view source, std::string_view id) {
  const results::CaseResult* c = find(source, id);
  if (c == nullptr || c->rounds.measured == 0) return 0;
  return c->delivered.frames / c->rounds.measured;
}

uint64_t FigureData::role_instructions(std::string_view source, std::string_view id,
                                       std::string_view role) {
  const results::CaseResult* c = find(source, id);
  if (c == nullptr) return 0;
  for (const results::RoleCost& r : c->roles)
    if (r.role == role) return r.instructions.median;
  missing("role " + std::string(role) + " of " + std::string(id) + " in " +
          figure_source_path(source) + " (measure it with --roles)");
  return 0;
}

int64_t FigureData::param(std::string_view source, std::string_view id, std::string_view axis) {
  const results::CaseResult* c = find(source, id);
  if (c == nullptr) return 0;
  const results::Param* p = c->find_param(axis);
  if (p == nullptr || !std::holds_alternative<int64_t>(p->value)) {
    missing("integer axis " + std::string(axis) + " of " + std::string(id));
    return 0;
  }
  return std::get<int64_t>(p->value);
}

std::string format_ratio(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

std::string format_ratio_range(double low, double high) {
  const std::string a = format_ratio(low);
  const std::string b = format_ratio(high);
  return a == b ? a : a + "–" + b;
}

std::string format_per(uint64_t total, uint64_t units) {
  if (units == 0) return "n/a";
  return format_count(static_cast<uint64_t>(std::llround(double(total) / double(units))));
}

}  // namespace moq::reports
