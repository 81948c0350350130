// What the running binary was built from, captured at build time (build_info.cmake regenerates
// build_info_generated.cpp on every build, and rewrites it only when something changed).
#pragma once

namespace moq::harness {

struct BuildInfo {
  const char* tool_version;    // project version, e.g. "0.1.0"
  const char* git_commit;      // full commit id, or "" when the source tree is not a git checkout
  bool git_dirty;              // tracked files had uncommitted changes at build time
  const char* compiler;        // e.g. "GNU 12.2.0"
  const char* compiler_flags;  // CMAKE_CXX_FLAGS plus the build type's flags
  const char* build_type;      // e.g. "Release"
};

const BuildInfo& build_info();

}  // namespace moq::harness
