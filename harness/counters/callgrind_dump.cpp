#include "harness/counters/callgrind_dump.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace moq::counters {
namespace {

constexpr std::string_view kTrigger = "desc: Trigger: Client Request: ";

// Splits on single spaces, skipping empty fields.
std::vector<std::string_view> fields(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ')
      ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ')
      ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

struct Line {
  std::string_view text;
  size_t number;  // 1-based
};

// Calls f(line) for each line; stops early when f returns false.
template <class F>
void for_each_line(std::string_view text, F f) {
  size_t number = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!f(Line{line, ++number})) return;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

std::string where(std::string_view source, size_t line) {
  return std::string(source) + ":" + std::to_string(line);
}

// The value in column `index` of a cost line's numbers ("summary: 1 2 3"). Callgrind may omit
// trailing zero columns, so a missing column reads 0.
Result<uint64_t> column(std::string_view key, std::string_view values, size_t index,
                        std::string_view source, size_t line) {
  std::vector<std::string_view> v = fields(values);
  if (index >= v.size()) return uint64_t{0};
  uint64_t n = 0;
  auto [ptr, ec] = std::from_chars(v[index].data(), v[index].data() + v[index].size(), n);
  if (ec != std::errc() || ptr != v[index].data() + v[index].size()) {
    return Error{0, "callgrind dump " + where(source, line) + ": '" + std::string(key) +
                        "' value '" + std::string(v[index]) + "' is not a count"};
  }
  return n;
}

}  // namespace

std::string_view callgrind_dump_label(std::string_view text) {
  std::string_view label;
  for_each_line(text, [&](Line l) {
    if (l.text.starts_with(kTrigger)) {
      label = l.text.substr(kTrigger.size());
      return false;
    }
    return true;
  });
  return label;
}

std::optional<uint64_t> CallgrindDumpTotals::event(std::string_view name) const {
  for (const auto& [n, v] : events)
    if (n == name) return v;
  return std::nullopt;
}

Result<uint64_t> parse_callgrind_dump_ir(std::string_view text, std::string_view label,
                                         std::string_view source) {
  Result<CallgrindDumpTotals> totals = parse_callgrind_dump(text, label, source);
  if (!totals) return totals.error();
  return totals->ir;
}

Result<CallgrindDumpTotals> parse_callgrind_dump(std::string_view text, std::string_view label,
                                                 std::string_view source) {
  std::optional<size_t> ir_index;
  std::optional<Line> events, summary, totals;
  std::string_view trigger;
  bool seen_trigger = false;
  std::string duplicate;
  for_each_line(text, [&](Line l) {
    auto take = [&](std::optional<Line>& slot, const char* key) {
      if (slot) {
        duplicate = std::string("a second '") + key + "' line at " + where(source, l.number) +
                    " (first at line " + std::to_string(slot->number) +
                    "): a file with several parts (--combine-dumps) is not supported";
        return false;
      }
      slot = l;
      return true;
    };
    if (l.text.starts_with(kTrigger) && !seen_trigger) {
      trigger = l.text.substr(kTrigger.size());
      seen_trigger = true;
    } else if (l.text.starts_with("events:")) {
      return take(events, "events");
    } else if (l.text.starts_with("summary:")) {
      return take(summary, "summary");
    } else if (l.text.starts_with("totals:")) {
      return take(totals, "totals");
    }
    return true;
  });
  if (!duplicate.empty()) return Error{0, "callgrind dump " + duplicate};
  if (!seen_trigger) {
    return Error{0, "callgrind dump " + std::string(source) +
                        ": no 'desc: Trigger: Client Request:' line; expected the dump of "
                        "region '" +
                        std::string(label) + "'"};
  }
  if (trigger != label) {
    return Error{0, "callgrind dump " + std::string(source) + ": triggered by '" +
                        std::string(trigger) + "', expected region '" + std::string(label) + "'"};
  }
  if (!events) {
    return Error{0, "callgrind dump " + std::string(source) + ": no 'events:' line"};
  }
  std::string_view event_list = events->text.substr(7);
  while (event_list.starts_with(' '))
    event_list.remove_prefix(1);
  std::vector<std::string_view> names = fields(event_list);
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "Ir") ir_index = i;
  }
  if (!ir_index) {
    return Error{0, "callgrind dump " + where(source, events->number) + ": events '" +
                        std::string(event_list) + "' do not include Ir"};
  }
  if (!summary && !totals) {
    return Error{0, "callgrind dump " + std::string(source) +
                        ": neither a 'summary:' nor a 'totals:' line (truncated file?)"};
  }
  // The `totals:` line is the sum of the costs the dump writes (what a per-function profile adds
  // up to); `summary:` is callgrind's running total. Without the cache simulator the two are
  // equal, and a difference means a damaged file. With it (--cache-sim=yes: the Dr, Dw and miss
  // columns) the summary is a few events off the costs written around the dump's own client
  // request (valgrind 3.19: summary 190582 Ir, totals 190581, the same region without the
  // simulator 190581), so every figure is read from the totals, which must then be there.
  const bool cache_simulated = std::any_of(names.begin(), names.end(), [](std::string_view n) {
    return n == "Dr" || n == "Dw" || n == "I1mr" || n == "D1mr" || n == "D1mw" || n == "ILmr" ||
           n == "DLmr" || n == "DLmw";
  });
  if (cache_simulated && !totals) {
    return Error{0, "callgrind dump " + std::string(source) +
                        ": no 'totals:' line (truncated file?); with the cache simulator the "
                        "'summary:' line is not the sum of the dump's costs"};
  }
  if (summary && totals && !cache_simulated) {
    Result<uint64_t> from_summary =
        column("summary", summary->text.substr(8), *ir_index, source, summary->number);
    if (!from_summary) return from_summary.error();
    Result<uint64_t> from_totals =
        column("totals", totals->text.substr(7), *ir_index, source, totals->number);
    if (!from_totals) return from_totals.error();
    if (*from_summary != *from_totals) {
      return Error{0, "callgrind dump " + std::string(source) + ": summary Ir " +
                          std::to_string(*from_summary) + " differs from totals Ir " +
                          std::to_string(*from_totals)};
    }
  }
  // Every event of the part, from the totals when there are any.
  const Line& costs = totals ? *totals : *summary;
  const std::string_view key = totals ? "totals" : "summary";
  CallgrindDumpTotals out;
  for (size_t i = 0; i < names.size(); ++i) {
    Result<uint64_t> v = column(key, costs.text.substr(key.size() + 1), i, source, costs.number);
    if (!v) return v.error();
    out.events.emplace_back(std::string(names[i]), *v);
  }
  out.ir = out.events[*ir_index].second;
  return out;
}

}  // namespace moq::counters
