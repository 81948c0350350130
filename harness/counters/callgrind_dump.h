// Reads the instruction total (Ir) out of one callgrind dump file.
//
// A dump triggered by CALLGRIND_DUMP_STATS_AT(label) is one file in callgrind's format whose
// header names the trigger ("desc: Trigger: Client Request: <label>"), the event columns
// ("events: Ir ...") and the part's cost ("summary: ..."); the file ends with "totals: ...".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/base/result.h"

namespace moq::counters {

// Every event total of one dump: Ir always, and the simulators' events (I1mr, D1mr, ... with
// --cache-sim=yes; Bc, Bcm, Bi, Bim with --branch-sim=yes) when callgrind collected them.
struct CallgrindDumpTotals {
  uint64_t ir = 0;
  std::vector<std::pair<std::string, uint64_t>> events;        // in the dump's column order
  std::optional<uint64_t> event(std::string_view name) const;  // nullopt: not collected
};

// The totals of a dump's text (its `totals:` line, else its `summary:`), checked as
// parse_callgrind_dump_ir checks them; with the cache simulator the totals line is required.
Result<CallgrindDumpTotals> parse_callgrind_dump(std::string_view text, std::string_view label,
                                                 std::string_view source);

// The Ir total of a dump's text. `label` is the label the dump was triggered with (checked, so a
// dump triggered by someone else is never taken for ours); `source` names the file in errors.
// Errors name the file, the line and the value that was wrong.
Result<uint64_t> parse_callgrind_dump_ir(std::string_view text, std::string_view label,
                                         std::string_view source);

// The trigger label of a dump's text ("" when the dump has no client-request trigger line).
std::string_view callgrind_dump_label(std::string_view text);

}  // namespace moq::counters
