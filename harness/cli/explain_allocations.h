// `moqbench explain --allocations BUILD [BUILD2] CASE`: where one measured round's allocations
// come from, site by site (allocation_sites.h), for one build or between two. Each build (a
// moqbench binary, or a results file whose binary measures again: explain_build.h) runs the case
// for its warm-up rounds and one measured round under
//   valgrind --tool=dhat --mode=ad-hoc --soname-synonyms=somalloc=nouserintercepts
// with libmoq_dhat_round.so (found beside this moqbench) preloaded, which makes each allocation
// inside the measured round's bracket one DHAT event with its backtrace; set-up, warm-up and
// teardown stay out, as they do for instructions. The sum over the sites must equal the
// allocations the run counted itself in that round, or the measurement fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "harness/cli/commands.h"
#include "reports/output_format.h"

namespace moq::cli {

struct AllocationsRequest {
  std::string base, head;  // head empty: one build
  std::string case_id;
  std::optional<uint32_t> warmup;
  size_t top = 20;
  reports::OutputFormat format = reports::OutputFormat::kTable;
};

// The exit status: 0 explained; 1 a measurement failed (the log quoted); 2 bad input (a missing
// or unusable build, an unknown case, DHAT or the wrapper library missing).
int explain_allocations(const CliContext& ctx, const AllocationsRequest& request);

}  // namespace moq::cli
