// Per-role costs (`moqbench run|sweep --roles`, callgrind only): each measured round's
// instructions and allocations split into the roles of model/async/role.h, summing to the
// round's total, so a reviewer sees "the relay got 4% dearer, the viewers did not".
//
// How. The executor runs every task through its role's entry function, and the scenarios call
// sessions through Executor::run_as (model/async/role.h): code of role R is exactly what runs
// inside moq::role_entry::R(...). Calls from any role into the transport enter through its entry
// points (role_split.cpp: the transport interface's methods), none of which calls another.
// Callgrind's --toggle-collect flips collection on entering and leaving matching functions, so
// the case is measured again (deterministically: the counts depend on the case alone) in passes
// that collect one part each, allocation calls included:
//
//   H    collection on, toggled by every non-harness role entry  the harness: outside the roles
//   I_r  collection off, toggled by R's entry                    R with its transport calls
//   T    collection off, toggled by the transport entry points   every transport call
//   X_r  collection off, toggled by R's entry and the transport  (I_r - T_r) + (T - T_r)
//
// so R's transport calls are T_r = (I_r + T - X_r) / 2, and per round:
//
//   publisher, relay, viewer  = I_r - T_r
//   transport                 = I_transport - T_transport + T   (its own tasks, and every call)
//   harness                   = H - (T - sum of T_r)            (without its transport calls)
//
// The parts add up to H + sum of I_r, which two independent kinds of pass measure; that sum
// must equal the plain measurement (within 0.1% of instructions, exactly for allocations: the
// allocator calls callgrind collected against the in-process counter), or the case fails with
// the difference. So do odd or out-of-range T_r (an entry point that nests in another).
//
// The memory, quic-sim and qmux transports are split (quic-sim's links and connections, and
// qmux's byte pipe, are tasks of the transport role, and the sessions call them through the
// transport interface); real QUIC over UDP
// runs on the wall clock, which no two passes share, and is refused by name.
#pragma once

#include <optional>

#include "harness/runner/runner.h"
#include "harness/runner/scenario.h"
#include "reports/schema/results.h"

namespace moq::cli {

// The plain measurement of spec in its own callgrind process (case_process.h) with `roles`
// filled from the passes above; a failed case naming the pass or the check that failed.
results::CaseResult measure_case_by_role(const harness::CaseSpec& spec,
                                         const harness::RunOptions& options,
                                         std::optional<int> cpu);

}  // namespace moq::cli
