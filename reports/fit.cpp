#include "reports/fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "reports/schema/json_text.h"
#include "reports/table.h"

namespace moq::reports {

namespace {

constexpr std::array<Growth, 6> kCandidates = {Growth::kConstant, Growth::kLogN, Growth::kN,
                                               Growth::kNLogN,    Growth::kN2,   Growth::kN3};

double g_of(Growth growth, double n) {
  const double log_n = n > 1 ? std::log2(n) : 0.0;
  switch (growth) {
    case Growth::kConstant:
      return 1;
    case Growth::kLogN:
      return log_n;
    case Growth::kN:
      return n;
    case Growth::kNLogN:
      return n * log_n;
    case Growth::kN2:
      return n * n;
    case Growth::kN3:
      return n * n * n;
  }
  return 1;
}

// RMS of cost - (a + b g(n)) over the mean cost, with a, b >= 0 from least squares.
double residual_of(Growth growth, const std::vector<FitPoint>& points) {
  const double k = static_cast<double>(points.size());
  double mg = 0, my = 0;
  for (const FitPoint& p : points) {
    mg += g_of(growth, p.n) / k;
    my += p.cost / k;
  }
  double cov = 0, var = 0;
  for (const FitPoint& p : points) {
    cov += (g_of(growth, p.n) - mg) * (p.cost - my);
    var += (g_of(growth, p.n) - mg) * (g_of(growth, p.n) - mg);
  }
  double b = var > 0 ? cov / var : 0;
  double a = my - b * mg;
  if (b < 0) {
    b = 0;
    a = my;
  }
  if (a < 0) {  // through the origin
    double gy = 0, gg = 0;
    for (const FitPoint& p : points) {
      gy += g_of(growth, p.n) * p.cost;
      gg += g_of(growth, p.n) * g_of(growth, p.n);
    }
    a = 0;
    b = gg > 0 ? gy / gg : 0;
  }
  double sq = 0;
  for (const FitPoint& p : points) {
    const double e = p.cost - (a + b * g_of(growth, p.n));
    sq += e * e / k;
  }
  return my > 0 ? std::sqrt(sq) / my : 0;
}

double log_log_slope(const std::vector<FitPoint>& points) {
  const double k = static_cast<double>(points.size());
  double mx = 0, my = 0;
  for (const FitPoint& p : points) {
    mx += std::log(p.n) / k;
    my += std::log(std::max(p.cost, 1.0)) / k;
  }
  double cov = 0, var = 0;
  for (const FitPoint& p : points) {
    const double dx = std::log(p.n) - mx;
    cov += dx * (std::log(std::max(p.cost, 1.0)) - my);
    var += dx * dx;
  }
  return var > 0 ? cov / var : 0;
}

std::optional<double> metric_median(const results::CaseResult& c, FitMetric metric) {
  const std::optional<results::MetricStats>* stats = nullptr;
  switch (metric) {
    case FitMetric::kInstructions:
      stats = &c.metrics.instructions;
      break;
    case FitMetric::kAllocations:
      stats = &c.metrics.allocations;
      break;
    case FitMetric::kAllocationBytes:
      stats = &c.metrics.allocation_bytes;
      break;
  }
  if (!*stats || (*stats)->samples.empty()) return std::nullopt;
  return static_cast<double>((*stats)->median);
}

std::string points_text(const GrowthFit& f) {
  std::vector<std::string> parts;
  for (const FitPoint& p : f.points)
    parts.push_back(format_double(p.n) + ": " + format_count(static_cast<uint64_t>(p.cost)));
  return join(parts, "; ");
}

std::string slope_text(double slope) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", slope);
  return buf;
}

std::string residual_text(double residual) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", residual * 100);
  return buf;
}

Table fits_table(const std::vector<GrowthFit>& fits, const FitRequest& request,
                 std::optional<Growth> bound) {
  Table t;
  t.header = {"series",
              "points (" + request.axis + ": " + std::string(to_string(request.metric)) + ")",
              "slope", "growth", "residual"};
  t.align = {Align::kLeft, Align::kLeft, Align::kRight, Align::kLeft, Align::kRight};
  if (bound) {
    t.header.push_back("bound " + std::string(to_string(*bound)));
    t.align.push_back(Align::kLeft);
  }
  for (const GrowthFit& f : fits) {
    std::vector<std::string> row = {f.series, points_text(f), slope_text(f.slope),
                                    std::string(to_string(f.growth)), residual_text(f.residual)};
    if (bound) row.push_back(f.exceeds(bound) ? "EXCEEDED" : "ok");
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

std::string_view to_string(Growth growth) {
  switch (growth) {
    case Growth::kConstant:
      return "O(1)";
    case Growth::kLogN:
      return "O(log n)";
    case Growth::kN:
      return "O(n)";
    case Growth::kNLogN:
      return "O(n log n)";
    case Growth::kN2:
      return "O(n^2)";
    case Growth::kN3:
      return "O(n^3)";
  }
  return "?";
}

Result<Growth> parse_growth(std::string_view text) {
  std::string compact;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ') continue;
    if (text.substr(i, 2) == "\u00b2") {  // ²
      compact += "^2";
      ++i;
    } else if (text.substr(i, 2) == "\u00b3") {  // ³
      compact += "^3";
      ++i;
    } else {
      compact += text[i];
    }
  }
  for (Growth g : kCandidates) {
    std::string name;
    for (char c : to_string(g))
      if (c != ' ') name += c;
    if (compact == name) return g;
  }
  return Error{"growth '" + std::string(text) +
               "': expected O(1), O(log n), O(n), O(n log n), O(n^2) or O(n^3)"};
}

std::string_view to_string(FitMetric metric) {
  switch (metric) {
    case FitMetric::kInstructions:
      return "instructions";
    case FitMetric::kAllocations:
      return "allocations";
    case FitMetric::kAllocationBytes:
      return "allocation_bytes";
  }
  return "?";
}

Result<FitMetric> parse_fit_metric(std::string_view text) {
  for (FitMetric m :
       {FitMetric::kInstructions, FitMetric::kAllocations, FitMetric::kAllocationBytes})
    if (to_string(m) == text) return m;
  return Error{"metric '" + std::string(text) +
               "': expected instructions, allocations or allocation_bytes"};
}

GrowthFit fit_series(std::string series, std::vector<FitPoint> points) {
  GrowthFit f;
  f.series = std::move(series);
  std::sort(points.begin(), points.end(),
            [](const FitPoint& a, const FitPoint& b) { return a.n < b.n; });
  f.points = std::move(points);
  f.slope = log_log_slope(f.points);
  std::array<double, kCandidates.size()> residuals{};
  for (size_t i = 0; i < kCandidates.size(); ++i)
    residuals[i] = residual_of(kCandidates[i], f.points);
  const double best = *std::min_element(residuals.begin(), residuals.end());
  for (size_t i = 0; i < kCandidates.size(); ++i) {
    if (residuals[i] <= best + kGrowthTolerance) {
      f.growth = kCandidates[i];
      f.residual = residuals[i];
      break;
    }
  }
  return f;
}

Result<std::vector<GrowthFit>> fit_growth(const results::ResultsFile& file,
                                          const FitRequest& request) {
  std::map<std::string, size_t> index;  // series -> position in `series`
  std::vector<std::pair<std::string, std::vector<FitPoint>>> series;
  size_t with_axis = 0;
  for (const results::CaseResult& c : file.cases) {
    if (!request.scenario.empty() && c.scenario != request.scenario) continue;
    std::vector<results::Param> params = c.params;
    auto axis = std::find_if(params.begin(), params.end(),
                             [&](const results::Param& p) { return p.name == request.axis; });
    if (axis == params.end()) continue;
    ++with_axis;
    const int64_t* value = std::get_if<int64_t>(&axis->value);
    if (!value || *value <= 0)
      return Error{c.id + ": axis '" + request.axis + "' is " +
                   results::param_value_text(axis->value) + ", not a positive number"};
    std::optional<double> cost = metric_median(c, request.metric);
    if (!cost)
      return Error{c.id + ": no " + std::string(to_string(request.metric)) +
                   " to fit (instructions need a counter other than none)"};
    const double n = static_cast<double>(*value);
    axis->value = std::string("*");
    const std::string key = results::make_case_id(c.bench, c.scenario, c.version, params);
    auto [it, added] = index.emplace(key, series.size());
    if (added) series.emplace_back(key, std::vector<FitPoint>{});
    series[it->second].second.push_back({n, *cost, c.id});
  }
  std::vector<GrowthFit> fits;
  for (auto& [name, points] : series) {
    if (points.size() < 3) continue;
    fits.push_back(fit_series(name, std::move(points)));
  }
  if (fits.empty())
    return Error{"no series to fit: " + std::to_string(with_axis) + " case(s) " +
                 (request.scenario.empty() ? "" : "of " + request.scenario + " ") +
                 "have the axis '" + request.axis +
                 "', and a series needs 3 or more values of it with every other axis equal"};
  return fits;
}

std::string render_fits(const std::vector<GrowthFit>& fits, const FitRequest& request,
                        std::optional<Growth> bound, OutputFormat format) {
  const Table t = fits_table(fits, request, bound);
  switch (format) {
    case OutputFormat::kTable:
      return render_terminal(t);
    case OutputFormat::kMarkdown:
      return render_markdown(t);
    case OutputFormat::kCsv:
      return render_csv(t);
    case OutputFormat::kJson: {
      results::Json out = results::Json::array();
      for (const GrowthFit& f : fits) {
        results::Json points = results::Json::array();
        for (const FitPoint& p : f.points)
          points.push_back({{"n", p.n}, {"cost", p.cost}, {"id", p.id}});
        results::Json row = {{"series", f.series},
                             {"points", points},
                             {"slope", f.slope},
                             {"growth", to_string(f.growth)},
                             {"residual", f.residual}};
        if (bound) row["exceeds_bound"] = f.exceeds(bound);
        out.push_back(row);
      }
      return out.dump(2) + "\n";
    }
  }
  return render_terminal(t);
}

}  // namespace moq::reports
