#include "reports/overrides.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "reports/limits.h"
#include "reports/schema/json_io.h"

namespace moq::reports {
namespace {

using results::Json;

Status check_pattern(const std::string& pattern, const std::string& where) {
  if (pattern.empty()) return Error{where + ": empty case pattern"};
  return {};
}

// A rule without a limit would change nothing; both syntaxes refuse it as a mistake rather than
// ignore it.
Status check_sets_a_limit(const GateOverride& rule, const std::string& where) {
  if (!rule.max_instructions_regression && !rule.max_allocations_increase) {
    return Error{where + ": rule for \"" + rule.pattern + "\" sets no limit"};
  }
  return {};
}

Result<std::vector<GateOverride>> parse_text(std::string_view text, std::string_view source) {
  std::vector<GateOverride> rules;
  std::istringstream lines{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::string where = std::string(source) + ":" + std::to_string(number);
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    GateOverride rule;
    rule.pattern = word;
    rule.origin = where;
    while (words >> word) {
      const size_t eq = word.find('=');
      const std::string key = word.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
      if (eq != std::string::npos && key == "max_instructions_regression") {
        Result<double> pct = parse_instructions_limit(value, key);
        if (!pct.ok()) return Error{where + ": " + pct.error().message};
        rule.max_instructions_regression = *pct;
      } else if (eq != std::string::npos && key == "max_allocations_increase") {
        Result<uint64_t> count = parse_allocations_limit(value, key);
        if (!count.ok()) return Error{where + ": " + count.error().message};
        rule.max_allocations_increase = *count;
      } else {
        return Error{where + ": unknown setting \"" + word +
                     "\"; expected max_instructions_regression=<percent> or "
                     "max_allocations_increase=<count>"};
      }
    }
    if (Status status = check_sets_a_limit(rule, where); !status.ok()) return status.error();
    rules.push_back(std::move(rule));
  }
  return rules;
}

Result<std::vector<GateOverride>> parse_json(std::string_view text, std::string_view source) {
  Result<Json> parsed = results::parse_json_text(text, source);
  if (!parsed.ok()) return parsed.error();
  const Json& doc = *parsed;
  const std::string src(source);
  if (!doc.is_object() || !doc.contains("overrides") || doc.size() != 1 ||
      !doc["overrides"].is_array()) {
    return Error{src + ": expected {\"overrides\": [...]} and nothing else"};
  }
  std::vector<GateOverride> rules;
  const Json& list = doc["overrides"];
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string where = src + ": overrides[" + std::to_string(i) + "]";
    const Json& item = list[i];
    if (!item.is_object()) return Error{where + ": expected an object"};
    GateOverride rule;
    rule.origin = where;
    for (const auto& field : item.items()) {
      const Json& value = field.value();
      if (field.key() == "case") {
        if (!value.is_string()) return Error{where + ".case: expected a string"};
        rule.pattern = value.get<std::string>();
      } else if (field.key() == "max_instructions_regression") {
        if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
          return Error{where + ".max_instructions_regression: expected a percentage >= 0, got " +
                       value.dump()};
        }
        rule.max_instructions_regression = value.get<double>();
      } else if (field.key() == "max_allocations_increase") {
        if (!value.is_number_integer() ||
            (!value.is_number_unsigned() && value.get<int64_t>() < 0)) {
          return Error{where + ".max_allocations_increase: expected a whole number >= 0, got " +
                       results::json_excerpt(value)};
        }
        rule.max_allocations_increase = value.get<uint64_t>();
      } else {
        return Error{where + "." + field.key() + ": unknown field"};
      }
    }
    if (!item.contains("case")) return Error{where + ".case: missing"};
    if (Status status = check_pattern(rule.pattern, where + ".case"); !status.ok()) {
      return status.error();
    }
    if (Status status = check_sets_a_limit(rule, where); !status.ok()) return status.error();
    rules.push_back(std::move(rule));
  }
  return rules;
}

}  // namespace

bool is_glob(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative matcher with one backtrack point (the last '*'): linear in practice, no recursion.
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*')
    ++p;
  return p == pattern.size();
}

const GateOverride* find_override(const std::vector<GateOverride>& overrides, std::string_view id) {
  for (const GateOverride& rule : overrides) {
    if (!is_glob(rule.pattern) && rule.pattern == id) return &rule;
  }
  for (const GateOverride& rule : overrides) {
    if (is_glob(rule.pattern) && glob_match(rule.pattern, id)) return &rule;
  }
  return nullptr;
}

Result<std::vector<GateOverride>> parse_overrides(std::string_view text, std::string_view source) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return parse_json(text, source);
  return parse_text(text, source);
}

Result<std::vector<GateOverride>> read_overrides_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read overrides file " + path};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_overrides(text.str(), path);
}

}  // namespace moq::reports
