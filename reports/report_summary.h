// The parts of the HTML report that make it quick to read: the summary it opens with (the
// comparison's summary line and its regressed cases, highlighted) and the filter on case ids.
#pragma once

#include <string>

#include "reports/compare.h"

namespace moq::reports {

// A <section id="summary">: the summary line of compare_summary.h and the regressed cases with
// their change, each an <li class="regressed">; "no case regressed" when none did.
std::string html_summary_section(const Comparison& comparison);

// An inline <script> (no network, nothing loaded) that adds a text box above the first case
// table (an element of class "cases") and shows only the rows whose "case" cell contains every
// word typed, ignoring case. The page opened as "report.html#filter=WORDS" starts filtered, so a
// link can carry a filter. Without script the page shows every row, and its charts are SVG.
std::string case_filter_script();

}  // namespace moq::reports
