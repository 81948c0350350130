// Where `moqbench sweep` keeps its results when no --out is given, so that nothing measured is
// thrown away: the results folder of the build the binary belongs to (<build>/results, the one
// ./tools/bench fills), or the environment's MOQBENCH_RESULTS_DIR when set.
#pragma once

#include <string>

#include "model/base/result.h"

namespace moq::cli {

// MOQBENCH_RESULTS_DIR when set and not empty; else <build>/results when this binary is
// <build>/harness/cli/moqbench; else "results" under the current directory.
std::string results_folder();

// "<folder>/sweep-YYYYMMDDTHHMMSSZ.json" (UTC now), the folder created if missing.
Result<std::string> timestamped_results_path(const std::string& folder);

// Copies the results file at `path` to "<its folder>/latest.json", atomically (a reader sees the
// previous latest.json or the new one). A copy rather than a link: latest.json stays valid when
// the timestamped files are cleaned up.
Result<std::string> update_latest(const std::string& path);

}  // namespace moq::cli
