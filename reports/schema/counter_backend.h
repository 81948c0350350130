// Which counter produced the instruction counts: the project's one enum for it, used alike by the
// results format, the counters (harness/counters), the counter choice and the CLI. Counts from
// different backends (or events) are never compared.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace moq::results {

enum class CounterBackend { kNone, kPerf, kCallgrind };
inline constexpr std::array<CounterBackend, 3> kCounterBackends = {
    CounterBackend::kNone, CounterBackend::kPerf, CounterBackend::kCallgrind};

// "none", "perf", "callgrind": the names results record and --counter accepts.
constexpr std::string_view to_string(CounterBackend backend) {
  switch (backend) {
    case CounterBackend::kNone:
      return "none";
    case CounterBackend::kPerf:
      return "perf";
    case CounterBackend::kCallgrind:
      return "callgrind";
  }
  return "none";
}

// "none, perf, callgrind" (quote = true: "\"none\", \"perf\", \"callgrind\""), for messages, so
// that a new backend is named wherever the others are.
inline std::string counter_backend_list(bool quote = false) {
  std::string list;
  for (CounterBackend b : kCounterBackends) {
    if (!list.empty()) list += ", ";
    list += quote ? "\"" + std::string(to_string(b)) + "\"" : std::string(to_string(b));
  }
  return list;
}

// The inverse of to_string; nullopt for any other text.
constexpr std::optional<CounterBackend> parse_counter_backend(std::string_view text) {
  for (CounterBackend b : kCounterBackends)
    if (text == to_string(b)) return b;
  return std::nullopt;
}

}  // namespace moq::results
