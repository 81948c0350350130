// Named baselines: results files kept under a name (`sweep --save-baseline NAME`) and read back
// by name (`compare`, `gate`, `report` --baseline NAME; `moqbench baselines` lists them), so that
// nobody juggles file names. A baseline is an ordinary results file, <folder>/NAME.json; its meta
// already says the commit, the counter and when the sweep started.
#pragma once

#include <string>
#include <vector>

#include "model/base/result.h"

namespace moq::cli {

// MOQBENCH_BASELINES_DIR when set and not empty; else ".moqbench/baselines" under the current
// directory (beside the checkout one works in, like the tools that keep baselines per project).
std::string baselines_folder();

// A name is 1 to 100 of letters, digits, '.', '_' and '-', not starting with '.': no '/', no
// "..", nothing hidden, so it names one file inside the folder. The error names the option and
// the name.
Status check_baseline_name(const std::string& option, const std::string& name);

// The names of the baselines in the folder (its *.json files), sorted; empty when the folder does
// not exist.
std::vector<std::string> baseline_names(const std::string& folder);

// <folder>/NAME.json.
std::string baseline_path(const std::string& folder, const std::string& name);

// The file of an existing baseline; an error names a bad name, or an unknown one with the
// folder and the baselines it has.
Result<std::string> find_baseline(const std::string& name);

// Whether NAME may be saved: a valid name, and (unless force) not the name of an existing
// baseline. Checked before a sweep measures anything.
Status check_can_save(const std::string& name, bool force);

// Reads and validates the results file at results_path and writes it as the baseline NAME
// (creating the folder), atomically: a reader sees the old baseline or the new one, never a torn
// file. Returns the baseline's path.
Result<std::string> save_baseline(const std::string& results_path, const std::string& name);

}  // namespace moq::cli
