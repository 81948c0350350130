// Where one measured round's allocations come from: DHAT's ad-hoc profile of a moqbench run
// (dhat_round_wrap.cpp makes each allocation of the measured round one event, weighted by its
// bytes), read into allocation sites, and the sites of two builds set side by side, for
// `moqbench explain --allocations`.
//
// A site is the first frame of an allocation's backtrace past the allocator's entry points
// (operator new, malloc, ...) and the standard library (std::, __gnu_cxx::, system libraries):
// the project's function that asked, e.g. the one that grew a std::vector. The frame that called
// the allocator, when it is another (a std::vector member), is kept beside it ("via"). Sites of
// one function from several backtraces add up.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/base/result.h"
#include "reports/output_format.h"

namespace moq::cli {

struct AllocationSite {
  std::string function;
  std::string via;    // the frame that called the allocator, when not `function`
  std::string where;  // "file:line", or "in OBJECT" without debug information
  uint64_t allocations = 0;
  uint64_t bytes = 0;
};

struct RoundAllocations {
  uint64_t rounds_marked = 0;  // measured rounds the run marked (explain runs exactly one)
  uint64_t allocations = 0, bytes = 0;
  std::vector<AllocationSite> sites;  // by allocations, then bytes, then name
};

// DHAT's JSON output (dhatFileVersion 2, mode ad-hoc). Errors name `source` and what was wrong.
Result<RoundAllocations> parse_dhat_round(std::string_view text, std::string_view source);

// One build: its sites, the most allocations first (`top` shown), or a plain line when the round
// allocated nothing.
std::string render_round_allocations(const std::string& case_id, const std::string& label,
                                     const RoundAllocations& round, size_t top,
                                     reports::OutputFormat format);

// Two builds: the sites whose count or bytes differ, the largest change first.
std::string render_allocation_changes(const std::string& case_id, const std::string& base_label,
                                      const RoundAllocations& base, const std::string& head_label,
                                      const RoundAllocations& head, size_t top,
                                      reports::OutputFormat format);

}  // namespace moq::cli
