// Strict checking of a JSON document against FORMAT.md: every documented field present with its
// documented type and range, no unknown field, stats consistent with their samples, ids consistent
// with bench/scenario/version/params. Errors name the path of the bad field, e.g.
// "cases[3].metrics.allocations.samples[2]: expected a non-negative integer, got -1".
#pragma once

#include <string>
#include <string_view>

#include "reports/schema/json_io.h"
#include "reports/schema/results.h"
#include "reports/schema/status.h"

namespace moq::results {

// A whole results document. An unsupported "schema" value is reported before anything else.
Status validate(const Json& doc);

// One case record, as it would sit at `path` in a document whose meta names `backend`
// (instructions must be null exactly when the backend is "none") of schema `schema` (older
// schemas' stats objects have no spread figures). Does not check id uniqueness.
Status validate_case(const Json& case_json, CounterBackend backend,
                     const std::string& path = "case", std::string_view schema = kSchema);

// The meta object alone.
Status validate_meta(const Json& meta_json, const std::string& path = "meta");

}  // namespace moq::results
