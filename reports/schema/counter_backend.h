// Which counter produced the instruction counts: a backend's name, the value results record in
// meta.counter_backend. kCounterBackendNames is the results schema's list of those names: the
// validator accepts only these, so a backend added in harness/counters (one file, registered
// there) is also named here, the one other place its name is written. Counts from different
// backends (or events) are never compared.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace moq::results {

// In the order messages list them; "none" first (no instruction counts).
inline constexpr std::array<std::string_view, 3> kCounterBackendNames = {"none", "perf",
                                                                         "callgrind"};

// A backend by name. The harness may hold a name this schema does not list (a backend a test
// defines for itself): results naming it are refused, by the writer as by every reader.
class CounterBackend {
 public:
  // "none": instructions are not counted.
  constexpr CounterBackend() = default;
  // consteval: the name is a literal, so the value never outlives the text it views.
  static consteval CounterBackend named(std::string_view name) { return CounterBackend(name); }

  constexpr std::string_view name() const { return name_; }
  // Whether the schema's list holds this name, i.e. whether results may record it.
  constexpr bool listed() const {
    for (std::string_view n : kCounterBackendNames)
      if (n == name_) return true;
    return false;
  }
  constexpr bool operator==(const CounterBackend&) const = default;

  // The listed backend called `text`, viewing the list's own storage rather than `text`.
  static constexpr std::optional<CounterBackend> from_list(std::string_view text) {
    for (std::string_view n : kCounterBackendNames)
      if (n == text) return CounterBackend(n);
    return std::nullopt;
  }

  // The backends that code other than their own refers to (reports tell apart "none", merge
  // compares perf's CPUs, moqbench measures each case in a process of its own under callgrind).
  static const CounterBackend kNone;
  static const CounterBackend kPerf;
  static const CounterBackend kCallgrind;

 private:
  constexpr explicit CounterBackend(std::string_view name) : name_(name) {}
  std::string_view name_ = "none";
};

inline constexpr CounterBackend CounterBackend::kNone = CounterBackend::named("none");
inline constexpr CounterBackend CounterBackend::kPerf = CounterBackend::named("perf");
inline constexpr CounterBackend CounterBackend::kCallgrind = CounterBackend::named("callgrind");

// "none", "perf", "callgrind": the names results record.
constexpr std::string_view to_string(CounterBackend backend) {
  return backend.name();
}

// "none, perf, callgrind" (quote = true: "\"none\", \"perf\", \"callgrind\""), for messages, so
// that a new backend is named wherever the others are.
inline std::string counter_backend_list(bool quote = false) {
  std::string list;
  for (std::string_view name : kCounterBackendNames) {
    if (!list.empty()) list += ", ";
    list += quote ? "\"" + std::string(name) + "\"" : std::string(name);
  }
  return list;
}

// The listed backend called `text`; nullopt for any other text, so that what a reader takes from
// a results file is always a listed name.
constexpr std::optional<CounterBackend> parse_counter_backend(std::string_view text) {
  return CounterBackend::from_list(text);
}

}  // namespace moq::results
