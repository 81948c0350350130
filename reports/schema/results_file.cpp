#include "reports/schema/results_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "reports/schema/json_io.h"
#include "reports/schema/output_path.h"
#include "reports/schema/validate.h"

namespace moq::results {
namespace {

Error io_error(const std::string& what, const std::string& path, int err) {
  return Error{what + " " + path + ": " + std::strerror(err)};
}

}  // namespace

Result<ResultsFile> read_results_file(const std::string& path) {
  // An ifstream opens a directory and then reads nothing, which would be reported as an empty,
  // invalid JSON text: say what it is instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Error{path + ": is a directory, not a results file (name a .json file in it)"};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return io_error("cannot read", path, errno);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return io_error("cannot read", path, errno);
  return parse_results(text.str(), path);
}

Status write_file_atomically(const std::string& path, const std::string& text) {
  Result<OutputTarget> out = resolve_output(path);
  if (!out) return out.error();
  return write_output(*out, text);
}

Status write_results_file(const std::string& path, const ResultsFile& file) {
  if (Status status = validate(to_json(file)); !status.ok()) {
    return Error{"refusing to write an invalid results file " + path + ": " +
                 status.error().message};
  }
  return write_file_atomically(path, serialize(file));
}

ResultsWriter::ResultsWriter(OutputTarget out, Meta meta) : path_(out.given), out_(std::move(out)) {
  file_.meta = std::move(meta);
}

Result<ResultsWriter> ResultsWriter::create(const std::string& path, Meta meta) {
  if (Status status = validate_meta(to_json(meta)); !status.ok()) return status.error();
  Result<OutputTarget> out = resolve_output(path);
  if (!out) return out.error();
  ResultsWriter writer(std::move(*out), std::move(meta));
  if (Status status = writer.flush(); !status.ok()) return status.error();
  return writer;
}

Status ResultsWriter::add(CaseResult c) {
  const std::string path = "case \"" + c.id + "\"";
  if (Status status = validate_case(to_json(c), file_.meta.counter_backend, path); !status.ok()) {
    return status;
  }
  if (index_by_id_.count(c.id) != 0) {
    return Error{path + ": id already written to " + path_};
  }
  index_by_id_.emplace(c.id, file_.cases.size());
  case_lines_.push_back(serialize_case_line(c));
  const bool failed = c.flags.failed;
  if (file_.meta.run) {
    ++file_.meta.run->cases_done;
    if (failed) file_.meta.run->failed.push_back(c.id);
  }
  file_.cases.push_back(std::move(c));
  Status status = flush();
  if (!status.ok()) {
    // Keep memory equal to what is on disk, so a retry can add the case again.
    if (file_.meta.run) {
      --file_.meta.run->cases_done;
      if (failed) file_.meta.run->failed.pop_back();
    }
    index_by_id_.erase(file_.cases.back().id);
    case_lines_.pop_back();
    file_.cases.pop_back();
  }
  return status;
}

Status ResultsWriter::flush() {
  // Only a regular file can be replaced whole after every case; anything else is written once,
  // by finish().
  if (out_.kind != OutputKind::kRegular) return {};
  return write_output(out_, serialize_document(file_.meta, case_lines_));
}

Status ResultsWriter::finish(RunState state, std::optional<int> signal) {
  if (finished_) return {};
  finished_ = true;
  if (file_.meta.run) {
    file_.meta.run->state = state;
    file_.meta.run->signal = state == RunState::kInterrupted ? signal : std::nullopt;
  }
  return write_output(out_, serialize_document(file_.meta, case_lines_));
}

}  // namespace moq::results
