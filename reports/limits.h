// The gate's two limits read from text (a command-line option or a line of an overrides file),
// strictly and in one place, so that every way of giving a limit refuses the same bad values: a
// negative, fractional or out-of-range count must not wrap around to a huge limit that silently
// turns the allocation gate off.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "reports/errors.h"

namespace moq::reports {

// A percentage: a finite decimal number >= 0 ("1", "2.5", "1e-1"). The Error reads
// "<name> must be a percentage >= 0, got \"<text>\"".
Result<double> parse_instructions_limit(std::string_view text, std::string_view name);

// A count: a whole number from 0 to 18446744073709551615 (2^64 - 1), digits only. The Error reads
// "<name> must be a whole number from 0 to 18446744073709551615, got \"<text>\"".
Result<uint64_t> parse_allocations_limit(std::string_view text, std::string_view name);

}  // namespace moq::reports
