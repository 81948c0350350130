#include "reports/output_format.h"

#include <string>

namespace moq::reports {

Result<OutputFormat> parse_output_format(std::string_view text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "md") return OutputFormat::kMarkdown;
  if (text == "csv") return OutputFormat::kCsv;
  if (text == "json") return OutputFormat::kJson;
  return Error{"unknown output format \"" + std::string(text) +
               "\"; expected table, md, csv or json"};
}

}  // namespace moq::reports
