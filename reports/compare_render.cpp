// The four renderings of a Comparison (compare.h).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "reports/compare.h"
#include "reports/compare_summary.h"
#include "reports/json_values.h"
#include "reports/schema/json_io.h"
#include "reports/table.h"

namespace moq::reports {
namespace {

using results::Json;

Json json_array_or_nulls(const std::vector<std::optional<uint64_t>>& values) {
  Json out = Json::array();
  for (const std::optional<uint64_t>& v : values)
    out.push_back(json_or_null(v));
  return out;
}

bool counts_instructions(const Comparison& c) {
  return c.files[0].meta.counter_backend != results::CounterBackend::kNone;
}

std::string value_cell(const CompareCell& cell, const std::optional<uint64_t>& value) {
  if (!cell.present) return "removed";
  if (cell.failed) return "failed";
  if (!value) return "-";
  return format_count(*value);
}

std::string change_cell(const CompareCell& cell) {
  if (!cell.present || cell.failed || !cell.instructions) return "-";
  if (!cell.instructions_change_pct) return "n/a";
  const std::string change = format_pct(*cell.instructions_change_pct);
  return cell.significant == false ? change + " (noise)" : change;
}

// "a -> b -> c" of one allocation figure (the median or the maximum) across the files.
std::string allocations_cell(const CompareRow& row, std::optional<uint64_t> CompareCell::*figure) {
  std::string out;
  for (size_t f = 0; f < row.cells.size(); ++f) {
    if (f > 0) out += " -> ";
    out += value_cell(row.cells[f], row.cells[f].*figure);
  }
  return out;
}

std::string noise_cell(const std::optional<NoiseEstimate>& noise) {
  if (!noise) return "-";
  std::string out;
  if (noise->instructions_pct) {
    // The percentage without its sign: noise is a magnitude.
    out = "±" + format_pct(*noise->instructions_pct).substr(1);
  }
  if (!noise->instructions_pct || noise->allocations > 0) {
    if (!out.empty()) out += " ";
    out += "±" + format_count(noise->allocations) + " allocs";
  }
  return out;
}

bool has_notes(const Comparison& c) {
  for (const CompareRow& row : c.rows) {
    if (row.status != CaseStatus::kNew && !row.notes.empty()) return true;
  }
  return false;
}

}  // namespace

std::string verdict_class(RowVerdict verdict) {
  switch (verdict) {
    case RowVerdict::kRegressed:
      return "regressed";
    case RowVerdict::kImproved:
      return "improved";
    case RowVerdict::kWithinNoise:
      return "noise";
    case RowVerdict::kUnchanged:
      return "unchanged";
    case RowVerdict::kNotCompared:
      return "not-compared";
  }
  return "not-compared";
}

Table comparison_table(const Comparison& c) {
  Table table;
  const bool instructions = counts_instructions(c);
  table.header.push_back("case");
  table.align.push_back(Align::kLeft);
  if (instructions) {
    for (size_t f = 0; f < c.files.size(); ++f) {
      table.header.push_back("instructions " + c.files[f].label);
      table.align.push_back(Align::kRight);
      if (f > 0) {
        table.header.push_back("change " + c.files[f].label);
        table.align.push_back(Align::kRight);
      }
    }
  }
  const bool rerun_noise = !c.same_build_pairs.empty();
  const bool build_noise = !c.cross_build_pairs.empty();
  for (const auto& [shown, title] :
       {std::pair{rerun_noise, "rerun noise"}, std::pair{build_noise, "build noise"}}) {
    if (!shown) continue;
    table.header.push_back(title);
    table.align.push_back(Align::kRight);
  }
  std::vector<std::string> labels;
  for (const CompareFile& file : c.files)
    labels.push_back(file.label);
  table.header.push_back("allocations " + join(labels, " -> "));
  table.align.push_back(Align::kRight);
  table.header.push_back("allocations max " + join(labels, " -> "));
  table.align.push_back(Align::kRight);
  for (results::Metric metric : c.simulated) {
    table.header.push_back(std::string(results::metric_name(metric)) + " " + join(labels, " -> "));
    table.align.push_back(Align::kRight);
  }
  const bool notes = has_notes(c);
  if (notes) {
    table.header.push_back("notes");
    table.align.push_back(Align::kLeft);
  }
  for (const CompareRow& row : c.rows) {
    if (row.status == CaseStatus::kNew) continue;
    std::vector<std::string> cells{row.id};
    if (instructions) {
      for (size_t f = 0; f < row.cells.size(); ++f) {
        cells.push_back(value_cell(row.cells[f], row.cells[f].instructions));
        if (f > 0) cells.push_back(change_cell(row.cells[f]));
      }
    }
    if (rerun_noise) cells.push_back(noise_cell(row.rerun_noise));
    if (build_noise) cells.push_back(noise_cell(row.build_noise));
    cells.push_back(allocations_cell(row, &CompareCell::allocations));
    cells.push_back(allocations_cell(row, &CompareCell::allocations_max));
    for (results::Metric metric : c.simulated) {
      const size_t i = static_cast<size_t>(
          std::find(results::kSimMetrics.begin(), results::kSimMetrics.end(), metric) -
          results::kSimMetrics.begin());
      std::string out;
      for (size_t f = 0; f < row.cells.size(); ++f) {
        if (f > 0) out += " -> ";
        out += value_cell(row.cells[f], row.cells[f].simulated[i]);
      }
      cells.push_back(out);
    }
    if (notes) cells.push_back(join(row.notes, "; "));
    table.rows.push_back(std::move(cells));
  }
  return table;
}

std::vector<std::string> comparison_row_classes(const Comparison& c) {
  std::vector<std::string> classes;
  for (const CompareRow& row : c.rows)
    if (row.status != CaseStatus::kNew) classes.push_back(verdict_class(row.verdict));
  return classes;
}

namespace {

std::string pair_list(const Comparison& c, const std::vector<std::pair<size_t, size_t>>& pairs,
                      const char* sign) {
  std::vector<std::string> out;
  out.reserve(pairs.size());
  for (const auto& [a, b] : pairs)
    out.push_back(c.files[a].label + sign + c.files[b].label);
  return join(out, ", ");
}

}  // namespace

namespace {

// How the rounds' own spread judges a change (compare.h, CompareCell::spread_pct).
std::string spread_clause(const Comparison& c) {
  if (!c.spread_measured) return "";
  return " The rounds' spread counts as noise too: an instruction change no larger than twice "
         "sqrt(cv_BASE^2 + cv^2) of the two files' samples is marked \"(noise)\" (an exact "
         "counter has no spread).";
}

std::string pairs_sentence(const Comparison& c) {
  if (c.same_build_pairs.empty() && c.cross_build_pairs.empty()) {
    return "noise: no two files come from the same source, so no noise is measured between files "
           "(rerun a build, and build the same commit twice, to measure it).";
  }
  std::string out = "noise:";
  if (!c.same_build_pairs.empty()) {
    out += " " + pair_list(c, c.same_build_pairs, " = ") +
           " come from one build (rerun noise, the largest difference between such files);";
  }
  if (!c.cross_build_pairs.empty()) {
    out += " " + pair_list(c, c.cross_build_pairs, " ~ ") +
           " are two builds of one source (build noise, the largest difference between such "
           "files);";
  }
  if (c.same_build_pairs.empty()) out += " rerun noise not measured;";
  if (c.cross_build_pairs.empty()) out += " build noise not measured;";
  return out +
         " a change no larger than the larger noise of its case is marked \"(noise)\", any "
         "other change is significant.";
}

}  // namespace

std::string noise_sentence(const Comparison& c) {
  if (c.same_build_pairs.empty() && c.cross_build_pairs.empty() && !c.spread_measured) {
    return "noise: no two files come from the same source, so no noise is measured and no change "
           "is judged against it (rerun a build, and build the same commit twice, to measure "
           "it).";
  }
  return pairs_sentence(c) + spread_clause(c);
}

std::string new_and_removed_lists(const Comparison& c, IdListStyle style) {
  const bool markdown = style == IdListStyle::kMarkdown;
  std::string out;
  for (size_t f = 1; f < c.files.size(); ++f) {
    for (int kind = 0; kind < 2; ++kind) {
      const std::vector<std::string>& ids = kind == 0 ? c.new_ids[f] : c.removed_ids[f];
      if (ids.empty()) continue;
      const std::string title = (kind == 0 ? "NEW in " : "REMOVED from ") + c.files[f].label;
      const std::string count = " (" + std::to_string(ids.size()) + ")";
      out += markdown ? "\n**" + markdown_escape(title) + "**" + count + "\n\n"
                      : "\n" + title + count + ":\n";
      for (const std::string& id : ids) {
        out += markdown ? "- " + markdown_code(id) + "\n" : "  " + id + "\n";
      }
    }
  }
  return out;
}

namespace {

// The files compared, one row each, so a reader can tell what was built how.
Table files_table(const Comparison& c) {
  Table files;
  files.header = {"file", "path", "commit", "build id", "compiler", "build type", "flags"};
  for (const CompareFile& file : c.files) {
    files.rows.push_back({file.label, file.path, commit_text(file.meta),
                          file.meta.build_id ? file.meta.build_id->substr(0, 12) : "-",
                          file.meta.compiler, file.meta.build_type, file.meta.compiler_flags});
  }
  return files;
}

// The text formats list the NEW and REMOVED cases, or say that there are none.
std::string id_lists_or_none(const Comparison& c, IdListStyle style) {
  const std::string lists = new_and_removed_lists(c, style);
  return lists.empty() ? "\nno NEW or REMOVED cases\n" : lists;
}

std::vector<std::string> labels_of(const Comparison& c) {
  std::vector<std::string> labels;
  for (const CompareFile& file : c.files)
    labels.push_back(file.label);
  return labels;
}

// What the comparison cannot stand for, said before its table as the gate would fail on it: a
// file whose run stopped short, cases missing against BASE, no case in common, instructions that
// were not measured. Empty when there is nothing to say.
std::vector<std::string> work_not_done(const Comparison& c) {
  std::vector<std::string> facts;
  if (c.files[0].meta.counter_backend == results::CounterBackend::kNone)
    facts.push_back(
        "instructions were not measured (counter none): only the other metrics are "
        "compared");
  for (size_t f = 0; f < c.files.size(); ++f) {
    if (std::optional<std::string> why = incomplete_run(c.files[f].meta))
      facts.push_back(c.files[f].label + "'s run " + *why);
  }
  std::set<std::string> new_anywhere;
  for (const std::vector<std::string>& ids : c.new_ids)
    new_anywhere.insert(ids.begin(), ids.end());
  const size_t base_cases = c.rows.size() - new_anywhere.size();
  for (size_t f = 1; f < c.files.size(); ++f) {
    if (!c.removed_ids[f].empty() && c.removed_ids[f].size() == base_cases)
      facts.push_back(c.files[f].label + " has no case in common with BASE: nothing compared");
    else if (!c.removed_ids[f].empty())
      facts.push_back(c.files[f].label + " lacks " + std::to_string(c.removed_ids[f].size()) +
                      " case(s) of BASE (listed below)");
  }
  return facts;
}

std::string facts_text(const Comparison& c, bool markdown) {
  std::string out;
  for (const std::string& fact : work_not_done(c))
    out += markdown ? "- **" + markdown_escape(fact) + "**\n" : "warning: " + fact + "\n";
  return out.empty() ? out : out + "\n";
}

std::string render_table(const Comparison& c) {
  std::string out = "compare: " + std::to_string(c.files.size()) + " files, counter " +
                    counter_text(c.files[0].meta) + "; BASE is " + c.files[0].label + "\n";
  out += render_terminal(files_table(c)) + "\n";
  out += noise_sentence(c) + "\n\n";
  out += facts_text(c, /*markdown=*/false);
  out += render_terminal(comparison_table(c));
  out += id_lists_or_none(c, IdListStyle::kText);
  if (!c.role_rows.empty())
    out += "\nby role (medians per round)\n" +
           render_terminal(role_split_table(labels_of(c), c.role_rows));
  return out + "\n" + summary_line(summarize(c)) + "\n";
}

std::string render_md(const Comparison& c) {
  std::string out = "### moqbench compare (counter " +
                    markdown_escape(counter_text(c.files[0].meta)) + ", BASE " +
                    markdown_escape(c.files[0].label) + ")\n\n";
  out += render_markdown(files_table(c)) + "\n" + markdown_escape(noise_sentence(c)) + "\n\n";
  out += facts_text(c, /*markdown=*/true);
  out += render_markdown(comparison_table(c));
  out += id_lists_or_none(c, IdListStyle::kMarkdown);
  if (!c.role_rows.empty())
    out += "\n**By role** (medians per round)\n\n" +
           render_markdown(role_split_table(labels_of(c), c.role_rows));
  return out + "\n**" + markdown_escape(summary_line(summarize(c))) + "**\n";
}

std::string render_csv_rows(const Comparison& c) {
  Table table;
  table.header = {"id", "status"};
  for (size_t f = 0; f < c.files.size(); ++f) {
    const std::string& label = c.files[f].label;
    table.header.push_back("instructions:" + label);
    if (f > 0) table.header.push_back("change_pct:" + label);
    if (f > 0) table.header.push_back("significant:" + label);
    table.header.push_back("allocations:" + label);
    table.header.push_back("allocations_max:" + label);
    table.header.push_back("failed:" + label);
  }
  for (const char* kind : {"rerun", "build"}) {
    table.header.push_back(std::string(kind) + "_noise_instructions_pct");
    table.header.push_back(std::string(kind) + "_noise_allocations");
  }
  table.header.push_back("notes");
  for (const CompareRow& row : c.rows) {
    std::vector<std::string> cells{row.id, std::string(to_string(row.status))};
    for (size_t f = 0; f < row.cells.size(); ++f) {
      const CompareCell& cell = row.cells[f];
      cells.push_back(csv_cell(cell.instructions));
      if (f > 0) cells.push_back(csv_cell(cell.instructions_change_pct));
      if (f > 0) cells.push_back(!cell.significant ? "" : *cell.significant ? "true" : "false");
      cells.push_back(csv_cell(cell.allocations));
      cells.push_back(csv_cell(cell.allocations_max));
      cells.push_back(!cell.present ? "" : cell.failed ? "true" : "false");
    }
    for (const std::optional<NoiseEstimate>* noise : {&row.rerun_noise, &row.build_noise}) {
      cells.push_back(*noise ? csv_cell((*noise)->instructions_pct) : "");
      cells.push_back(*noise ? std::to_string((*noise)->allocations) : "");
    }
    cells.push_back(join(row.notes, "; "));
    table.rows.push_back(std::move(cells));
  }
  return render_csv(table);
}

std::string render_json(const Comparison& c) {
  Json doc = Json::object();
  doc["schema"] = "moqbench.compare/2";
  doc["counter"] = {{"backend", std::string(results::to_string(c.files[0].meta.counter_backend))},
                    {"event", json_or_null(c.files[0].meta.counter_event)}};
  Json files = Json::array();
  for (const CompareFile& file : c.files) {
    files.push_back({{"label", file.label},
                     {"path", file.path},
                     {"git_commit", json_or_null(file.meta.git_commit)},
                     {"git_dirty", file.meta.git_dirty},
                     {"compiler", file.meta.compiler},
                     {"compiler_flags", file.meta.compiler_flags},
                     {"build_type", file.meta.build_type},
                     {"cpu_model", file.meta.cpu_model},
                     {"executable", json_or_null(file.meta.executable)},
                     {"build_id", json_or_null(file.meta.build_id)}});
  }
  doc["files"] = std::move(files);
  auto pairs = [](const std::vector<std::pair<size_t, size_t>>& list) {
    Json out = Json::array();
    for (const auto& [a, b] : list)
      out.push_back({a, b});
    return out;
  };
  doc["same_build_pairs"] = pairs(c.same_build_pairs);
  doc["cross_build_pairs"] = pairs(c.cross_build_pairs);
  Json cases = Json::array();
  for (const CompareRow& row : c.rows) {
    Json instructions = Json::array(), change = Json::array(), allocations = Json::array(),
         allocations_max = Json::array(), present = Json::array(), failed = Json::array(),
         significant = Json::array(), spread = Json::array();
    for (const CompareCell& cell : row.cells) {
      instructions.push_back(json_or_null(cell.instructions));
      change.push_back(json_or_null(cell.instructions_change_pct));
      allocations.push_back(json_or_null(cell.allocations));
      allocations_max.push_back(json_or_null(cell.allocations_max));
      present.push_back(cell.present);
      failed.push_back(cell.failed);
      significant.push_back(json_or_null(cell.significant));
      spread.push_back(json_or_null(cell.spread_pct));
    }
    Json simulated = Json::object();
    for (size_t i = 0; i < results::kSimMetrics.size(); ++i) {
      if (std::find(c.simulated.begin(), c.simulated.end(), results::kSimMetrics[i]) ==
          c.simulated.end())
        continue;
      Json medians = Json::array();
      for (const CompareCell& cell : row.cells)
        medians.push_back(json_or_null(cell.simulated[i]));
      simulated[std::string(results::metric_name(results::kSimMetrics[i]))] = std::move(medians);
    }
    auto noise = [](const std::optional<NoiseEstimate>& n) -> Json {
      if (!n) return nullptr;
      return {{"instructions_pct", json_or_null(n->instructions_pct)},
              {"allocations", n->allocations}};
    };
    cases.push_back(
        {{"id", row.id},
         {"status", std::string(to_string(row.status))},
         {"verdict", std::string(to_string(row.verdict))},
         {"present", std::move(present)},
         {"failed", std::move(failed)},
         {"instructions", std::move(instructions)},
         {"instructions_change_pct", std::move(change)},
         {"allocations", std::move(allocations)},
         {"allocations_max", std::move(allocations_max)},
         {"significant", std::move(significant)},
         {"spread_pct", std::move(spread)},
         {"simulated", std::move(simulated)},
         {"noise", {{"rerun", noise(row.rerun_noise)}, {"cross_build", noise(row.build_noise)}}},
         {"notes", row.notes}});
  }
  doc["cases"] = std::move(cases);
  auto lists = [&](const std::vector<std::vector<std::string>>& per_file) {
    Json out = Json::array();
    for (size_t f = 1; f < per_file.size(); ++f) {
      out.push_back({{"file", c.files[f].label}, {"ids", per_file[f]}});
    }
    return out;
  };
  doc["new"] = lists(c.new_ids);
  doc["removed"] = lists(c.removed_ids);
  Json roles = Json::array();
  for (const RoleSplitRow& r : c.role_rows) {
    roles.push_back({{"id", r.id},
                     {"role", r.role},
                     {"instructions", json_array_or_nulls(r.instructions)},
                     {"allocations", json_array_or_nulls(r.allocations)}});
  }
  doc["roles"] = std::move(roles);
  const CompareSummary s = summarize(c);
  doc["summary"] = {{"judged", s.judged_label},
                    {"base", s.base_label},
                    {"regressed", s.regressed},
                    {"improved", s.improved},
                    {"within_noise", s.within_noise},
                    {"unchanged", s.unchanged},
                    {"not_compared", s.not_compared},
                    {"ratio_metric", s.ratio_metric},
                    {"geomean_ratio", json_or_null(s.geomean_ratio)},
                    {"ratio_cases", s.ratio_cases},
                    {"line", summary_line(s)}};
  return doc.dump(2) + "\n";
}

}  // namespace

std::string render_comparison(const Comparison& comparison, OutputFormat format) {
  return render_in_format(comparison, format,
                          {render_table, render_md, render_csv_rows, render_json});
}

}  // namespace moq::reports
