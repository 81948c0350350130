// A side of `moqbench explain` that is a build: a moqbench binary given on the command line, or a
// results file, whose binary (meta.executable, else its command line's argv[0]) measures the case
// again with the results' warm-up rounds. Both explain modes (instructions under callgrind,
// allocations under DHAT) measure such a side the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "model/base/result.h"

namespace moq::cli {

struct ExplainBuild {
  std::string label;    // the results file's stem, or the role ("base", "head") for a binary
  std::string binary;   // the moqbench that measures the round
  std::string case_id;  // the case measured
  uint32_t warmup = 3;  // warm-up rounds before the round explained
  // The results file's first measured round, when the side is one.
  std::optional<uint64_t> recorded_instructions, recorded_allocations;
};

// `arg` must be a results file (text starting with '{') or an executable; `case_id` may be empty
// for a results file of one case; `warmup` overrides the results file's (default 3 for a
// binary). Errors name `role` and what was wrong (bad input).
Result<ExplainBuild> resolve_explain_build(const std::string& arg, const std::string& role,
                                           const std::string& case_id,
                                           std::optional<uint32_t> warmup);

// A private scratch folder under $TMPDIR (moq-explain.XXXXXX) for the measurements of one explain
// run, removed with everything in it when this goes out of scope.
class ExplainScratch {
 public:
  // The folder, or an error when it cannot be made (bad input: $TMPDIR).
  static Result<ExplainScratch> make();
  ExplainScratch(ExplainScratch&& o) noexcept : dir_(std::exchange(o.dir_, {})) {}
  ExplainScratch(const ExplainScratch&) = delete;
  ExplainScratch& operator=(const ExplainScratch&) = delete;
  ExplainScratch& operator=(ExplainScratch&&) = delete;
  ~ExplainScratch();
  const std::string& dir() const { return dir_; }

 private:
  explicit ExplainScratch(std::string dir) : dir_(std::move(dir)) {}
  std::string dir_;
};

}  // namespace moq::cli
