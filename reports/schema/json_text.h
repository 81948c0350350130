// Reading JSON text strictly, and quoting JSON values in error messages at a bounded cost.
//
// Files come from anywhere (a CI artifact, a hand edit, an attacker's pull request), so reading
// one must neither crash nor cost memory out of proportion to what it reports:
//   - nesting is bounded (kMaxJsonDepth): a recursive walk over a value (serializing it, comparing
//     it, destroying it) could otherwise exhaust the stack on "[[[[...";
//   - a key given twice in one object is an error naming its path, where JSON parsers silently
//     keep one of the values;
//   - an error quotes at most a short excerpt of the offending value, built without serializing
//     the whole of it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "reports/schema/status.h"

namespace moq::results {

// Keeps object keys in written order, so files read the way FORMAT.md lists the fields.
using Json = nlohmann::ordered_json;

// Arrays and objects nested deeper than this are refused. A results file nests 6 levels
// (document, cases, a case, metrics, a stats object, its samples); overrides files 3.
inline constexpr size_t kMaxJsonDepth = 64;

// Parses text. Errors start with `source` and name what was wrong: a syntax error with its byte
// position, "cases[3].metrics.instructions.median: duplicate key", or "meta.x: nested deeper than
// 64 levels" (the member holding the too-deep value).
Result<Json> parse_json_text(std::string_view text, std::string_view source);

// The value as compact JSON text, cut to at most max_chars characters (ending in "..." when cut,
// and never inside a UTF-8 sequence). Costs O(max_chars), whatever the size of the value.
std::string json_excerpt(const Json& value, size_t max_chars = 60);

}  // namespace moq::results
