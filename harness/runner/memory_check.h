// Refusing a case that cannot fit in memory before building it (the estimate: memory_estimate.h),
// so that it ends with a message saying how much it needs and which axis to lower, not with the
// allocator aborting half-way through setup.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "harness/runner/scenario.h"
#include "model/base/result.h"

namespace moq::harness {

struct MemoryLimit {
  uint64_t bytes = UINT64_MAX;
  std::string why;  // "3/4 of the 23.4 GiB of physical memory", "RLIMIT_AS (ulimit -v)"
};

// What a case may use in this process: the least of 3/4 of the physical memory
// (sysconf(_SC_PHYS_PAGES) x the page size; the rest is left to the system and other programs),
// RLIMIT_AS and RLIMIT_DATA. Deterministic for a machine and its limits, unlike free memory.
MemoryLimit memory_limit();

// This process's peak resident set so far (VmHWM in /proc/self/status), or nullopt where the
// system does not say. Not getrusage's ru_maxrss: Linux carries that across exec, so a process
// spawned by a large one (a sanitized test) would report its parent's peak as its own.
std::optional<uint64_t> peak_resident_bytes();

// OK when the case's scenario has no estimate or its estimate fits `limit`. Otherwise an Error
// naming the case, the estimate, its largest term, the limit and the axes to lower.
Status check_case_memory(const CaseSpec& spec, const MemoryLimit& limit);

}  // namespace moq::harness
