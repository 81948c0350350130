#include "reports/report.h"

#include <algorithm>
#include <map>

#include "reports/charts.h"
#include "reports/compare.h"
#include "reports/compare_summary.h"
#include "reports/report_summary.h"
#include "reports/roles.h"
#include "reports/table.h"

namespace moq::reports {
namespace {

constexpr const char* kStyle = R"css(
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 24px; color: #222; background: #fff; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 8px; font-family: "DejaVu Sans Mono", monospace; }
p.note { color: #555; font-size: 13px; }
table { border-collapse: collapse; font-size: 12px; margin: 8px 0; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
ul.ids { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; }
svg.chart { font-size: 11px; }
svg.chart .frame { fill: #fcfcfc; stroke: #ddd; }
svg.chart .grid { stroke: #e6e6e6; }
svg.chart .axis, svg.chart .tick-mark { stroke: #555; }
svg.chart .tick.y { text-anchor: end; }
svg.chart .tick.x, svg.chart .axis-title { text-anchor: middle; }
svg.chart .title { font-size: 13px; font-weight: bold; }
svg.chart .subtitle { font-size: 11px; fill: #555; }
svg.chart .series-line { fill: none; }
.wide { overflow-x: auto; max-width: 100%; }
p.summary { font-size: 14px; font-weight: bold; }
tr.regressed td, li.regressed { background: #fde0dc; }
tr.regressed td:first-child { border-left: 4px solid #c62828; font-weight: bold; }
tr.improved td { background: #e4f4e4; }
label.filter { display: block; margin: 8px 0; font-size: 13px; }
svg.chart .point { stroke: #fff; stroke-width: 1; }
)css";

std::vector<std::string> labels_of(const std::vector<InputFile>& inputs) {
  std::vector<std::string> labels;
  labels.reserve(inputs.size());
  for (const InputFile& input : inputs)
    labels.push_back(input.label);
  return labels;
}

Table files_table(const std::vector<InputFile>& inputs) {
  Table table;
  table.header = {"file", "path",   "commit",  "compiler",   "flags",   "build type",
                  "CPU",  "kernel", "counter", "pinned CPU", "started", "cases"};
  for (const InputFile& input : inputs) {
    const results::Meta& m = input.results.meta;
    table.rows.push_back({input.label, input.path, commit_text(m), m.compiler, m.compiler_flags,
                          m.build_type, m.cpu_model, m.kernel, counter_text(m),
                          m.pinned_cpu ? std::to_string(*m.pinned_cpu) : "no", m.start_time,
                          std::to_string(input.results.cases.size())});
  }
  table.align.assign(table.header.size(), Align::kLeft);
  table.align.back() = Align::kRight;
  return table;
}

Table failed_table(const std::vector<InputFile>& inputs) {
  Table table;
  table.header = {"file", "case", "reason"};
  for (const InputFile& input : inputs) {
    for (const results::CaseResult& c : input.results.cases) {
      if (c.flags.failed) table.rows.push_back({input.label, c.id, c.flags.reason.value_or("")});
    }
  }
  return table;
}

std::string chart_title(const Chart& chart) {
  return chart.metric + ": " + chart.group + (chart.fixed.empty() ? "" : " (" + chart.fixed + ")") +
         ", by " + chart.x_axis;
}

// A chart's data as a table: rows are x values in order, columns the series.
Table chart_table(const Chart& chart) {
  Table table;
  table.header.push_back(chart.x_axis);
  table.align.push_back(Align::kRight);
  std::map<double, std::string> x_text;
  for (const ChartSeries& s : chart.series) {
    table.header.push_back(s.name);
    table.align.push_back(Align::kRight);
    for (const ChartPoint& p : s.points)
      x_text.emplace(p.x, p.x_text);
  }
  for (const auto& [x, text] : x_text) {
    std::vector<std::string> row{text};
    for (const ChartSeries& s : chart.series) {
      std::string cell = "-";
      for (const ChartPoint& p : s.points) {
        if (p.x == x) cell = format_count(p.y);
      }
      row.push_back(cell);
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

// One file's cases (medians), for a report of a single file.
Table cases_table(const InputFile& input) {
  Table table;
  table.header = {"case", "instructions", "allocations"};
  table.align = {Align::kLeft, Align::kRight, Align::kRight};
  // callgrind's simulated misses, a column each when some case has them.
  std::vector<results::Metric> simulated;
  for (results::Metric metric : results::kSimMetrics) {
    if (std::none_of(input.results.cases.begin(), input.results.cases.end(),
                     [&](const results::CaseResult& c) { return c.metrics.get(metric); }))
      continue;
    simulated.push_back(metric);
    table.header.emplace_back(results::metric_name(metric));
    table.align.push_back(Align::kRight);
  }
  for (const results::CaseResult& c : input.results.cases) {
    auto median = [&](const std::optional<results::MetricStats>& stats) {
      return c.flags.failed ? std::string("failed")
             : stats        ? format_count(stats->median)
                            : std::string("-");
    };
    table.rows.push_back({c.id, median(c.metrics.instructions), median(c.metrics.allocations)});
    for (results::Metric metric : simulated)
      table.rows.back().push_back(median(c.metrics.get(metric)));
  }
  return table;
}

std::string html_id_list(const std::string& title, const std::vector<std::string>& ids) {
  if (ids.empty()) return "";
  std::string out = "<p><b>" + html_escape(title) + "</b> (" + std::to_string(ids.size()) +
                    ")</p>\n<ul class=\"ids\">\n";
  for (const std::string& id : ids)
    out += "<li>" + html_escape(id) + "</li>\n";
  return out + "</ul>\n";
}

}  // namespace

Result<std::string> render_html_report(const std::vector<InputFile>& inputs) {
  if (inputs.empty()) return Error{"report needs at least one results file"};
  if (Status status = check_same_counter(inputs); !status.ok()) return status.error();
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<title>moqbench report</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n";
  html += "<body>\n<h1>moqbench report</h1>\n<p class=\"note\">" + std::to_string(inputs.size()) +
          " results file(s), counter " + html_escape(counter_text(inputs[0].results.meta)) +
          ". Values are medians per measured round.</p>\n";
  // The page opens with what moved: the summary and the regressed cases, before the details.
  std::optional<Comparison> comparison;
  if (inputs.size() >= 2) {
    Result<Comparison> compared = compare(inputs);
    if (!compared.ok()) return compared.error();
    comparison = std::move(*compared);
    html += html_summary_section(*comparison);
  }
  html += "<h2>Files</h2>\n" + render_html_table(files_table(inputs));

  if (!comparison) {
    html += "<h2>Cases</h2>\n<p class=\"note\">Medians per measured round.</p>\n";
    html += "<div class=\"wide cases\">\n" + render_html_table(cases_table(inputs[0])) + "</div>\n";
  } else {
    html += "<h2>Comparison against " + html_escape(inputs[0].label) + "</h2>\n";
    html += "<p class=\"note\">" + html_escape(noise_sentence(*comparison)) +
            " Rows: regressed first (highlighted), then improved, within noise, unchanged; "
            "largest change first.</p>\n";
    html += "<div class=\"wide cases\">\n" +
            render_html_table(comparison_table(*comparison), comparison_row_classes(*comparison)) +
            "</div>\n";
    for (size_t f = 1; f < inputs.size(); ++f) {
      html += html_id_list("NEW in " + inputs[f].label, comparison->new_ids[f]);
      html += html_id_list("REMOVED from " + inputs[f].label, comparison->removed_ids[f]);
    }
  }
  if (const std::vector<RoleSplitRow> roles = role_split_rows(inputs); !roles.empty()) {
    html +=
        "<h2>By role</h2>\n<p class=\"note\">Each case's round split by role (medians per "
        "round; the roles sum to the case's total).</p>\n<div class=\"wide cases\">\n" +
        render_html_table(role_split_table(labels_of(inputs), roles)) + "</div>\n";
  }
  const Table failed = failed_table(inputs);
  if (!failed.rows.empty())
    html +=
        "<h2>Failed cases</h2>\n<div class=\"cases\">\n" + render_html_table(failed) + "</div>\n";

  const std::vector<Chart> charts = build_charts(inputs);
  html += "<h2>Charts</h2>\n";
  if (charts.empty()) html += "<p class=\"note\">No case has data to chart.</p>\n";
  std::string open_group;
  for (const Chart& chart : charts) {
    if (chart.group != open_group) {
      if (!open_group.empty()) html += "</div>\n</section>\n";
      open_group = chart.group;
      html += "<section class=\"group\">\n<h3>" + html_escape(chart.group) +
              "</h3>\n<div class=\"charts\">\n";
    }
    html += "<figure>\n" + render_chart_svg(chart) + "</figure>\n";
  }
  if (!open_group.empty()) html += "</div>\n</section>\n";
  html += case_filter_script() + "</body>\n</html>\n";
  return html;
}

Result<std::string> render_report_markdown(const std::vector<InputFile>& inputs) {
  if (inputs.empty()) return Error{"report needs at least one results file"};
  if (Status status = check_same_counter(inputs); !status.ok()) return status.error();
  std::string md = "## moqbench report (" + std::to_string(inputs.size()) + " files, counter " +
                   markdown_escape(counter_text(inputs[0].results.meta)) +
                   "; medians per measured round)\n\n";
  md += render_markdown(files_table(inputs));
  if (inputs.size() >= 2) {
    Result<Comparison> comparison = compare(inputs);
    if (!comparison.ok()) return comparison.error();
    md += "\n### Comparison against " + markdown_escape(inputs[0].label) + "\n\n**" +
          markdown_escape(summary_line(summarize(*comparison))) + "**\n\n" +
          markdown_escape(noise_sentence(*comparison)) + "\n\n" +
          render_markdown(comparison_table(*comparison));
    md += new_and_removed_lists(*comparison, IdListStyle::kMarkdown);
  }
  if (const std::vector<RoleSplitRow> roles = role_split_rows(inputs); !roles.empty()) {
    md += "\n### By role\n\n" + render_markdown(role_split_table(labels_of(inputs), roles));
  }
  const Table failed = failed_table(inputs);
  if (!failed.rows.empty()) md += "\n### Failed cases\n\n" + render_markdown(failed);
  const std::vector<Chart> charts = build_charts(inputs);
  if (!charts.empty()) md += "\n### Chart data\n";
  for (const Chart& chart : charts) {
    md += "\n#### " + markdown_escape(chart_title(chart)) + "\n\n" +
          render_markdown(chart_table(chart));
  }
  return md;
}

}  // namespace moq::reports
