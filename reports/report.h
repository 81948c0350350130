// report: one self-contained HTML page (inline CSS, inline SVG charts, and one inline script that
// filters the case tables: nothing loaded, no network; without script only the filter is missing)
// and a Markdown summary, from one or more results files with the same counter backend/event.
#pragma once

#include <string>
#include <vector>

#include "reports/errors.h"
#include "reports/inputs.h"

namespace moq::reports {

// The page: the summary of the comparison with its regressed cases (two or more files; see
// report_summary.h), the files' meta, the comparison against the first file (when there are two or
// more), failed cases, and the charts of charts.h grouped by bench/scenario/version.
Result<std::string> render_html_report(const std::vector<InputFile>& inputs);

// The same content as Markdown: files, comparison, failed cases, and each chart's data as a
// table (one row per x value, one column per series).
Result<std::string> render_report_markdown(const std::vector<InputFile>& inputs);

}  // namespace moq::reports
