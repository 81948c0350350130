#include "harness/runner/meta.h"

#include <sys/utsname.h>

#include <ctime>
#include <fstream>

#include "harness/runner/build_info.h"

namespace moq::harness {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) return line.substr(start);
  }
  struct utsname u;
  if (uname(&u) == 0) return std::string("unknown ") + u.machine + " CPU";
  return "unknown CPU";
}

std::string kernel_name() {
  struct utsname u;
  if (uname(&u) != 0) return "unknown kernel";
  return std::string(u.sysname) + " " + u.release;
}

results::Meta make_meta(results::CounterBackend backend, const std::string& event,
                        std::optional<int> pinned_cpu, std::vector<std::string> command_line) {
  const BuildInfo& build = build_info();
  results::Meta meta;
  meta.tool_version = build.tool_version;
  if (build.git_commit[0] != '\0') meta.git_commit = build.git_commit;
  meta.git_dirty = build.git_dirty;
  meta.compiler = build.compiler;
  meta.compiler_flags = build.compiler_flags;
  meta.build_type = build.build_type;
  meta.cpu_model = cpu_model();
  meta.kernel = kernel_name();
  meta.counter_backend = backend;
  if (backend != results::CounterBackend::kNone) meta.counter_event = event;
  if (pinned_cpu && *pinned_cpu >= 0) meta.pinned_cpu = static_cast<uint32_t>(*pinned_cpu);
  meta.command_line = std::move(command_line);
  meta.start_time = results::iso8601_utc(static_cast<int64_t>(std::time(nullptr)));
  return meta;
}

}  // namespace moq::harness
