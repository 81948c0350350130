// The output formats the compare and gate reports share.
#pragma once

#include <string>
#include <string_view>

#include "reports/errors.h"

namespace moq::reports {

enum class OutputFormat {
  kTable,     // "table": aligned columns for a terminal (the default)
  kMarkdown,  // "md": GitHub Markdown, e.g. for a PR comment
  kCsv,       // "csv": one row per case, raw numbers
  kJson,      // "json": everything, machine-readable
};

// "table", "md", "csv" or "json"; an error names the bad value and the accepted ones.
Result<OutputFormat> parse_output_format(std::string_view text);

// A report's rendering in each output format.
template <class Report>
struct FormatRenderers {
  std::string (*table)(const Report&);
  std::string (*markdown)(const Report&);
  std::string (*csv)(const Report&);
  std::string (*json)(const Report&);
};

// The report in `format`: one place decides which rendering each format gets, for every report.
template <class Report>
std::string render_in_format(const Report& report, OutputFormat format,
                             const FormatRenderers<Report>& renderers) {
  switch (format) {
    case OutputFormat::kTable:
      return renderers.table(report);
    case OutputFormat::kMarkdown:
      return renderers.markdown(report);
    case OutputFormat::kCsv:
      return renderers.csv(report);
    case OutputFormat::kJson:
      return renderers.json(report);
  }
  return renderers.table(report);  // not reached: every format has its case above
}

}  // namespace moq::reports
