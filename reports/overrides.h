// Per-case gate limits from a file, so that tolerances live as data in the repository. Two
// syntaxes, told apart by the first non-blank character ('{' means JSON):
//
//   JSON: {"overrides": [{"case": "model/fanout/*", "max_instructions_regression": 5.0,
//                         "max_allocations_increase": 2}, ...]}
//   text: one rule a line, '#' starts a comment, blank lines ignored:
//         model/fanout/*  max_instructions_regression=5.0  max_allocations_increase=2
//
// Each rule names a case by exact id or by a glob ('*' any run of characters, '/' included;
// '?' one character) and sets one or both limits; an unset limit keeps the gate's default. A
// rule that is an exact id (no '*' or '?') wins over globs; among globs the first matching rule in
// file order wins.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/errors.h"

namespace moq::reports {

struct GateOverride {
  std::string pattern;                                // exact id or glob
  std::optional<double> max_instructions_regression;  // percent, >= 0
  std::optional<uint64_t> max_allocations_increase;   // absolute
  std::string origin;  // "overrides.txt:3" or "overrides.json: overrides[2]", for messages
};

// Parses either syntax; source names the text in errors ("gate.txt:4: ...").
Result<std::vector<GateOverride>> parse_overrides(std::string_view text, std::string_view source);
Result<std::vector<GateOverride>> read_overrides_file(const std::string& path);

// '*' matches any run of characters (including '/'), '?' exactly one; everything else itself.
bool glob_match(std::string_view pattern, std::string_view text);
bool is_glob(std::string_view pattern);

// The rule that applies to id (see the precedence above), or nullptr.
const GateOverride* find_override(const std::vector<GateOverride>& overrides, std::string_view id);

}  // namespace moq::reports
