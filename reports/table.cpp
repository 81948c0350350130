#include "reports/table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace moq::reports {
namespace {

Align align_of(const Table& table, size_t column) {
  return column < table.align.size() ? table.align[column] : Align::kLeft;
}

void pad(std::string& out, size_t n) {
  out.append(n, ' ');
}

}  // namespace

size_t display_width(std::string_view utf8) {
  // Counts code points: every byte that is not a UTF-8 continuation byte.
  return static_cast<size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string render_terminal(const Table& table) {
  const size_t columns = table.header.size();
  std::vector<size_t> width(columns, 0);
  for (size_t c = 0; c < columns; ++c)
    width[c] = display_width(table.header[c]);
  for (const auto& row : table.rows) {
    for (size_t c = 0; c < columns && c < row.size(); ++c) {
      width[c] = std::max(width[c], display_width(row[c]));
    }
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < columns; ++c) {
      const std::string empty;
      const std::string& cell = c < cells.size() ? cells[c] : empty;
      const size_t gap = width[c] - display_width(cell);
      if (c > 0) out += "  ";
      if (align_of(table, c) == Align::kRight) pad(out, gap);
      out += cell;
      if (align_of(table, c) == Align::kLeft && c + 1 < columns) pad(out, gap);
    }
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    return out + "\n";
  };
  std::string out = line(table.header);
  std::vector<std::string> rule;
  for (size_t c = 0; c < columns; ++c)
    rule.push_back(std::string(width[c], '-'));
  out += line(rule);
  for (const auto& row : table.rows)
    out += line(row);
  return out;
}

std::string render_markdown(const Table& table) {
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (size_t c = 0; c < table.header.size(); ++c) {
      out += " " + (c < cells.size() ? markdown_escape(cells[c]) : std::string()) + " |";
    }
    return out + "\n";
  };
  std::string out = line(table.header);
  out += "|";
  for (size_t c = 0; c < table.header.size(); ++c) {
    out += align_of(table, c) == Align::kRight ? " ---: |" : " --- |";
  }
  out += "\n";
  for (const auto& row : table.rows)
    out += line(row);
  return out;
}

std::string render_csv(const Table& table) {
  auto cell_text = [](const std::string& cell) {
    if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
    std::string out = "\"";
    for (char c : cell) {
      if (c == '"') out += '"';
      out += c;
    }
    return out + "\"";
  };
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < table.header.size(); ++c) {
      if (c > 0) out += ',';
      if (c < cells.size()) out += cell_text(cells[c]);
    }
    return out + "\n";
  };
  std::string out = line(table.header);
  for (const auto& row : table.rows)
    out += line(row);
  return out;
}

std::string render_html_table(const Table& table, const std::vector<std::string>& row_classes) {
  auto cell = [&](const std::string& tag, size_t c, const std::string& text) {
    const std::string cls = align_of(table, c) == Align::kRight ? " class=\"num\"" : "";
    return "<" + tag + cls + ">" + html_escape(text) + "</" + tag + ">";
  };
  std::string out = "<table>\n<thead><tr>";
  for (size_t c = 0; c < table.header.size(); ++c)
    out += cell("th", c, table.header[c]);
  out += "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < table.rows.size(); ++r) {
    const std::vector<std::string>& row = table.rows[r];
    const bool has_class = r < row_classes.size() && !row_classes[r].empty();
    out += has_class ? "<tr class=\"" + html_escape(row_classes[r]) + "\">" : "<tr>";
    for (size_t c = 0; c < table.header.size(); ++c) {
      out += cell("td", c, c < row.size() ? row[c] : std::string());
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

std::string format_count(uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_pct(double pct) {
  char text[64];
  // Round first so that -0.001 prints as +0.00%, not -0.00%.
  double rounded = std::round(pct * 100.0) / 100.0;
  if (rounded == 0) rounded = 0;
  std::snprintf(text, sizeof text, "%+.2f%%", rounded);
  return text;
}

std::optional<double> percent_change(uint64_t base, uint64_t head) {
  if (base == 0) {
    if (head == 0) return 0.0;
    return std::nullopt;
  }
  // Multiply before dividing: exact for round cases (10000 -> 10100 is exactly +1%), so a change
  // equal to a limit is not pushed over it by rounding.
  return (static_cast<double>(head) - static_cast<double>(base)) * 100.0 /
         static_cast<double>(base);
}

std::string format_double(double value) {
  char text[64];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

std::string csv_cell(const std::optional<uint64_t>& value) {
  return value ? std::to_string(*value) : "";
}

std::string csv_cell(const std::optional<double>& value) {
  return value ? format_double(*value) : "";
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

namespace {

bool is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

std::string markdown_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '\\':
      case '`':
      case '*':
      case '[':
      case ']':
      case '|':
      case '~':
        out += '\\';
        out += c;
        break;
      case '_': {
        // GitHub's Markdown takes no emphasis from an underscore inside a word.
        const bool inside_word =
            i > 0 && i + 1 < text.size() && is_alnum(text[i - 1]) && is_alnum(text[i + 1]);
        if (!inside_word) out += '\\';
        out += c;
        break;
      }
      case '\n':
      case '\r':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  size_t longest = 0, run = 0;
  std::string body;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    body += c == '\n' || c == '\r' ? ' ' : c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace moq::reports
