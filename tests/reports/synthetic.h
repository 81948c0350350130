// Synthetic results files for the results-format and reports tests: deterministic values the
// tests choose, written to a fresh temporary directory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/schema/results.h"

namespace moq::results::testing {

inline constexpr const char* kCommitA = "0123456789abcdef0123456789abcdef01234567";
inline constexpr const char* kCommitB = "89abcdef0123456789abcdef0123456789abcdef";

// A valid meta for the given backend ("Ir" for callgrind, "instructions:u" for perf).
Meta synthetic_meta(CounterBackend backend = CounterBackend::kCallgrind,
                    const std::string& commit = kCommitA, bool dirty = false);

// Four measured rounds whose median is exactly the given value for instructions and allocations
// (the samples vary around it, so min/max/mean differ from the median). instructions is left
// null under the "none" backend.
CaseResult synthetic_case(const std::string& scenario, const std::string& version,
                          const std::vector<Param>& params, uint64_t instructions,
                          uint64_t allocations,
                          CounterBackend backend = CounterBackend::kCallgrind);

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Writes file to dir/name through write_results_file (so it is validated) and returns the path.
std::string write_synthetic(const TempDir& dir, const std::string& name, const ResultsFile& file);

std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);

}  // namespace moq::results::testing
