#include "reports/commands.h"

#include "reports/charts.h"
#include "reports/compare.h"
#include "reports/merge.h"
#include "reports/report.h"
#include "reports/schema/results_file.h"
#include "reports/table.h"

namespace moq::reports {
namespace {

int fail(std::ostream& err, std::string_view command, const Error& error, int code) {
  err << "moqbench " << command << ": " << error.message << "\n";
  return code;
}

int write_out(std::ostream& out, std::ostream& err, std::string_view command,
              const std::string& text) {
  out << text;
  out.flush();
  if (!out) return fail(err, command, Error{"cannot write the output"}, kExitOutputError);
  return kExitOk;
}

// "SCENARIO/AXIS=O(...)".
Result<std::pair<FitRequest, Growth>> parse_growth_bound(const std::string& text,
                                                         FitMetric metric) {
  const size_t eq = text.find('=');
  const size_t slash = text.find('/');
  if (eq == std::string::npos || slash == std::string::npos || slash > eq || slash == 0 ||
      slash + 1 == eq)
    return Error{"--growth '" + text + "': expected SCENARIO/AXIS=O(...), e.g. " +
                 "prefixes_teardown/follow=O(n)"};
  Result<Growth> growth = parse_growth(text.substr(eq + 1));
  if (!growth.ok()) return Error{"--growth '" + text + "': " + growth.error().message};
  FitRequest request;
  request.metric = metric;
  request.scenario = text.substr(0, slash);
  request.axis = text.substr(slash + 1, eq - slash - 1);
  return std::pair{request, *growth};
}

}  // namespace

int run_fit(const FitCommand& command, std::ostream& out, std::ostream& err) {
  Result<std::vector<InputFile>> inputs = load_inputs({command.file});
  if (!inputs.ok()) return fail(err, "fit", inputs.error(), kExitBadInput);
  Result<std::vector<GrowthFit>> fits = fit_growth((*inputs)[0].results, command.request);
  if (!fits.ok()) return fail(err, "fit", fits.error(), kExitBadInput);
  const int written =
      write_out(out, err, "fit", render_fits(*fits, command.request, command.max, command.format));
  if (written != kExitOk) return written;
  for (const GrowthFit& f : *fits)
    if (f.exceeds(command.max)) return kExitRegressed;
  return kExitOk;
}

int run_compare(const CompareCommand& command, std::ostream& out, std::ostream& err) {
  Result<std::vector<InputFile>> inputs = load_inputs(command.files);
  if (!inputs.ok()) return fail(err, "compare", inputs.error(), kExitBadInput);
  Result<Comparison> comparison = compare(*inputs);
  if (!comparison.ok()) return fail(err, "compare", comparison.error(), kExitBadInput);
  return write_out(out, err, "compare", render_comparison(*comparison, command.format));
}

int run_gate(const GateCommand& command, std::ostream& out, std::ostream& err) {
  Result<std::vector<InputFile>> inputs = load_inputs({command.base, command.head});
  if (!inputs.ok()) return fail(err, "gate", inputs.error(), kExitBadInput);
  GateOptions options;
  options.limits.max_instructions_regression = command.max_instructions_regression;
  options.limits.max_allocations_increase = command.max_allocations_increase;
  options.fail_on_removed = command.fail_on_removed;
  options.allow_removed = command.allow_removed;
  if (Status st = parse_gate_metrics(command.metrics, options); !st.ok())
    return fail(err, "gate", st.error(), kExitBadInput);
  if (!command.overrides_file.empty()) {
    Result<std::vector<GateOverride>> overrides = read_overrides_file(command.overrides_file);
    if (!overrides.ok()) return fail(err, "gate", overrides.error(), kExitBadInput);
    options.overrides = std::move(*overrides);
  }
  std::vector<std::pair<FitRequest, Growth>> bounds;
  for (const std::string& text : command.growth_bounds) {
    Result<std::pair<FitRequest, Growth>> bound = parse_growth_bound(text, command.growth_metric);
    if (!bound.ok()) return fail(err, "gate", bound.error(), kExitBadInput);
    bounds.push_back(*bound);
  }
  Result<GateResult> result = gate((*inputs)[0], (*inputs)[1], options);
  if (!result.ok()) return fail(err, "gate", result.error(), kExitBadInput);
  int written = write_out(out, err, "gate", render_gate(*result, command.format));
  if (written != kExitOk) return written;
  // Growth bounds, on HEAD: a series that grows faster than declared fails the gate.
  bool grew = false;
  for (const auto& [request, bound] : bounds) {
    Result<std::vector<GrowthFit>> fits = fit_growth((*inputs)[1].results, request);
    if (!fits.ok()) return fail(err, "gate", fits.error(), kExitBadInput);
    const std::string title = "growth of " + request.scenario + " over " + request.axis +
                              " (bound " + std::string(to_string(bound)) + ")";
    // JSON output stays one document: the gate's; the growth verdicts go to stderr below.
    if (command.format != OutputFormat::kJson) {
      const bool md = command.format == OutputFormat::kMarkdown;
      written = write_out(out, err, "gate",
                          (md ? "\n**" + markdown_escape(title) + "**\n\n" : "\n" + title + "\n") +
                              render_fits(*fits, request, bound, command.format));
      if (written != kExitOk) return written;
    }
    for (const GrowthFit& f : *fits) {
      if (!f.exceeds(bound)) continue;
      grew = true;
      err << "moqbench gate: " << f.series << " grows " << to_string(f.growth) << ", beyond "
          << to_string(bound) << "\n";
    }
  }
  return grew ? kExitRegressed : result->exit_code();
}

int run_report(const ReportCommand& command, std::ostream& out, std::ostream& err) {
  Result<std::vector<InputFile>> inputs = load_inputs(command.files);
  if (!inputs.ok()) return fail(err, "report", inputs.error(), kExitBadInput);
  // A path that cannot be written (its directory missing, a directory) is bad input, told before
  // the page is rendered.
  if (!command.html_out.empty()) {
    if (Result<results::OutputTarget> target = results::resolve_output(command.html_out); !target)
      return fail(err, "report", Error{"--html " + target.error().message}, kExitBadInput);
  }
  if (!command.html_out.empty()) {
    Result<std::string> html = render_html_report(*inputs);
    if (!html.ok()) return fail(err, "report", html.error(), kExitBadInput);
    if (Status status = results::write_file_atomically(command.html_out, *html); !status.ok()) {
      return fail(err, "report", status.error(), kExitOutputError);
    }
    err << "moqbench report: wrote " << command.html_out << " (" << build_charts(*inputs).size()
        << " charts)\n";
  }
  if (command.markdown || command.html_out.empty()) {
    Result<std::string> md = render_report_markdown(*inputs);
    if (!md.ok()) return fail(err, "report", md.error(), kExitBadInput);
    // With --html - the page owns stdout: the Markdown goes to stderr.
    return write_out(command.html_out == "-" ? err : out, err, "report", *md);
  }
  return kExitOk;
}

int run_merge(const MergeCommand& command, std::ostream& /*out*/, std::ostream& err) {
  Result<std::vector<InputFile>> inputs = load_inputs(command.files);
  if (!inputs.ok()) return fail(err, "merge", inputs.error(), kExitBadInput);
  if (Result<results::OutputTarget> target = results::resolve_output(command.out); !target)
    return fail(err, "merge", Error{"--out " + target.error().message}, kExitBadInput);
  Result<Merge> merge = merge_shards(*inputs);
  if (!merge.ok()) return fail(err, "merge", merge.error(), kExitBadInput);
  if (Status st = results::write_results_file(command.out, merge->merged); !st.ok())
    return fail(err, "merge", st.error(), kExitOutputError);
  err << "moqbench merge: " << describe(*merge) << "moqbench merge: results written to "
      << command.out << "\n";
  return merge->complete() ? kExitOk : kExitRegressed;
}

}  // namespace moq::reports
