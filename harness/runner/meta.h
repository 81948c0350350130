// The `meta` block of a results file: the build (build_info.h), the binary that measures, this
// machine, the counter and the command line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/schema/results.h"

namespace moq::harness {

// `event`: what the counter counts (ignored for the none backend). Reads /proc/cpuinfo, uname
// and the current time.
results::Meta make_meta(results::CounterBackend backend, const std::string& event,
                        std::optional<int> pinned_cpu, std::vector<std::string> command_line);

// The "model name" line of /proc/cpuinfo (or another description of the CPU), never empty.
std::string cpu_model();
// `uname -sr`, never empty.
std::string kernel_name();
// The running binary's absolute path (/proc/self/exe); nullopt when it cannot be read.
std::optional<std::string> executable_path();
// The running binary's GNU build-id note as lowercase hex; nullopt when it has none. The linker
// hashes the output, so two builds that differ in any byte of code differ here.
std::optional<std::string> executable_build_id();

}  // namespace moq::harness
