#include "reports/compare_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

#include "reports/table.h"

namespace moq::reports {

std::string_view to_string(RowVerdict verdict) {
  switch (verdict) {
    case RowVerdict::kRegressed:
      return "regressed";
    case RowVerdict::kImproved:
      return "improved";
    case RowVerdict::kWithinNoise:
      return "within noise";
    case RowVerdict::kUnchanged:
      return "unchanged";
    case RowVerdict::kNotCompared:
      return "not compared";
  }
  return "not compared";
}

namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();

// How far one metric moved: its direction when significant (+1 grew, -1 shrank, 0 not beyond the
// noise), whether it changed at all, and the size of the change in percent for the order.
struct Move {
  int direction = 0;
  bool changed = false;
  double size = 0;
};

Move instructions_move(const CompareCell& base, const CompareCell& last) {
  Move m;
  if (!base.instructions || !last.instructions) return m;
  m.changed = *base.instructions != *last.instructions;
  if (!m.changed) return m;
  const int sign = *last.instructions > *base.instructions ? 1 : -1;
  // No finite change (BASE counted 0): the largest there is.
  m.size = last.instructions_change_pct ? std::fabs(*last.instructions_change_pct) : kInfinite;
  if (last.significant != false) m.direction = sign;
  return m;
}

// The largest allocations difference between files of one source; nullopt when no such pair
// measured the case.
std::optional<uint64_t> allocations_noise(const CompareRow& row) {
  std::optional<uint64_t> noise;
  for (const std::optional<NoiseEstimate>* n : {&row.rerun_noise, &row.build_noise})
    if (*n) noise = std::max(noise.value_or(0), (*n)->allocations);
  return noise;
}

Move allocations_move(const CompareRow& row, const CompareCell& base, const CompareCell& last) {
  Move m;
  if (!base.allocations || !last.allocations) return m;
  const uint64_t a = *base.allocations;
  const uint64_t b = *last.allocations;
  m.changed = a != b;
  if (!m.changed) return m;
  const uint64_t diff = a > b ? a - b : b - a;
  m.size = percent_change(a, b) ? std::fabs(*percent_change(a, b)) : kInfinite;
  const std::optional<uint64_t> noise = allocations_noise(row);
  if (!noise || diff > *noise) m.direction = b > a ? 1 : -1;
  return m;
}

struct Judgement {
  RowVerdict verdict = RowVerdict::kNotCompared;
  double instructions_size = 0;
  double allocations_size = 0;
};

Judgement judge(const CompareRow& row) {
  Judgement j;
  if (row.status == CaseStatus::kNew || row.cells.size() < 2) return j;
  const CompareCell& base = row.cells.front();
  const CompareCell& last = row.cells.back();
  if (!base.present || !last.present || (base.failed && last.failed)) return j;
  if (base.failed != last.failed) {
    j.verdict = last.failed ? RowVerdict::kRegressed : RowVerdict::kImproved;
    j.instructions_size = kInfinite;
    return j;
  }
  const Move instructions = instructions_move(base, last);
  const Move allocations = allocations_move(row, base, last);
  j.instructions_size = instructions.size;
  j.allocations_size = allocations.size;
  if (instructions.direction > 0 || allocations.direction > 0)
    j.verdict = RowVerdict::kRegressed;
  else if (instructions.direction < 0 || allocations.direction < 0)
    j.verdict = RowVerdict::kImproved;
  else if (instructions.changed || allocations.changed)
    j.verdict = RowVerdict::kWithinNoise;
  else
    j.verdict = RowVerdict::kUnchanged;
  return j;
}

bool measures_instructions(const Comparison& c) {
  return !c.files.empty() && c.files[0].meta.counter_backend != results::CounterBackend::kNone;
}

}  // namespace

void order_rows(Comparison& comparison) {
  struct Keyed {
    int group;  // 0..4: the verdicts in order; 5: NEW cases
    double instructions_size;
    double allocations_size;
    size_t index;
  };
  std::vector<Keyed> keys;
  for (size_t i = 0; i < comparison.rows.size(); ++i) {
    CompareRow& row = comparison.rows[i];
    const Judgement j = judge(row);
    row.verdict = j.verdict;
    const int group = row.status == CaseStatus::kNew ? 5 : static_cast<int>(j.verdict);
    keys.push_back({group, j.instructions_size, j.allocations_size, i});
  }
  std::sort(keys.begin(), keys.end(), [](const Keyed& a, const Keyed& b) {
    return std::tuple(a.group, -a.instructions_size, -a.allocations_size, a.index) <
           std::tuple(b.group, -b.instructions_size, -b.allocations_size, b.index);
  });
  std::vector<CompareRow> sorted;
  sorted.reserve(keys.size());
  for (const Keyed& k : keys)
    sorted.push_back(std::move(comparison.rows[k.index]));
  comparison.rows = std::move(sorted);
}

CompareSummary summarize(const Comparison& c) {
  CompareSummary s;
  if (c.files.size() < 2) return s;
  s.base_label = c.files.front().label;
  s.judged_label = c.files.back().label;
  const bool instructions = measures_instructions(c);
  s.ratio_metric = instructions ? "instructions" : "allocations";
  double log_sum = 0;
  for (const CompareRow& row : c.rows) {
    if (row.status == CaseStatus::kNew) continue;
    switch (row.verdict) {
      case RowVerdict::kRegressed:
        ++s.regressed;
        break;
      case RowVerdict::kImproved:
        ++s.improved;
        break;
      case RowVerdict::kWithinNoise:
        ++s.within_noise;
        break;
      case RowVerdict::kUnchanged:
        ++s.unchanged;
        break;
      case RowVerdict::kNotCompared:
        ++s.not_compared;
        break;
    }
    if (row.verdict == RowVerdict::kNotCompared) continue;
    const CompareCell& base = row.cells.front();
    const CompareCell& last = row.cells.back();
    if (base.failed || last.failed) continue;
    const std::optional<uint64_t>& a = instructions ? base.instructions : base.allocations;
    const std::optional<uint64_t>& b = instructions ? last.instructions : last.allocations;
    if (!a || !b || *a == 0 || *b == 0) continue;
    log_sum += std::log(static_cast<double>(*b) / static_cast<double>(*a));
    ++s.ratio_cases;
  }
  if (s.ratio_cases > 0) s.geomean_ratio = std::exp(log_sum / static_cast<double>(s.ratio_cases));
  return s;
}

std::string summary_line(const CompareSummary& s) {
  const size_t cases = s.regressed + s.improved + s.within_noise + s.unchanged + s.not_compared;
  std::string out = "summary (" + s.judged_label + " against " + s.base_label + ", " +
                    std::to_string(cases) + " cases): " + std::to_string(s.regressed) +
                    " regressed, " + std::to_string(s.improved) + " improved, " +
                    std::to_string(s.within_noise) + " within noise, " +
                    std::to_string(s.unchanged) + " unchanged";
  if (s.not_compared > 0)
    out += ", " + std::to_string(s.not_compared) + " not compared (removed, or failed in both)";
  out += "; geometric mean of the " + s.ratio_metric + " ratios " + s.judged_label + "/" +
         s.base_label + " ";
  if (!s.geomean_ratio) return out + "not measured (no case with counts above 0 in both)";
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.4f", *s.geomean_ratio);
  return out + ratio + " (" + format_pct((*s.geomean_ratio - 1.0) * 100.0) + ") over " +
         std::to_string(s.ratio_cases) + " cases";
}

}  // namespace moq::reports
