// Loading the results files a report reads, naming them, and the two rules every report applies:
// counts from different counter backends or events are never compared, and two files from the
// same commit and build measure the same code, so their difference is noise.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "reports/errors.h"
#include "reports/schema/results.h"

namespace moq::reports {

struct InputFile {
  std::string path;
  std::string label;  // short unique name for columns and series: "base", "head", "run#2"
  results::ResultsFile results;
};

// Finds a file's cases by id in O(log n) (ResultsFile::find_case is a linear scan, and reports
// look up every case of every file). Refers to the file, which must outlive it.
class CaseLookup {
 public:
  explicit CaseLookup(const results::ResultsFile& file);
  const results::CaseResult* find(std::string_view id) const;

 private:
  std::map<std::string_view, const results::CaseResult*> by_id_;
};
std::vector<CaseLookup> lookups_of(const std::vector<InputFile>& inputs);

// Reads and validates each file (an error names the file and the bad field) and gives each a
// label: its file name without directory and ".json", made unique with "#<n>" (1-based
// position) where two would be equal.
Result<std::vector<InputFile>> load_inputs(const std::vector<std::string>& paths);

// For inputs built in memory (tests, the CLI after a run): labels as load_inputs gives them.
void assign_labels(std::vector<InputFile>& inputs);

// OK when every file has the same counter backend and event as the first; otherwise an error
// naming both files and both backends/events.
Status check_same_counter(const std::vector<InputFile>& inputs);
Status check_same_counter(const InputFile& a, const InputFile& b);

// The noise rules. Two results measure the same source when both name the same git commit,
// neither tree was dirty, and compiler, compiler flags, build type, CPU model and counter are
// equal. Then any difference between them is noise, not a code change:
// - rerun noise when they also come from the same build: the same executable path and build id
//   (a file that records neither counts as that build, as files did before they recorded it);
// - cross-build noise otherwise: the same source built twice (another directory, another time).
bool same_source(const results::Meta& a, const results::Meta& b);
bool same_build(const results::Meta& a, const results::Meta& b);

// "callgrind Ir", "perf instructions:u", "none".
std::string counter_text(const results::Meta& meta);
// "0123456 clean", "0123456 dirty", "no git commit".
std::string commit_text(const results::Meta& meta);

// Why a file's run did not do all it planned ("interrupted by signal 2 after 3 of 8 planned
// cases", "never finished: ..."); nullopt when it recorded a complete run, or recorded nothing of
// how it ended (schema version 1).
std::optional<std::string> incomplete_run(const results::Meta& meta);

// Whether the file's recorded plan (meta.plan, else a shard's share) included id; nullopt when it
// records no plan.
std::optional<bool> planned(const results::Meta& meta, std::string_view id);

}  // namespace moq::reports
