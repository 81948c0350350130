// The report subcommands behind `moqbench compare`, `gate`, `report` and `merge`: each
// takes parsed options, writes its report to `out` and messages to `err`, and returns the exit
// code, so the CLI layer only parses arguments.
//
// Exit codes: 0 success (gate: nothing regressed); 1 the output could not be written; 2 bad input
// (unreadable or invalid results file, unknown schema, mismatched counter backends or events,
// bad limits or overrides file; merge: shards that do not belong together); 3 gate: something
// regressed, or a series grew faster than its bound; fit: a series grew faster than --max;
// merge: the merged file was written but the sweep is incomplete (cases missing or duplicated).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "reports/fit.h"
#include "reports/gate.h"
#include "reports/output_format.h"

namespace moq::reports {

struct CompareCommand {
  std::vector<std::string> files;  // BASE, HEAD, more...: at least two
  OutputFormat format = OutputFormat::kTable;
};
int run_compare(const CompareCommand& command, std::ostream& out, std::ostream& err);

struct GateCommand {
  std::string base;
  std::string head;
  OutputFormat format = OutputFormat::kTable;
  double max_instructions_regression = 1.0;  // percent
  uint64_t max_allocations_increase = 0;     // absolute
  std::string overrides_file;                // empty: none (overrides.h for the syntax)
  bool fail_on_removed = false;  // a no-op: removed cases fail unless allow_removed
  bool allow_removed = false;
  std::string metrics = "instructions,allocations";  // --metric
  // Growth bounds checked on HEAD ("SCENARIO/AXIS=O(n)", fit.h): a series that grows faster
  // fails the gate.
  std::vector<std::string> growth_bounds;
  FitMetric growth_metric = FitMetric::kInstructions;
};
int run_gate(const GateCommand& command, std::ostream& out, std::ostream& err);

struct FitCommand {
  std::string file;
  FitRequest request;
  std::optional<Growth> max;  // exit 3 when a series grows faster
  OutputFormat format = OutputFormat::kTable;
};
int run_fit(const FitCommand& command, std::ostream& out, std::ostream& err);

struct ReportCommand {
  std::vector<std::string> files;  // one or more
  std::string html_out;            // write the HTML page here (atomically); empty: no page
  bool markdown = false;           // print the Markdown summary to out (also when no html_out)
};
int run_report(const ReportCommand& command, std::ostream& out, std::ostream& err);

struct MergeCommand {
  std::vector<std::string> files;  // the shards' results files, in any order
  std::string out;                 // the merged results file (written atomically)
};
int run_merge(const MergeCommand& command, std::ostream& out, std::ostream& err);

}  // namespace moq::reports
