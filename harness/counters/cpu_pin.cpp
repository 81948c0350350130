#include "harness/counters/cpu_pin.h"

#include <sched.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace moq::counters {

namespace {

// "0,1,4": the CPUs in the set, or "none known" when the set could not be read.
std::string cpu_list(const cpu_set_t& set, bool known) {
  if (!known) return "none known";
  std::string list;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    if (!list.empty()) list.push_back(',');
    list.append(std::to_string(c));
  }
  return list;
}

}  // namespace

Status pin_current_thread_to_cpu(int cpu) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const bool known = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
  const std::string refused = "cannot pin to CPU " + std::to_string(cpu) +
                              ": this thread may run on CPUs " + cpu_list(allowed, known) + " only";
  if (cpu < 0 || cpu >= CPU_SETSIZE || (known && !CPU_ISSET(cpu, &allowed))) {
    return Error{static_cast<uint64_t>(EINVAL), refused};
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    const int err = errno;
    return Error{static_cast<uint64_t>(err), refused + " (" + std::strerror(err) + ")"};
  }
  return {};
}

}  // namespace moq::counters
