// Conversion between the results structs and JSON documents of schema "moqbench.results/2"
// (older versions are read too: kOlderSchemas).
// from_json and parse_results validate first (validate.h), so a converted file always follows
// FORMAT.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "reports/schema/json_text.h"
#include "reports/schema/results.h"
#include "reports/schema/status.h"

namespace moq::results {

Json to_json(const Meta& meta);
Json to_json(const MetricStats& stats);
Json to_json(const CaseResult& c);
Json to_json(const ResultsFile& file);

// Validates doc, then converts it. The error names the path of the first bad field.
Result<ResultsFile> from_json(const Json& doc);

// Parses JSON text strictly (json_text.h: bounded nesting, no duplicate keys; syntax errors carry
// the byte position) and converts it. source names the text in error messages
// ("base.json: cases[2].id: missing").
Result<ResultsFile> parse_results(std::string_view text, std::string_view source);

// The file as text: the document indented, except that each case stays on one line, so files
// diff and grep one case per line.
std::string serialize(const ResultsFile& file);

// serialize() in two steps, so a writer can keep each case's encoded line instead of encoding
// every case again each time it rewrites the file.
std::string serialize_case_line(const CaseResult& c);
std::string serialize_document(const Meta& meta, const std::vector<std::string>& case_lines);

}  // namespace moq::results
