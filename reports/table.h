// A table of text cells and its three text renderings (aligned terminal columns, GitHub
// Markdown, CSV), plus the number formats the reports share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace moq::reports {

enum class Align { kLeft, kRight };

struct Table {
  std::vector<std::string> header;
  std::vector<Align> align;  // one per column; missing entries are kLeft
  std::vector<std::vector<std::string>> rows;
};

// Columns padded to their widest cell (counted in UTF-8 code points), two spaces apart, header
// underlined with '-'. No trailing spaces.
std::string render_terminal(const Table& table);
// A GitHub Markdown table; cells are escaped (markdown_escape), right-aligned columns use "---:".
std::string render_markdown(const Table& table);
// RFC 4180 CSV: cells with ',', '"' or a line break are quoted, '"' doubled; lines end "\n".
std::string render_csv(const Table& table);
// An HTML <table> (cells escaped; right-aligned columns get class "num"). row_classes: a class
// for each row ("" or missing: none), e.g. to highlight the regressed cases of a comparison.
std::string render_html_table(const Table& table, const std::vector<std::string>& row_classes = {});

// 1234567 -> "1,234,567".
std::string format_count(uint64_t value);
// 2.0 -> "+2.00%", -0.5 -> "-0.50%", 0 -> "+0.00%" (rounded to 0.01 first).
std::string format_pct(double pct);
// (head - base) / base * 100; nullopt when base is 0 and head is not (no finite change).
std::optional<double> percent_change(uint64_t base, uint64_t head);
// A double for machine formats: shortest text that reads back to the same value.
std::string format_double(double value);
// A value for CSV: the plain number (a double as format_double writes it), or an empty cell when
// there is none.
std::string csv_cell(const std::optional<uint64_t>& value);
std::string csv_cell(const std::optional<double>& value);
// The parts with `separator` between each two ("a; b; c"), e.g. a case's notes in one cell.
std::string join(const std::vector<std::string>& parts, std::string_view separator);

std::string html_escape(std::string_view text);
// Text from results files (ids, labels, reasons) for Markdown, which a PR comment renders with raw
// HTML and Markdown syntax live: '<' and '&' become entities, so no tag or entity reaches the
// page; \ ` * [ ] | ~ are backslash-escaped, and _ too where it could start or end emphasis (not
// between two letters or digits, so fetch_frames stays readable); line breaks become spaces.
// '>' stays: without a '<' it opens no tag ("2 -> 3" keeps reading as it should).
std::string markdown_escape(std::string_view text);
// The text as a Markdown code span (shown literally): fenced by one backtick more than its
// longest run of backticks, padded with a space where it starts or ends with one.
std::string markdown_code(std::string_view text);
size_t display_width(std::string_view utf8);

}  // namespace moq::reports
