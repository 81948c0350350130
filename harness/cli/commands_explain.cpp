// `moqbench explain BASE HEAD [CASE]` (explain.h): each side a callgrind profile, a moqbench
// binary, or a results file whose binary measures the case again.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "harness/cli/commands.h"
#include "harness/cli/explain.h"
#include "reports/schema/results_file.h"

extern char** environ;

namespace moq::cli {

namespace {

namespace fs = std::filesystem;

struct ExplainArgs {
  std::string base, head, case_id;
  size_t top = 20;
  std::optional<uint32_t> warmup;
  std::string format = "table";
};

struct Side {
  std::string label;
  std::string case_id;  // the case measured (or named), when known
  counters::CallgrindProfile profile;
  std::optional<uint64_t> recorded;  // the results file's first measured round, when from one
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs binary's `run` of case_id for one measured round, keeping its profile in `profile`.
Status measure_profile(const std::string& binary, const std::string& case_id, uint32_t warmup,
                       const std::string& profile, const std::string& log) {
  std::vector<std::string> args = {binary,      "run",       case_id,
                                   "--counter", "callgrind", "--rounds",
                                   "1",         "--warmup",  std::to_string(warmup),
                                   "--profile", profile};
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return Error{0, "cannot start " + binary + ": " + std::strerror(rc)};
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Error{0, binary + " run " + case_id + " failed:\n" + read_all(log)};
  return {};
}

Result<Side> load_side(const std::string& arg, const ExplainArgs& a, const std::string& role,
                       const std::string& scratch) {
  if (!fs::is_regular_file(arg)) return Error{0, role + " '" + arg + "': no such file"};
  Side side;
  side.label = fs::path(arg).stem().string();
  std::string binary;
  std::string case_id = a.case_id;
  uint32_t warmup = a.warmup.value_or(3);
  const std::string head = read_all(arg).substr(0, 64);
  if (head.rfind("# callgrind format", 0) == 0) {
    Result<counters::CallgrindProfile> p = counters::parse_callgrind_profile(read_all(arg), arg);
    if (!p) return p.error();
    side.profile = std::move(*p);
    return side;
  }
  if (!head.empty() && head[0] == '{') {
    results::Result<results::ResultsFile> file = results::read_results_file(arg);
    if (!file) return Error{0, file.error().message};
    const results::CaseResult* c = nullptr;
    if (!case_id.empty()) {
      c = file->find_case(case_id);
      if (!c) return Error{0, role + " " + arg + " has no case " + case_id};
    } else if (file->cases.size() == 1) {
      c = &file->cases[0];
      case_id = c->id;
    } else {
      return Error{0, role + " " + arg + " has " + std::to_string(file->cases.size()) +
                          " cases: name the one to explain"};
    }
    // The absolute path it records (meta.executable); older files only have the argv.
    if (file->meta.executable) {
      binary = *file->meta.executable;
    } else if (!file->meta.command_line.empty()) {
      binary = file->meta.command_line[0];
    } else {
      return Error{0, role + " " + arg + ": its meta names no binary and no command line"};
    }
    if (access(binary.c_str(), X_OK) != 0)
      return Error{0, role + " " + arg + " was measured by " + binary +
                          ", which is gone: give that build's moqbench (or a profile) instead"};
    if (!a.warmup) warmup = static_cast<uint32_t>(c->rounds.warmup);
    if (c->metrics.instructions && !c->metrics.instructions->samples.empty())
      side.recorded = c->metrics.instructions->samples[0];
  } else if (access(arg.c_str(), X_OK) == 0) {
    binary = arg;
    side.label = role;
    if (case_id.empty()) return Error{0, "name the CASE to measure with " + arg};
  } else {
    return Error{0, role + " '" + arg +
                        "' is neither a callgrind profile, a results file nor a moqbench binary"};
  }
  side.case_id = case_id;
  const std::string profile = scratch + "/" + role + ".callgrind";
  if (Status st = measure_profile(binary, case_id, warmup, profile, scratch + "/" + role + ".log");
      !st)
    return st.error();
  Result<counters::CallgrindProfile> p = counters::parse_callgrind_profile(read_all(profile), arg);
  if (!p) return p.error();
  side.profile = std::move(*p);
  return side;
}

}  // namespace

Action add_explain_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "explain",
      "Where one measured round's instructions went between two builds, function by function "
      "(self and inclusive, by change). BASE and HEAD are each a callgrind profile (run "
      "--profile), a moqbench binary, or a results file (the binary that wrote it measures the "
      "case again)");
  auto args = std::make_shared<ExplainArgs>();
  sub->add_option("base", args->base, "BASE: profile, moqbench binary or results file")->required();
  sub->add_option("head", args->head, "HEAD: profile, moqbench binary or results file")->required();
  sub->add_option("case", args->case_id,
                  "the case id (needed with binaries, and with results "
                  "files of more than one case)");
  sub->add_option("--top", args->top, "functions shown")->capture_default_str();
  sub->add_option("--warmup", args->warmup,
                  "warm-up rounds before the round explained (default: the results file's, "
                  "else 3)");
  sub->add_option("--format", args->format, "table or md")->capture_default_str();
  return [ctx, args]() {
    reports::OutputFormat format = reports::OutputFormat::kTable;
    if (args->format == "md") {
      format = reports::OutputFormat::kMarkdown;
    } else if (args->format != "table") {
      return bad_input(ctx, "explain", "--format '" + args->format + "': expected table or md");
    }
    std::string scratch = (fs::temp_directory_path() / "moq-explain.XXXXXX").string();
    if (mkdtemp(scratch.data()) == nullptr)
      return bad_input(ctx, "explain", "cannot make a scratch directory under $TMPDIR");
    struct Cleanup {
      std::string dir;
      ~Cleanup() {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
      }
    } cleanup{scratch};
    Result<Side> base = load_side(args->base, *args, "base", scratch);
    if (!base) return bad_input(ctx, "explain", base.error().message);
    Result<Side> head = load_side(args->head, *args, "head", scratch);
    if (!head) return bad_input(ctx, "explain", head.error().message);
    if (base->label == head->label) {
      base->label = "base";
      head->label = "head";
    }
    Explanation e = explain_profiles(base->profile, head->profile);
    e.case_id = !args->case_id.empty() ? args->case_id : head->case_id;
    e.base_label = base->label;
    e.head_label = head->label;
    for (const Side* s : {&*base, &*head}) {
      if (s->recorded && *s->recorded != s->profile.total)
        ctx.io->err << "moqbench explain: " << s->label << ": the round measured now ("
                    << s->profile.total << ") differs from the results file's first measured "
                    << "round (" << *s->recorded << "): was the binary rebuilt since?\n";
    }
    ctx.io->out << render_explanation(e, args->top, format);
    return ctx.io->out ? kExitOk : kExitFailed;
  };
}

}  // namespace moq::cli
