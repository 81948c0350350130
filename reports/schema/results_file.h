// Reading and writing results files, and ResultsWriter, which keeps the file on disk valid and
// complete after every finished case, so a crash loses only the case that was running.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "reports/schema/output_path.h"
#include "reports/schema/results.h"
#include "reports/schema/status.h"

namespace moq::results {

// Reads, parses and validates a results file. Errors start with the path.
Result<ResultsFile> read_results_file(const std::string& path);

// Writes text to path as output_path.h says: "-" to stdout; a regular file (at the end of any
// symlink chain) atomically, through "<target>.tmp" beside it renamed over it, so a reader sees the
// old file or the new one, never a torn one; an existing FIFO, device or socket in place, once.
Status write_file_atomically(const std::string& path, const std::string& text);

// Validates file (the same checks as reading it back) and writes it atomically.
Status write_results_file(const std::string& path, const ResultsFile& file);

class ResultsWriter {
 public:
  // Validates meta and resolves `path` (a missing directory is an error here, before anything
  // runs). A regular file is written at once with no cases, so even a run that dies in its first
  // case leaves a valid (empty) results file; stdout ("-"), a FIFO or a device is written once, by
  // finish().
  static Result<ResultsWriter> create(const std::string& path, Meta meta);

  // Validates c (as validate_case does, against meta's counter backend, and its id unique in the
  // file), appends it and rewrites the whole file atomically. An invalid case is refused and the
  // file on disk is left as it was.
  Status add(CaseResult c);

  // Records how the run ended (meta.run, when the meta has one: a run that never gets here leaves
  // "running") and writes the document a last time; the only write to a target that is not a
  // regular file (stdout, a FIFO, a device). A second call does nothing.
  Status finish(RunState state = RunState::kComplete, std::optional<int> signal = std::nullopt);

  const ResultsFile& results() const { return file_; }
  const std::string& path() const { return path_; }

 private:
  ResultsWriter(OutputTarget out, Meta meta);
  Status flush();

  std::string path_;
  OutputTarget out_;
  bool finished_ = false;
  ResultsFile file_;
  std::vector<std::string> case_lines_;  // each case encoded once (serialize_case_line)
  std::map<std::string, size_t, std::less<>> index_by_id_;
};

}  // namespace moq::results
