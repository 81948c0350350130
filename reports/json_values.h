// Small pieces the JSON renderings of compare and gate share.
#pragma once

#include <optional>

#include "reports/schema/json_io.h"

namespace moq::reports {

// An optional value as JSON: the value itself, or null when there is none, so that a missing
// count or change stays visible as a key with a null value rather than a missing key.
template <class T>
results::Json json_or_null(const std::optional<T>& value) {
  return value ? results::Json(*value) : results::Json(nullptr);
}

}  // namespace moq::reports
