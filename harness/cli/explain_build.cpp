#include "harness/cli/explain_build.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>

#include "harness/cli/spawn_logged.h"
#include "reports/schema/results_file.h"

namespace moq::cli {

Result<ExplainBuild> resolve_explain_build(const std::string& arg, const std::string& role,
                                           const std::string& case_id,
                                           std::optional<uint32_t> warmup) {
  namespace fs = std::filesystem;
  if (!fs::is_regular_file(arg)) return Error{0, role + " '" + arg + "': no such file"};
  ExplainBuild build;
  build.label = fs::path(arg).stem().string();
  build.case_id = case_id;
  build.warmup = warmup.value_or(3);
  const std::string head = read_log(arg).substr(0, 64);
  if (!head.empty() && head[0] == '{') {
    results::Result<results::ResultsFile> file = results::read_results_file(arg);
    if (!file) return Error{0, file.error().message};
    const results::CaseResult* c = nullptr;
    if (!case_id.empty()) {
      c = file->find_case(case_id);
      if (!c) return Error{0, role + " " + arg + " has no case " + case_id};
    } else if (file->cases.size() == 1) {
      c = &file->cases[0];
      build.case_id = c->id;
    } else {
      return Error{0, role + " " + arg + " has " + std::to_string(file->cases.size()) +
                          " cases: name the one to explain"};
    }
    // The absolute path it records (meta.executable); older files only have the argv.
    if (file->meta.executable) {
      build.binary = *file->meta.executable;
    } else if (!file->meta.command_line.empty()) {
      build.binary = file->meta.command_line[0];
    } else {
      return Error{0, role + " " + arg + ": its meta names no binary and no command line"};
    }
    if (access(build.binary.c_str(), X_OK) != 0)
      return Error{0, role + " " + arg + " was measured by " + build.binary +
                          ", which is gone: give that build's moqbench (or a profile) instead"};
    if (!warmup) build.warmup = static_cast<uint32_t>(c->rounds.warmup);
    if (c->metrics.instructions && !c->metrics.instructions->samples.empty())
      build.recorded_instructions = c->metrics.instructions->samples[0];
    if (c->metrics.allocations && !c->metrics.allocations->samples.empty())
      build.recorded_allocations = c->metrics.allocations->samples[0];
    return build;
  }
  if (access(arg.c_str(), X_OK) == 0) {
    build.binary = arg;
    build.label = role;
    if (case_id.empty()) return Error{0, "name the CASE to measure with " + arg};
    return build;
  }
  return Error{0, role + " '" + arg +
                      "' is neither a callgrind profile, a results file nor a moqbench binary"};
}

Result<ExplainScratch> ExplainScratch::make() {
  std::string dir = (std::filesystem::temp_directory_path() / "moq-explain.XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr)
    return Error{0, "cannot make a scratch directory under $TMPDIR"};
  return ExplainScratch(std::move(dir));
}

ExplainScratch::~ExplainScratch() {
  if (dir_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace moq::cli
