// Joining the shards of a sweep (`moqbench sweep --shard I/N` on several processes or machines)
// back into one results file: `moqbench merge A.json B.json ... --out all.json`.
//
// Refused (bad input): a file that is not a shard; shards of different sweeps (shard count,
// plan size or plan digest differ: another case list or other rounds); shards of different
// builds (tool version, commit, dirty tree, compiler, flags, build type); different counter
// backends or events; and, for the perf backend, different CPU models (hardware counts differ
// between CPUs; callgrind's do not). Reported, and the merge still written: planned cases no
// file holds (by id, and the shards no file is), and cases more than one file holds (the
// first file's is kept).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/errors.h"
#include "reports/inputs.h"

namespace moq::reports {

struct Merge {
  results::ResultsFile merged;           // the sweep's cases in plan order; meta without a shard
  std::vector<uint32_t> missing_shards;  // shard numbers no file is
  uint64_t missing_cases = 0;            // planned cases no file holds, the missing shards' too
  std::vector<std::string> missing;      // ids of those in the shards present
  std::vector<std::string> duplicated;   // ids more than one file holds

  bool complete() const { return missing_cases == 0 && duplicated.empty(); }
};

Result<Merge> merge_shards(const std::vector<InputFile>& shards);

// "merged 150 cases of 4 shards" and a line per problem.
std::string describe(const Merge& merge);

}  // namespace moq::reports
