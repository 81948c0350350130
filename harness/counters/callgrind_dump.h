// Reads the instruction total (Ir) out of one callgrind dump file.
//
// A dump triggered by CALLGRIND_DUMP_STATS_AT(label) is one file in callgrind's format whose
// header names the trigger ("desc: Trigger: Client Request: <label>"), the event columns
// ("events: Ir ...") and the part's cost ("summary: ..."); the file ends with "totals: ...".
#pragma once

#include <cstdint>
#include <string_view>

#include "model/base/result.h"

namespace moq::counters {

// The Ir total of a dump's text. `label` is the label the dump was triggered with (checked, so a
// dump triggered by someone else is never taken for ours); `source` names the file in errors.
// Errors name the file, the line and the value that was wrong.
Result<uint64_t> parse_callgrind_dump_ir(std::string_view text, std::string_view label,
                                         std::string_view source);

// The trigger label of a dump's text ("" when the dump has no client-request trigger line).
std::string_view callgrind_dump_label(std::string_view text);

}  // namespace moq::counters
