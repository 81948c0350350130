#include "harness/runner/memory_check.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <string>

#include "harness/runner/memory_estimate.h"

namespace moq::harness {

namespace {

void lower_to(MemoryLimit& limit, uint64_t bytes, std::string why) {
  if (bytes < limit.bytes) limit = {bytes, std::move(why)};
}

void lower_to_rlimit(MemoryLimit& limit, int resource, const char* name) {
  rlimit r{};
  if (getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return;
  lower_to(limit, static_cast<uint64_t>(r.rlim_cur),
           std::string(name) + " " + format_bytes(static_cast<uint64_t>(r.rlim_cur)));
}

}  // namespace

std::optional<uint64_t> peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      uint64_t kib = 0;
      if (status >> kib) return kib * 1024;
      return std::nullopt;
    }
    status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::nullopt;
}

MemoryLimit memory_limit() {
  MemoryLimit limit;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    const uint64_t physical = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
    lower_to(limit, physical / 4 * 3,
             "3/4 of the " + format_bytes(physical) + " of physical memory");
  }
  lower_to_rlimit(limit, RLIMIT_AS, "the address-space limit RLIMIT_AS (ulimit -v) of");
  lower_to_rlimit(limit, RLIMIT_DATA, "the data limit RLIMIT_DATA (ulimit -d) of");
  return limit;
}

Status check_case_memory(const CaseSpec& spec, const MemoryLimit& limit) {
  if (!spec.scenario().estimate_memory) return {};
  const MemoryEstimate estimate = spec.scenario().estimate_memory(spec);
  const uint64_t needed = estimate.total();
  if (needed <= limit.bytes) return {};
  std::string message = "case " + spec.id() + " needs about " + format_bytes(needed) +
                        " of memory, more than the " + format_bytes(limit.bytes) +
                        " this process may use (" + limit.why + ")";
  const MemoryTerm* largest = estimate.largest();
  if (largest) message += "; most of it is " + largest->what;
  std::vector<std::string> axes = largest ? largest->axes : std::vector<std::string>{};
  if (!axes.empty()) {
    std::string list;
    for (size_t i = 0; i < axes.size(); ++i)
      list += (i == 0 ? "" : i + 1 == axes.size() ? " or " : ", ") + axes[i];
    message += "; lower " + list;
  }
  return Error{0, message};
}

}  // namespace moq::harness
