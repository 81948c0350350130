// The round runner: builds a case, warms it up, measures it round by round, and returns its
// results record (reports/schema). Failures (a factory or setup error, a round error, a delivery
// mismatch, a counter error) are recorded in the record, never thrown, so a sweep goes on.
#pragma once

#include <cstdint>
#include <string>

#include "harness/counters/instruction_counter.h"
#include "harness/runner/scenario.h"
#include "reports/schema/results.h"

namespace moq::harness {

struct RunOptions {
  uint32_t warmup = 3;   // rounds run (and checked) before measuring
  uint32_t rounds = 10;  // measured rounds, one counter reading each
};

// Runs one case. `counter` counts instructions per measured round; null: instructions are not
// counted (backend "none"). Per measured round the runner takes, in this nesting:
//   stack counts, wall clock, instruction counter start, allocation snapshot
//     Case::run_round
//   allocation snapshot, instruction counter stop, wall clock, stack counts
// so the instruction count holds the round plus the counter's own start/stop tail and head and
// two allocation snapshots (measured with the empty_round scenario: the harness overhead), the
// allocation counts hold the round alone, and the wall time also holds the counter's start and
// stop (a few system calls for perf; callgrind's dump-file writes under callgrind, where wall
// time means little anyway).
//
// A perf reading that ran multiplexed is rejected (flags.multiplexed) and the round is replaced by
// another one; after as many rejections as measured rounds the case fails.
results::CaseResult run_case(const CaseSpec& spec, const RunOptions& options,
                             counters::InstructionCounter* counter);

// The record of a case that could not be run at all (its process failed): identified as
// run_case would, no samples, flags.failed with reason.
results::CaseResult failed_case(const CaseSpec& spec, const RunOptions& options,
                                std::string reason);

}  // namespace moq::harness
