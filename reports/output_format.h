// The output formats the compare and gate reports share.
#pragma once

#include <string_view>

#include "model/base/result.h"

namespace moq::reports {

enum class OutputFormat {
  kTable,     // "table": aligned columns for a terminal (the default)
  kMarkdown,  // "md": GitHub Markdown, e.g. for a PR comment
  kCsv,       // "csv": one row per case, raw numbers
  kJson,      // "json": everything, machine-readable
};

// "table", "md", "csv" or "json"; an error names the bad value and the accepted ones.
Result<OutputFormat> parse_output_format(std::string_view text);

}  // namespace moq::reports
