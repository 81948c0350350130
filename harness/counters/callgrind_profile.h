// A callgrind profile read per function: what `moqbench explain` diffs. A region dump (one
// measured round, kept with `run --profile`) is callgrind's text format: name-compressed
// `fn=`/`fl=`/`ob=` lines, cost lines of positions and the Ir count (positions may be relative,
// "+3", "-2", "*"), and `calls=` lines whose next cost line is the inclusive cost of a call.
// Per function: its own (exclusive) Ir (or the events asked for), its inclusive Ir (own plus the
// calls it makes), how often it was called, and the file and first line its costs name ("???" and 0
// without debug information). A function that was called but ran nothing collected has only its
// calls.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/base/result.h"

namespace moq::counters {

struct FunctionCost {
  std::string name;
  std::string file;
  uint64_t line = 0;
  uint64_t self = 0;
  uint64_t inclusive = 0;
  uint64_t calls = 0;  // times it was called from collected code (the calls= lines naming it)
};

struct CallgrindProfile {
  uint64_t total = 0;                   // the dump's summary (all of the region)
  std::vector<FunctionCost> functions;  // by name
};

// Errors name the source, the line number and what was wrong. `events`: the event columns whose
// sum is the cost read (default Ir; e.g. I1mr, D1mr, D1mw for first-level misses, present when
// callgrind ran with --cache-sim=yes); a profile without one of them is an error naming it.
Result<CallgrindProfile> parse_callgrind_profile(std::string_view text, std::string_view source,
                                                 const std::vector<std::string>& events = {"Ir"});

}  // namespace moq::counters
