#include "harness/runner/summary.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>

namespace moq::harness {

namespace {

std::string median_text(const std::optional<results::MetricStats>& s, uint64_t divide = 1) {
  if (!s) return "-";
  return std::to_string(s->median / divide);
}

// The median and the coefficient of variation over the rounds: "11442 ±0.0%". One round has no
// spread to show.
std::string median_spread_text(const std::optional<results::MetricStats>& s, uint64_t divide = 1) {
  if (!s || s->samples.size() < 2) return median_text(s, divide);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%llu ±%.1f%%",
                static_cast<unsigned long long>(s->median / divide), 100.0 * s->cv);
  return buf;
}

std::string per_round(uint64_t total, uint64_t rounds) {
  if (rounds == 0) return "-";
  if (total % rounds == 0) return std::to_string(total / rounds);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(total) / static_cast<double>(rounds));
  return buf;
}

uint64_t measured_rounds(const results::CaseResult& c) {
  return c.metrics.allocations ? c.metrics.allocations->samples.size() : 0;
}

}  // namespace

void print_sweep_table(std::ostream& out, const std::vector<results::CaseResult>& cases) {
  std::vector<std::string> header = {"case",    "instr",  "allocs", "alloc_B", "wall_us",
                                     "streams", "wire_B", "tasks",  "frames",  "status"};
  // callgrind's simulated misses get columns when some case has them (--cache-sim, --branch-sim).
  std::vector<results::Metric> simulated;
  for (results::Metric metric : results::kSimMetrics) {
    if (std::any_of(cases.begin(), cases.end(),
                    [&](const results::CaseResult& c) { return c.metrics.get(metric); })) {
      simulated.push_back(metric);
      header.insert(header.end() - 2, std::string(results::metric_name(metric)));
    }
  }
  std::vector<std::vector<std::string>> rows;
  for (const results::CaseResult& c : cases) {
    const results::Metrics& m = c.metrics;
    rows.push_back({c.id, median_spread_text(m.instructions), median_text(m.allocations),
                    median_text(m.allocation_bytes), median_spread_text(m.wall_ns, 1000),
                    median_text(m.streams_opened), median_text(m.wire_bytes),
                    median_text(m.tasks_run), per_round(c.delivered.frames, measured_rounds(c)),
                    c.flags.failed ? "FAILED" : "ok"});
    for (results::Metric metric : simulated)
      rows.back().insert(rows.back().end() - 2, median_text(m.get(metric)));
  }
  std::vector<size_t> width(header.size());
  for (size_t i = 0; i < header.size(); ++i) {
    width[i] = header[i].size();
    for (const auto& row : rows)
      width[i] = std::max(width[i], row[i].size());
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i == 0) {
        out << std::left << std::setw(static_cast<int>(width[i])) << row[i];
      } else if (i + 1 == row.size()) {
        out << "  " << row[i];
      } else {
        out << "  " << std::right << std::setw(static_cast<int>(width[i])) << row[i];
      }
    }
    out << '\n';
  };
  print_row(header);
  for (const auto& row : rows)
    print_row(row);
  out << "(medians per measured round, instr and wall_us ± their coefficient of variation over "
         "the rounds; frames: delivered per round)\n";
  for (const results::CaseResult& c : cases)
    if (c.flags.failed) out << "FAILED " << c.id << ": " << c.flags.reason.value_or("") << '\n';
}

void print_case_summary(std::ostream& out, const results::Meta& meta,
                        const results::CaseResult& c) {
  out << "case      " << c.id << '\n';
  out << "counter   " << results::to_string(meta.counter_backend);
  if (meta.counter_event) out << " (" << *meta.counter_event << ")";
  out << '\n';
  out << "rounds    " << c.rounds.warmup << " warm-up, " << c.rounds.measured << " measured\n";
  out << "status    " << (c.flags.failed ? "FAILED: " + c.flags.reason.value_or("") : "ok") << '\n';
  if (c.flags.multiplexed) out << "note      multiplexed perf readings were rejected\n";
  out << "per round:\n";
  out << "  " << std::left << std::setw(18) << "metric" << std::right << std::setw(14) << "median"
      << std::setw(14) << "min" << std::setw(14) << "max" << std::setw(16) << "mean"
      << std::setw(14) << "stddev" << std::setw(8) << "cv" << std::setw(10) << "outliers" << '\n';
  auto print_metric = [&](results::Metric metric) {
    const std::optional<results::MetricStats>& s = c.metrics.get(metric);
    out << "  " << std::left << std::setw(18) << results::metric_name(metric) << std::right;
    if (!s) {
      out << std::setw(14) << "-" << '\n';
      return;
    }
    char mean[32], stddev[32], cv[16];
    std::snprintf(mean, sizeof mean, "%.1f", s->mean);
    std::snprintf(stddev, sizeof stddev, "%.1f", s->stddev);
    std::snprintf(cv, sizeof cv, "%.1f%%", 100.0 * s->cv);
    out << std::setw(14) << s->median << std::setw(14) << s->min << std::setw(14) << s->max
        << std::setw(16) << mean << std::setw(14) << stddev << std::setw(8) << cv << std::setw(10)
        << s->outliers << '\n';
  };
  for (results::Metric metric : results::kAllMetrics)
    print_metric(metric);
  for (results::Metric metric : results::kSimMetrics)
    if (c.metrics.get(metric)) print_metric(metric);
  if (!c.roles.empty()) {
    // Round 1's split: one round's parts add up to that round's total exactly.
    out << "by role, first measured round (instructions, share, allocations):\n";
    const uint64_t total = c.metrics.instructions ? c.metrics.instructions->samples[0] : 0;
    for (const results::RoleCost& r : c.roles) {
      const uint64_t ir = r.instructions.samples[0];
      char share[16];
      std::snprintf(share, sizeof share, "%5.1f%%", total ? 100.0 * ir / total : 0.0);
      out << "  " << std::left << std::setw(18) << r.role << std::right << std::setw(14) << ir
          << std::setw(9) << share << std::setw(10) << r.allocations.samples[0] << '\n';
    }
  }
  uint64_t rounds = measured_rounds(c);
  out << "delivered " << c.delivered.frames << " frames, " << c.delivered.bytes
      << " bytes over the measured rounds (" << per_round(c.delivered.frames, rounds)
      << " frames per round), hash " << c.delivered.hash << '\n';
}

}  // namespace moq::harness
