// The four renderings of a GateResult (gate.h).
#include <algorithm>
#include <string>
#include <vector>

#include "reports/gate.h"
#include "reports/json_values.h"
#include "reports/schema/json_io.h"
#include "reports/table.h"

namespace moq::reports {
namespace {

using results::Json;

// Rows that need attention first (as rustc-perf and rustls order theirs), case order within.
int rank(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegressed:
      return 0;
    case Verdict::kImproved:
      return 1;
    case Verdict::kNew:
      return 2;
    case Verdict::kRemoved:
      return 3;
    case Verdict::kUnchanged:
      return 4;
  }
  return 4;
}

std::vector<const GateCase*> ordered(const GateResult& r) {
  std::vector<const GateCase*> out;
  for (const GateCase& c : r.cases)
    out.push_back(&c);
  std::stable_sort(out.begin(), out.end(), [](const GateCase* a, const GateCase* b) {
    return rank(a->verdict) < rank(b->verdict);
  });
  return out;
}

// A failed side shows "failed", not its partial median.
std::string count_or_dash(const std::optional<uint64_t>& value, bool failed) {
  if (failed) return "failed";
  return value ? format_count(*value) : "-";
}

std::string summary(const GateResult& r) {
  std::string out = !r.failed()                       ? "passed"
                    : r.exit_code() == kExitRegressed ? "REGRESSED"
                                                      : "FAILED";
  out += " (exit " + std::to_string(r.exit_code()) + "): ";
  out += std::to_string(r.count(Verdict::kRegressed)) + " regressed, " +
         std::to_string(r.count(Verdict::kImproved)) + " improved, " +
         std::to_string(r.count(Verdict::kUnchanged)) + " unchanged, " +
         std::to_string(r.count(Verdict::kNew)) + " new, " +
         std::to_string(r.count(Verdict::kRemoved)) + " removed";
  if (r.removed_allowed > 0)
    out += " (" + std::to_string(r.removed_allowed) + " left out by HEAD's plan, allowed)";
  if (r.failed()) out += "; " + r.failure();
  return out;
}

std::string limits_text(const GateLimits& limits) {
  return "instructions " + format_pct(limits.max_instructions_regression) + ", allocations +" +
         format_count(limits.max_allocations_increase);
}

std::string heading(const GateResult& r) {
  std::string metrics;
  for (const std::string& m : r.metrics)
    metrics += (metrics.empty() ? "" : ", ") + m;
  return "gate: BASE " + r.base_label + " -> HEAD " + r.head_label + ", counter " + r.counter +
         ", metrics compared: " + metrics + ", limits " + limits_text(r.default_limits);
}

std::string warnings(const GateResult& r, std::string_view prefix) {
  std::string out;
  for (const GateOverride* rule : r.unused_overrides) {
    out += std::string(prefix) + "warning: override " + rule->origin + " \"" + rule->pattern +
           "\" matches no case\n";
  }
  return out;
}

Table verdict_table(const GateResult& r) {
  Table table;
  table.header = {"verdict", "case",  "instructions BASE", "instructions HEAD",
                  "change",  "limit", "allocations max",   "allocation limit",
                  "reasons"};
  table.align = {Align::kLeft,  Align::kLeft,  Align::kRight, Align::kRight, Align::kRight,
                 Align::kRight, Align::kRight, Align::kRight, Align::kLeft};
  for (const GateCase* c : ordered(r)) {
    std::string verdict(to_string(c->verdict));
    if (c->verdict == Verdict::kRegressed) {
      std::transform(verdict.begin(), verdict.end(), verdict.begin(), ::toupper);
    }
    std::string limit = format_pct(c->limits.max_instructions_regression);
    std::string allocation_limit = "+" + format_count(c->limits.max_allocations_increase);
    if (c->override != nullptr) {
      if (c->override->max_instructions_regression) limit += "*";
      if (c->override->max_allocations_increase) allocation_limit += "*";
    }
    table.rows.push_back(
        {verdict, c->id, count_or_dash(c->base_instructions, c->base_failed),
         count_or_dash(c->head_instructions, c->head_failed),
         c->instructions_change_pct ? format_pct(*c->instructions_change_pct) : "-", limit,
         count_or_dash(c->base_allocations, c->base_failed) + " -> " +
             count_or_dash(c->head_allocations, c->head_failed),
         allocation_limit, join(c->reasons, "; ")});
  }
  return table;
}

// Each line of text escaped for Markdown, the line breaks kept.
std::string markdown_escape_lines(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const size_t stop = end == std::string::npos ? text.size() : end;
    const std::string_view line = std::string_view(text).substr(start, stop - start);
    // A list item's own "- " stays Markdown.
    const bool item = line.substr(0, 2) == "- ";
    out += (item ? "- " : "") + markdown_escape(line.substr(item ? 2 : 0));
    if (end != std::string::npos) out += '\n';
    start = stop + 1;
  }
  return out;
}

std::string render_table(const GateResult& r) {
  std::string out = heading(r) + "\n\n" + render_terminal(verdict_table(r));
  if (std::any_of(r.cases.begin(), r.cases.end(),
                  [](const GateCase& c) { return c.override != nullptr; })) {
    out += "(* limit set by an override rule)\n";
  }
  out += warnings(r, "");
  return out + "\nresult: " + summary(r) + "\n";
}

std::string render_md(const GateResult& r) {
  std::string out =
      "### moqbench " + markdown_escape(heading(r)) + "\n\n**" + summary(r) + "**\n\n";
  out += render_markdown(verdict_table(r));
  if (std::any_of(r.cases.begin(), r.cases.end(),
                  [](const GateCase& c) { return c.override != nullptr; })) {
    out += "\n\\* limit set by an override rule\n";
  }
  const std::string warn = markdown_escape_lines(warnings(r, "- "));
  if (!warn.empty()) out += "\n" + warn;
  return out;
}

std::string render_csv_rows(const GateResult& r) {
  Table table;
  table.header = {"id",
                  "verdict",
                  "base_instructions",
                  "head_instructions",
                  "change_pct",
                  "max_instructions_regression",
                  "base_allocations_max",
                  "head_allocations_max",
                  "max_allocations_increase",
                  "override",
                  "reasons"};
  for (const GateCase& c : r.cases) {
    table.rows.push_back({c.id, std::string(to_string(c.verdict)), csv_cell(c.base_instructions),
                          csv_cell(c.head_instructions), csv_cell(c.instructions_change_pct),
                          format_double(c.limits.max_instructions_regression),
                          csv_cell(c.base_allocations), csv_cell(c.head_allocations),
                          std::to_string(c.limits.max_allocations_increase),
                          c.override != nullptr ? c.override->pattern : "", join(c.reasons, "; ")});
  }
  return render_csv(table);
}

Json limits_json(const GateLimits& limits) {
  return {{"max_instructions_regression", limits.max_instructions_regression},
          {"max_allocations_increase", limits.max_allocations_increase}};
}

std::string render_json(const GateResult& r) {
  Json doc = Json::object();
  doc["schema"] = "moqbench.gate/1";
  doc["base"] = r.base_label;
  doc["head"] = r.head_label;
  doc["counter"] = r.counter;
  doc["limits"] = limits_json(r.default_limits);
  doc["fail_on_removed"] = r.fail_on_removed;
  doc["metrics"] = r.metrics;
  doc["result"] = !r.failed() ? "passed" : r.exit_code() == kExitRegressed ? "regressed" : "failed";
  doc["failure"] = r.failure();
  doc["exit_code"] = r.exit_code();
  doc["counts"] = {{"regressed", r.count(Verdict::kRegressed)},
                   {"improved", r.count(Verdict::kImproved)},
                   {"unchanged", r.count(Verdict::kUnchanged)},
                   {"new", r.count(Verdict::kNew)},
                   {"removed", r.count(Verdict::kRemoved)}};
  Json cases = Json::array();
  for (const GateCase& c : r.cases) {
    cases.push_back({{"id", c.id},
                     {"verdict", std::string(to_string(c.verdict))},
                     {"instructions",
                      {{"base", json_or_null(c.base_instructions)},
                       {"head", json_or_null(c.head_instructions)},
                       {"change_pct", json_or_null(c.instructions_change_pct)}}},
                     {"allocations",
                      {{"base_max", json_or_null(c.base_allocations)},
                       {"head_max", json_or_null(c.head_allocations)}}},
                     {"limits", limits_json(c.limits)},
                     {"override", c.override != nullptr ? Json(c.override->origin) : Json(nullptr)},
                     {"reasons", c.reasons}});
  }
  doc["cases"] = std::move(cases);
  Json unused = Json::array();
  for (const GateOverride* rule : r.unused_overrides) {
    unused.push_back({{"case", rule->pattern}, {"origin", rule->origin}});
  }
  doc["unused_overrides"] = std::move(unused);
  return doc.dump(2) + "\n";
}

}  // namespace

std::string render_gate(const GateResult& result, OutputFormat format) {
  return render_in_format(result, format, {render_table, render_md, render_csv_rows, render_json});
}

}  // namespace moq::reports
