// `sweep --filter REGEX --exclude REGEX`: choosing a sweep's cases by id. A case is kept when its
// id contains a match of the filter (ECMAScript syntax, as grep -E finds a line) and none of the
// exclusion. The choice is part of the sweep's plan: the results' meta.plan lists the kept cases
// and its selection carries the options, so a gate can tell a case left out on purpose.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/runner/scenario.h"
#include "model/base/result.h"

namespace moq::cli {

struct CaseFilter {
  std::optional<std::string> filter;   // --filter; nullopt: every case
  std::optional<std::string> exclude;  // --exclude; nullopt: none
};

// The cases the filter keeps, in sweep order. Errors (bad input): a pattern that is not a regular
// expression, named with the option; a filter that keeps none of the cases.
Result<std::vector<harness::CaseSpec>> filter_cases(const std::vector<harness::CaseSpec>& cases,
                                                    const CaseFilter& filter);

}  // namespace moq::cli
