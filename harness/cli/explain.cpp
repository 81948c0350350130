#include "harness/cli/explain.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "reports/table.h"

namespace moq::cli {

namespace {

std::string signed_count(int64_t v) {
  const std::string digits = reports::format_count(static_cast<uint64_t>(v < 0 ? -v : v));
  return (v < 0 ? "-" : v > 0 ? "+" : "") + digits;
}

std::string where_of(const counters::FunctionCost& f) {
  if (f.file.empty() || f.file == "???") return "";
  return f.file + ":" + std::to_string(f.line);
}

}  // namespace

Explanation explain_profiles(const counters::CallgrindProfile& base,
                             const counters::CallgrindProfile& head) {
  Explanation e;
  e.base_total = base.total;
  e.head_total = head.total;
  std::map<std::string, FunctionDelta> all;
  for (const counters::FunctionCost& f : base.functions) {
    FunctionDelta& d = all[f.name];
    d.name = f.name;
    d.where = where_of(f);
    d.self_base = static_cast<int64_t>(f.self);
    d.inclusive_base = static_cast<int64_t>(f.inclusive);
  }
  for (const counters::FunctionCost& f : head.functions) {
    FunctionDelta& d = all[f.name];
    d.name = f.name;
    if (d.where.empty()) d.where = where_of(f);
    d.self_head = static_cast<int64_t>(f.self);
    d.inclusive_head = static_cast<int64_t>(f.inclusive);
  }
  for (auto& [name, d] : all) {
    if (d.self_delta() == 0 && d.inclusive_delta() == 0) {
      ++e.unchanged;
      continue;
    }
    e.functions.push_back(std::move(d));
  }
  std::stable_sort(e.functions.begin(), e.functions.end(),
                   [](const FunctionDelta& a, const FunctionDelta& b) {
                     if (std::llabs(a.self_delta()) != std::llabs(b.self_delta()))
                       return std::llabs(a.self_delta()) > std::llabs(b.self_delta());
                     return std::llabs(a.inclusive_delta()) > std::llabs(b.inclusive_delta());
                   });
  return e;
}

std::string render_explanation(const Explanation& e, size_t top, reports::OutputFormat format) {
  const bool md = format == reports::OutputFormat::kMarkdown;
  const int64_t delta = static_cast<int64_t>(e.head_total) - static_cast<int64_t>(e.base_total);
  const std::optional<double> pct = reports::percent_change(e.base_total, e.head_total);
  std::string title = (e.case_id.empty() ? std::string("one measured round") : e.case_id) + ": " +
                      e.base_label + " " + reports::format_count(e.base_total) + " -> " +
                      e.head_label + " " + reports::format_count(e.head_total) + " " + e.unit +
                      " (" + signed_count(delta) +
                      (pct ? ", " + reports::format_pct(*pct) : std::string()) + ") in one round";
  reports::Table t;
  t.header = {"function",
              "self " + e.base_label,
              "self " + e.head_label,
              "self delta",
              "incl " + e.base_label,
              "incl " + e.head_label,
              "incl delta",
              "file:line"};
  t.align = {reports::Align::kLeft,  reports::Align::kRight, reports::Align::kRight,
             reports::Align::kRight, reports::Align::kRight, reports::Align::kRight,
             reports::Align::kRight, reports::Align::kLeft};
  const size_t shown = std::min(top, e.functions.size());
  int64_t rest_self = 0;
  for (size_t i = 0; i < e.functions.size(); ++i) {
    const FunctionDelta& f = e.functions[i];
    if (i >= shown) {
      rest_self += f.self_delta();
      continue;
    }
    t.rows.push_back({f.name, reports::format_count(static_cast<uint64_t>(f.self_base)),
                      reports::format_count(static_cast<uint64_t>(f.self_head)),
                      signed_count(f.self_delta()),
                      reports::format_count(static_cast<uint64_t>(f.inclusive_base)),
                      reports::format_count(static_cast<uint64_t>(f.inclusive_head)),
                      signed_count(f.inclusive_delta()), f.where});
  }
  std::string footer = std::to_string(e.functions.size()) + " functions changed, " +
                       std::to_string(e.unchanged) + " unchanged";
  if (shown < e.functions.size())
    footer += "; the " + std::to_string(e.functions.size() - shown) +
              " not shown change self costs by " + signed_count(rest_self);
  if (md)
    return "**" + reports::markdown_escape(title) + "**\n\n" + reports::render_markdown(t) + "\n" +
           reports::markdown_escape(footer) + "\n";
  return title + "\n\n" + reports::render_terminal(t) + footer + "\n";
}

}  // namespace moq::cli
