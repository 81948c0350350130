#include "reports/limits.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace moq::reports {

Result<double> parse_instructions_limit(std::string_view text, std::string_view name) {
  double value = 0;
  // from_chars takes no sign, space or hex prefix of its own accord, and reports out-of-range
  // ("1e999") instead of giving infinity.
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value) || value < 0) {
    return Error{std::string(name) + " must be a percentage >= 0, got \"" + std::string(text) +
                 "\""};
  }
  return value;
}

Result<uint64_t> parse_allocations_limit(std::string_view text, std::string_view name) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  // from_chars for an unsigned type refuses a '-' (no wrap-around) and values above 2^64 - 1.
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Error{std::string(name) + " must be a whole number from 0 to " +
                 std::to_string(std::numeric_limits<uint64_t>::max()) + ", got \"" +
                 std::string(text) + "\""};
  }
  return value;
}

}  // namespace moq::reports
