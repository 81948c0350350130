// `moqbench explain BASE HEAD [CASE]` (explain.h): each side a callgrind profile, a moqbench
// binary, or a results file whose binary measures the case again; with --allocations, where the
// round's allocations come from, for one build or two (explain_allocations.h).
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "harness/cli/commands.h"
#include "harness/cli/explain.h"
#include "harness/cli/explain_allocations.h"
#include "harness/cli/explain_build.h"
#include "harness/cli/spawn_logged.h"

namespace moq::cli {

namespace {

namespace fs = std::filesystem;

struct ExplainArgs {
  std::string base, head, case_id;
  size_t top = 20;
  std::optional<uint32_t> warmup;
  std::string format = "table";
  bool allocations = false;
  std::string event = "Ir";
};

// What explain --event may name: Ir, the results' simulated metrics (sums of callgrind events),
// or one callgrind event of its cache or branch simulator.
struct ExplainEvent {
  std::vector<std::string> columns;  // callgrind events summed
  const char* sim_flag = nullptr;    // the run option that collects them; null for Ir
};

std::optional<ExplainEvent> explain_event(const std::string& name) {
  if (name == "Ir") return ExplainEvent{{"Ir"}, nullptr};
  if (name == "l1_misses") return ExplainEvent{{"I1mr", "D1mr", "D1mw"}, "--cache-sim"};
  if (name == "ll_misses") return ExplainEvent{{"ILmr", "DLmr", "DLmw"}, "--cache-sim"};
  if (name == "branch_misses") return ExplainEvent{{"Bcm", "Bim"}, "--branch-sim"};
  for (const char* e : {"Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"})
    if (name == e) return ExplainEvent{{name}, "--cache-sim"};
  for (const char* e : {"Bc", "Bcm", "Bi", "Bim"})
    if (name == e) return ExplainEvent{{name}, "--branch-sim"};
  return std::nullopt;
}

struct Side {
  std::string label;
  std::string case_id;  // the case measured (or named), when known
  counters::CallgrindProfile profile;
  std::optional<uint64_t> recorded;  // the results file's first measured round, when from one
};

// Runs binary's `run` of case_id for one measured round, keeping its profile in `profile`.
Status measure_profile(const std::string& binary, const std::string& case_id, uint32_t warmup,
                       const std::string& profile, const std::string& log,
                       const ExplainEvent& event) {
  std::vector<std::string> argv = {binary,      "run",       case_id,
                                   "--counter", "callgrind", "--rounds",
                                   "1",         "--warmup",  std::to_string(warmup),
                                   "--profile", profile};
  if (event.sim_flag != nullptr) argv.emplace_back(event.sim_flag);
  Result<int> rc = spawn_logged(argv, {}, log);
  if (!rc) return Error{0, rc.error().message};
  if (*rc != 0) return Error{0, binary + " run " + case_id + " failed:\n" + read_log(log)};
  return {};
}

Result<Side> load_side(const std::string& arg, const ExplainArgs& a, const std::string& role,
                       const std::string& scratch) {
  if (!fs::is_regular_file(arg)) return Error{0, role + " '" + arg + "': no such file"};
  Side side;
  side.label = fs::path(arg).stem().string();
  const ExplainEvent event = *explain_event(a.event);
  if (read_log(arg).rfind("# callgrind format", 0) == 0) {
    Result<counters::CallgrindProfile> p =
        counters::parse_callgrind_profile(read_log(arg), arg, event.columns);
    if (!p) return p.error();
    side.profile = std::move(*p);
    return side;
  }
  Result<ExplainBuild> build = resolve_explain_build(arg, role, a.case_id, a.warmup);
  if (!build) return build.error();
  side.label = build->label;
  side.case_id = build->case_id;
  // The results file records instructions: only an Ir round can be checked against it.
  if (event.sim_flag == nullptr) side.recorded = build->recorded_instructions;
  const std::string profile = scratch + "/" + role + ".callgrind";
  if (Status st = measure_profile(build->binary, build->case_id, build->warmup, profile,
                                  scratch + "/" + role + ".log", event);
      !st)
    return st.error();
  Result<counters::CallgrindProfile> p =
      counters::parse_callgrind_profile(read_log(profile), arg, event.columns);
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
  sub->add_option("head", args->head,
                  "HEAD: profile, moqbench binary or results file (with --allocations: "
                  "optional, one build alone)");
  sub->add_option("case", args->case_id,
                  "the case id (needed with binaries, and with results "
                  "files of more than one case)");
  sub->add_option("--top", args->top, "functions shown")->capture_default_str();
  sub->add_option("--warmup", args->warmup,
                  "warm-up rounds before the round explained (default: the results file's, "
                  "else 3)");
  sub->add_option("--format", args->format, "table or md")->capture_default_str();
  sub->add_option("--event", args->event,
                  "what to explain: Ir (instructions), l1_misses, ll_misses (profiles of "
                  "--cache-sim runs), branch_misses (--branch-sim), or one callgrind event (I1mr, "
                  "D1mr, D1mw, ILmr, DLmr, DLmw, Dr, Dw, Bc, Bcm, Bi, Bim); binaries and results "
                  "files measure with the simulator it needs")
      ->capture_default_str();
  sub->add_flag("--allocations", args->allocations,
                "where the round's allocations come from, site by site with counts and bytes "
                "(valgrind's DHAT), for one build (BUILD CASE) or between two; each side a "
                "moqbench binary or a results file");
  return [ctx, args]() {
    reports::OutputFormat format = reports::OutputFormat::kTable;
    if (args->format == "md") {
      format = reports::OutputFormat::kMarkdown;
    } else if (args->format != "table") {
      return bad_input(ctx, "explain", "--format '" + args->format + "': expected table or md");
    }
    if (!explain_event(args->event))
      return bad_input(ctx, "explain",
                       "--event '" + args->event +
                           "': expected Ir, l1_misses, ll_misses, branch_misses or a callgrind "
                           "event (I1mr, D1mr, D1mw, ILmr, DLmr, DLmw, Dr, Dw, Bc, Bcm, Bi, Bim)");
    if (args->allocations && args->event != "Ir")
      return bad_input(ctx, "explain",
                       "--event and --allocations explain different things: give "
                       "one of them");
    if (args->allocations) {
      AllocationsRequest request{args->base,   args->head, args->case_id,
                                 args->warmup, args->top,  format};
      // One build: its second positional is the case, when it names no file.
      if (request.case_id.empty() && !request.head.empty() && !fs::exists(request.head)) {
        request.case_id = request.head;
        request.head.clear();
      }
      return explain_allocations(ctx, request);
    }
    if (args->head.empty())
      return bad_input(ctx, "explain",
                       "HEAD is missing: give two builds or profiles (one build alone only with "
                       "--allocations)");
    Result<ExplainScratch> made = ExplainScratch::make();
    if (!made) return bad_input(ctx, "explain", made.error().message);
    const ExplainScratch scratch_dir = std::move(*made);
    const std::string& scratch = scratch_dir.dir();
    Result<Side> base = load_side(args->base, *args, "base", scratch);
    if (!base) return bad_input(ctx, "explain", base.error().message);
    Result<Side> head = load_side(args->head, *args, "head", scratch);
    if (!head) return bad_input(ctx, "explain", head.error().message);
    if (base->label == head->label) {
      base->label = "base";
      head->label = "head";
    }
    Explanation e = explain_profiles(base->profile, head->profile);
    if (args->event != "Ir") e.unit = args->event;
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
