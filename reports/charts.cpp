#include "reports/charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "reports/table.h"

namespace moq::reports {

size_t Chart::point_count() const {
  size_t n = 0;
  for (const ChartSeries& s : series)
    n += s.points.size();
  return n;
}

namespace {

using results::CaseResult;
using results::Metric;

struct Group {
  std::string key;
  std::vector<const CaseResult*> cases;  // one representative per id, first appearance order
};

std::string group_key(const CaseResult& c) {
  return c.bench + "/" + c.scenario + "/" + c.version;
}

std::optional<int64_t> int_param(const CaseResult& c, const std::string& name) {
  const results::Param* p = c.find_param(name);
  if (p == nullptr || !std::holds_alternative<int64_t>(p->value)) return std::nullopt;
  return std::get<int64_t>(p->value);
}

// The x axis of a group: an integer parameter every case has, with more than one value.
std::string choose_x_axis(const Group& group) {
  std::vector<std::string> candidates;
  for (const results::Param& p : group.cases.front()->params) {
    bool numeric_everywhere = true;
    std::set<int64_t> values;
    for (const CaseResult* c : group.cases) {
      const std::optional<int64_t> v = int_param(*c, p.name);
      if (!v) {
        numeric_everywhere = false;
        break;
      }
      values.insert(*v);
    }
    if (numeric_everywhere && values.size() > 1) candidates.push_back(p.name);
  }
  for (const char* preferred : {"frames", "viewers"}) {
    if (std::find(candidates.begin(), candidates.end(), preferred) != candidates.end()) {
      return preferred;
    }
  }
  return candidates.empty() ? "" : candidates.front();
}

std::string params_except(const CaseResult& c, const std::string& skip) {
  std::string out;
  for (const results::Param& p : c.params) {
    if (p.name == skip) continue;
    if (!out.empty()) out += "/";
    out += p.name + "=" + results::param_value_text(p.value);
  }
  return out;
}

const CaseResult* usable(const CaseLookup& lookup, const std::string& id, Metric metric) {
  const CaseResult* c = lookup.find(id);
  if (c == nullptr || c->flags.failed || !c->metrics.get(metric)) return nullptr;
  return c;
}

std::vector<Metric> chart_metrics(const std::vector<InputFile>& inputs) {
  if (inputs.front().results.meta.counter_backend == results::CounterBackend::kNone) {
    return {Metric::kAllocations};
  }
  std::vector<Metric> metrics = {Metric::kInstructions, Metric::kAllocations};
  // callgrind's simulated misses, charted when the first file measured them.
  const std::vector<CaseResult>& cases = inputs.front().results.cases;
  for (Metric metric : results::kSimMetrics) {
    if (std::any_of(cases.begin(), cases.end(),
                    [&](const CaseResult& c) { return c.metrics.get(metric).has_value(); }))
      metrics.push_back(metric);
  }
  return metrics;
}

void sort_points(Chart& chart) {
  for (ChartSeries& s : chart.series) {
    std::stable_sort(s.points.begin(), s.points.end(),
                     [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
  }
  chart.series.erase(std::remove_if(chart.series.begin(), chart.series.end(),
                                    [](const ChartSeries& s) { return s.points.empty(); }),
                     chart.series.end());
}

void charts_by_axis(const std::vector<InputFile>& inputs, const std::vector<CaseLookup>& lookups,
                    const Group& group, const std::string& x_axis, std::vector<Chart>& out) {
  // Families: the other parameters' values, in order of first appearance.
  std::vector<std::string> families;
  std::map<std::string, std::vector<const CaseResult*>> members;
  for (const CaseResult* c : group.cases) {
    const std::string fixed = params_except(*c, x_axis);
    if (members.find(fixed) == members.end()) families.push_back(fixed);
    members[fixed].push_back(c);
  }
  for (const std::string& fixed : families) {
    for (Metric metric : chart_metrics(inputs)) {
      Chart chart{group.key, fixed, std::string(results::metric_name(metric)), x_axis, {}};
      for (size_t f = 0; f < inputs.size(); ++f) {
        ChartSeries series{inputs[f].label, {}};
        for (const CaseResult* member : members[fixed]) {
          const CaseResult* c = usable(lookups[f], member->id, metric);
          if (c == nullptr) continue;
          const int64_t x = *int_param(*c, x_axis);
          series.points.push_back({static_cast<double>(x), std::to_string(x),
                                   c->metrics.get(metric)->median, c->id, f});
        }
        chart.series.push_back(std::move(series));
      }
      sort_points(chart);
      if (!chart.series.empty()) out.push_back(std::move(chart));
    }
  }
}

void charts_by_file(const std::vector<InputFile>& inputs, const std::vector<CaseLookup>& lookups,
                    const Group& group, std::vector<Chart>& out) {
  for (Metric metric : chart_metrics(inputs)) {
    Chart chart{group.key, "", std::string(results::metric_name(metric)), "file", {}};
    for (const CaseResult* member : group.cases) {
      const std::string name = params_except(*member, "");
      ChartSeries series{name.empty() ? "(no parameters)" : name, {}};
      for (size_t f = 0; f < inputs.size(); ++f) {
        const CaseResult* c = usable(lookups[f], member->id, metric);
        if (c == nullptr) continue;
        series.points.push_back(
            {static_cast<double>(f), inputs[f].label, c->metrics.get(metric)->median, c->id, f});
      }
      chart.series.push_back(std::move(series));
    }
    sort_points(chart);
    if (!chart.series.empty()) out.push_back(std::move(chart));
  }
}

}  // namespace

std::vector<Chart> build_charts(const std::vector<InputFile>& inputs) {
  std::vector<Chart> charts;
  if (inputs.empty()) return charts;
  std::vector<Group> groups;
  std::map<std::string, size_t> group_index;
  std::set<std::string, std::less<>> seen;
  for (const InputFile& input : inputs) {
    for (const CaseResult& c : input.results.cases) {
      if (!seen.insert(c.id).second) continue;
      const std::string key = group_key(c);
      auto [it, inserted] = group_index.emplace(key, groups.size());
      if (inserted) groups.push_back({key, {}});
      groups[it->second].cases.push_back(&c);
    }
  }
  const std::vector<CaseLookup> lookups = lookups_of(inputs);
  for (const Group& group : groups) {
    const std::string x_axis = choose_x_axis(group);
    if (x_axis.empty()) {
      charts_by_file(inputs, lookups, group, charts);
    } else {
      charts_by_axis(inputs, lookups, group, x_axis, charts);
    }
  }
  return charts;
}

namespace {

constexpr double kWidth = 640;
constexpr double kLeft = 84, kRight = 24, kTop = 44, kPlotBottom = 262;
constexpr double kLegendTop = 318, kLegendRow = 18, kLegendColumn = 200;
constexpr int kLegendPerRow = 3;
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

// 1234 -> "1.23k", 5600000 -> "5.6M": tick labels stay short.
std::string short_count(double v) {
  const char* suffixes[] = {"", "k", "M", "G", "T"};
  int i = 0;
  while (v >= 1000 && i < 4) {
    v /= 1000;
    ++i;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g%s", v, suffixes[i]);
  return text;
}

// A step of 1, 2 or 5 times a power of ten, giving about `ticks` intervals up to max.
double nice_step(double max, int ticks) {
  const double raw = max / ticks;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw) return std::max(1.0, m * power);
  }
  return std::max(1.0, 10 * power);
}

std::string truncate(const std::string& text, size_t n) {
  if (display_width(text) <= n) return text;
  // Cut on a code point boundary.
  size_t bytes = 0, points = 0;
  while (bytes < text.size() && points < n - 1) {
    ++bytes;
    while (bytes < text.size() && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) {
      ++bytes;
    }
    ++points;
  }
  return text.substr(0, bytes) + "…";
}

}  // namespace

std::string render_chart_svg(const Chart& chart) {
  // x positions.
  std::vector<double> xs;
  std::map<double, std::string> x_labels;
  uint64_t y_max = 0;
  for (const ChartSeries& s : chart.series) {
    for (const ChartPoint& p : s.points) {
      xs.push_back(p.x);
      x_labels.emplace(p.x, p.x_text);
      y_max = std::max(y_max, p.y);
    }
  }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const bool by_file = chart.x_axis == "file";
  const bool log_x = !by_file && !xs.empty() && xs.front() > 0 && xs.back() / xs.front() >= 8;
  const double plot_right = kWidth - kRight;
  auto x_pos = [&](double x) {
    if (xs.size() <= 1) return (kLeft + plot_right) / 2;
    if (by_file) {
      const double i = static_cast<double>(std::find(xs.begin(), xs.end(), x) - xs.begin());
      return kLeft + 20 + i * (plot_right - kLeft - 40) / static_cast<double>(xs.size() - 1);
    }
    const double lo = log_x ? std::log2(xs.front()) : xs.front();
    const double hi = log_x ? std::log2(xs.back()) : xs.back();
    const double v = log_x ? std::log2(x) : x;
    return kLeft + 20 + (v - lo) / (hi - lo) * (plot_right - kLeft - 40);
  };
  const double step = nice_step(std::max<double>(1, static_cast<double>(y_max)), 5);
  const double y_top = std::max(step, std::ceil(static_cast<double>(y_max) / step) * step);
  auto y_pos = [&](double y) { return kPlotBottom - y / y_top * (kPlotBottom - kTop); };

  const int legend_rows =
      static_cast<int>((chart.series.size() + kLegendPerRow - 1) / kLegendPerRow);
  const double height = kLegendTop + legend_rows * kLegendRow + 8;
  const std::string title = chart.metric + " per round";
  const std::string subtitle = chart.group + (chart.fixed.empty() ? "" : " (" + chart.fixed + ")");

  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + num(kWidth) +
         "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) +
         "\" role=\"img\" data-metric=\"" + html_escape(chart.metric) + "\" data-group=\"" +
         html_escape(chart.group) + "\" data-fixed=\"" + html_escape(chart.fixed) +
         "\" data-x-axis=\"" + html_escape(chart.x_axis) + "\" data-series=\"" +
         std::to_string(chart.series.size()) + "\" data-points=\"" +
         std::to_string(chart.point_count()) + "\">\n";
  svg += "<title>" + html_escape(title + ": " + subtitle) + "</title>\n";
  svg += "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"" + num(kWidth) + "\" height=\"" +
         num(height) + "\"/>\n";
  svg += "<text class=\"title\" x=\"16\" y=\"18\">" + html_escape(title) + "</text>\n";
  svg += "<text class=\"subtitle\" x=\"16\" y=\"34\">" + html_escape(truncate(subtitle, 100)) +
         "</text>\n";
  // y grid and labels.
  for (double y = 0; y <= y_top + step / 2; y += step) {
    const std::string py = num(y_pos(y));
    svg += "<line class=\"grid\" x1=\"" + num(kLeft) + "\" x2=\"" + num(plot_right) + "\" y1=\"" +
           py + "\" y2=\"" + py + "\"/>";
    svg += "<text class=\"tick y\" x=\"" + num(kLeft - 6) + "\" y=\"" + num(y_pos(y) + 4) + "\">" +
           short_count(y) + "</text>\n";
  }
  // x ticks: every distinct x, thinned to at most 12 labels.
  const size_t every = xs.size() > 12 ? (xs.size() + 11) / 12 : 1;
  for (size_t i = 0; i < xs.size(); ++i) {
    const std::string px = num(x_pos(xs[i]));
    svg += "<line class=\"tick-mark\" x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" +
           num(kPlotBottom) + "\" y2=\"" + num(kPlotBottom + 5) + "\"/>";
    if (i % every == 0) {
      svg += "<text class=\"tick x\" x=\"" + px + "\" y=\"" + num(kPlotBottom + 18) + "\">" +
             html_escape(truncate(x_labels[xs[i]], 14)) + "</text>";
    }
    svg += "\n";
  }
  svg += "<line class=\"axis\" x1=\"" + num(kLeft) + "\" x2=\"" + num(plot_right) + "\" y1=\"" +
         num(kPlotBottom) + "\" y2=\"" + num(kPlotBottom) + "\"/>\n";
  svg += "<line class=\"axis\" x1=\"" + num(kLeft) + "\" x2=\"" + num(kLeft) + "\" y1=\"" +
         num(kTop) + "\" y2=\"" + num(kPlotBottom) + "\"/>\n";
  svg += "<text class=\"axis-title\" x=\"" + num((kLeft + plot_right) / 2) + "\" y=\"" +
         num(kPlotBottom + 40) + "\">" + html_escape(chart.x_axis) + (log_x ? " (log scale)" : "") +
         "</text>\n";

  for (size_t s = 0; s < chart.series.size(); ++s) {
    const ChartSeries& series = chart.series[s];
    const std::string color = kColors[s % (sizeof kColors / sizeof kColors[0])];
    // Earlier series are drawn larger, so a series hidden under an equal later one still shows
    // as a ring (same-build files often plot on top of each other).
    const double rest = std::min(3.0, static_cast<double>(chart.series.size() - 1 - s));
    const std::string radius = num(3.5 + 1.5 * rest);
    const std::string stroke_width = num(1.5 + 1.2 * rest);
    svg += "<g class=\"series\" data-series=\"" + html_escape(series.name) + "\">\n";
    if (series.points.size() > 1) {
      svg += "<polyline class=\"series-line\" stroke=\"" + color + "\" stroke-width=\"" +
             stroke_width + "\" points=\"";
      for (const ChartPoint& p : series.points) {
        svg += num(x_pos(p.x)) + "," + num(y_pos(static_cast<double>(p.y))) + " ";
      }
      svg += "\"/>\n";
    }
    for (const ChartPoint& p : series.points) {
      svg += "<circle class=\"point\" fill=\"" + color + "\" r=\"" + radius + "\" cx=\"" +
             num(x_pos(p.x)) + "\" cy=\"" + num(y_pos(static_cast<double>(p.y))) +
             "\" data-series=\"" + html_escape(series.name) + "\" data-file=\"" +
             std::to_string(p.file) + "\" data-case=\"" + html_escape(p.case_id) + "\" data-x=\"" +
             html_escape(p.x_text) + "\" data-y=\"" + std::to_string(p.y) + "\"><title>" +
             html_escape(series.name + ": " + p.case_id + " = " + format_count(p.y)) +
             "</title></circle>\n";
    }
    const double lx = 16 + static_cast<double>(s % kLegendPerRow) * kLegendColumn;
    const size_t row = s / kLegendPerRow;
    const double ly = kLegendTop + static_cast<double>(row) * kLegendRow;
    svg += "<rect class=\"legend-key\" fill=\"" + color + "\" x=\"" + num(lx) + "\" y=\"" +
           num(ly - 9) + "\" width=\"10\" height=\"10\"/><text class=\"legend\" x=\"" +
           num(lx + 16) + "\" y=\"" + num(ly) + "\">" + html_escape(truncate(series.name, 26)) +
           "</text>\n</g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace moq::reports
