// The marked blocks of a README (figures.h): finding them, reading and replacing what lies
// between a block's two marker lines.
#include <string>
#include <string_view>
#include <vector>

#include "reports/figures.h"

namespace moq::reports {
namespace {

constexpr std::string_view kPrefix = "<!-- figures:";

std::string begin_marker(std::string_view name) {
  return std::string(kPrefix) + std::string(name) + " begin -->";
}
std::string end_marker(std::string_view name) {
  return std::string(kPrefix) + std::string(name) + " end -->";
}

// Where each line equal to `marker` starts (a marker is a whole line).
std::vector<size_t> marker_lines(const std::string& text, const std::string& marker) {
  std::vector<size_t> at;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    if (std::string_view(text).substr(pos, end - pos) == marker) at.push_back(pos);
    pos = end + 1;
  }
  return at;
}

// The content's span [first, last): from the line after the begin marker to the end marker.
Result<std::pair<size_t, size_t>> block_span(const std::string& text, std::string_view name) {
  const std::vector<size_t> begins = marker_lines(text, begin_marker(name));
  const std::vector<size_t> ends = marker_lines(text, end_marker(name));
  const std::string what = "block '" + std::string(name) + "'";
  if (begins.empty()) return Error{what + ": no line '" + begin_marker(name) + "'"};
  if (ends.empty()) return Error{what + ": no line '" + end_marker(name) + "'"};
  if (begins.size() > 1 || ends.size() > 1) return Error{what + ": marked more than once"};
  const size_t first = text.find('\n', begins[0]);
  if (ends[0] < begins[0] || first == std::string::npos)
    return Error{what + ": its end marker comes before its begin marker"};
  return std::pair{first + 1, ends[0]};
}

}  // namespace

Result<std::string> figure_block_content(const std::string& text, std::string_view name) {
  Result<std::pair<size_t, size_t>> span = block_span(text, name);
  if (!span.ok()) return span.error();
  return text.substr(span->first, span->second - span->first);
}

Result<std::string> replace_figure_block(const std::string& text, std::string_view name,
                                         const std::string& content) {
  Result<std::pair<size_t, size_t>> span = block_span(text, name);
  if (!span.ok()) return span.error();
  return text.substr(0, span->first) + content + text.substr(span->second);
}

std::vector<std::string> marked_figure_blocks(const std::string& text) {
  std::vector<std::string> names;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line = std::string_view(text).substr(pos, end - pos);
    if (line.substr(0, kPrefix.size()) == kPrefix) {
      line.remove_prefix(kPrefix.size());
      const size_t space = line.find(' ');
      if (space != std::string_view::npos &&
          (line.substr(space) == " begin -->" || line.substr(space) == " end -->"))
        names.emplace_back(line.substr(0, space));
      else
        names.emplace_back(line);  // malformed: reported as a block no spec names
    }
    pos = end + 1;
  }
  return names;
}

}  // namespace moq::reports
