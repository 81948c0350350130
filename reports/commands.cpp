#include "reports/commands.h"

#include "reports/charts.h"
#include "reports/compare.h"
#include "reports/merge.h"
#include "reports/report.h"
#include "reports/schema/results_file.h"

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

}  // namespace

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
  if (!command.overrides_file.empty()) {
    Result<std::vector<GateOverride>> overrides = read_overrides_file(command.overrides_file);
    if (!overrides.ok()) return fail(err, "gate", overrides.error(), kExitBadInput);
    options.overrides = std::move(*overrides);
  }
  Result<GateResult> result = gate((*inputs)[0], (*inputs)[1], options);
  if (!result.ok()) return fail(err, "gate", result.error(), kExitBadInput);
  const int written = write_out(out, err, "gate", render_gate(*result, command.format));
  if (written != kExitOk) return written;
  return result->exit_code();
}

int run_report(const ReportCommand& command, std::ostream& out, std::ostream& err) {
  Result<std::vector<InputFile>> inputs = load_inputs(command.files);
  if (!inputs.ok()) return fail(err, "report", inputs.error(), kExitBadInput);
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
    return write_out(out, err, "report", *md);
  }
  return kExitOk;
}

int run_merge(const MergeCommand& command, std::ostream& /*out*/, std::ostream& err) {
  Result<std::vector<InputFile>> inputs = load_inputs(command.files);
  if (!inputs.ok()) return fail(err, "merge", inputs.error(), kExitBadInput);
  Result<Merge> merge = merge_shards(*inputs);
  if (!merge.ok()) return fail(err, "merge", merge.error(), kExitBadInput);
  if (Status st = results::write_results_file(command.out, merge->merged); !st.ok())
    return fail(err, "merge", st.error(), kExitOutputError);
  err << "moqbench merge: " << describe(*merge) << "moqbench merge: results written to "
      << command.out << "\n";
  return merge->complete() ? kExitOk : kExitRegressed;
}

}  // namespace moq::reports
