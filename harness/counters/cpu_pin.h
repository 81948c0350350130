// Pinning the measuring thread to one CPU (--cpu), whatever the counter: a pinned run is not
// moved between cores mid-round, and perf counts only that core's events. Kept apart from the
// perf backend, so that a CPU that does not exist is reported as that, not as a perf failure.
#pragma once

#include "model/base/result.h"

namespace moq::counters {

// Pins the calling thread to `cpu`. An Error names the CPU and the CPUs this thread may run on
// ("cannot pin to CPU 999: this thread may run on CPUs 0,1 only").
Status pin_current_thread_to_cpu(int cpu);

}  // namespace moq::counters
