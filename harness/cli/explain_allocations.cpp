#include "harness/cli/explain_allocations.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>

#include "harness/cli/allocation_sites.h"
#include "harness/cli/explain_build.h"
#include "harness/cli/spawn_logged.h"
#include "harness/counters/callgrind_launch.h"
#include "reports/schema/results_file.h"

namespace moq::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kWrapperLibrary = "libmoq_dhat_round.so";
// Backtrace depth: enough to get past the allocator, a container and a few of its callers.
constexpr const char* kNumCallers = "--num-callers=32";

struct Measured {
  std::string label;
  std::string case_id;
  RoundAllocations round;
  std::string warning;  // the round differs from the one a results file recorded
};

// A failure of the measurement (exit 1) or of the input (exit 2).
struct Failure {
  bool bad_input;
  std::string message;
};

// The wrapper library beside this program (both are built into one folder).
Result<std::string> wrapper_library() {
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return Error{0, "cannot find this program (no /proc/self/exe)"};
  const fs::path lib =
      fs::path(std::string(self, static_cast<size_t>(n))).parent_path() / kWrapperLibrary;
  if (!fs::is_regular_file(lib))
    return Error{0, "no " + lib.string() +
                        ": this moqbench was built without its DHAT wrapper (build the "
                        "moq_dhat_round target)"};
  return lib.string();
}

std::optional<Failure> measure(const std::string& arg, const std::string& role,
                               const AllocationsRequest& r, const std::string& valgrind,
                               const std::string& wrapper, const std::string& scratch,
                               Measured& out) {
  if (fs::is_regular_file(arg) && read_log(arg).rfind("# callgrind format", 0) == 0)
    return Failure{true, role + " '" + arg +
                             "' is a callgrind profile, which holds no allocation sites: give a "
                             "moqbench binary or a results file"};
  Result<ExplainBuild> build = resolve_explain_build(arg, role, r.case_id, r.warmup);
  if (!build) return Failure{true, build.error().message};
  out.label = build->label;
  out.case_id = build->case_id;
  const std::string dhat_out = scratch + "/" + role + ".dhat.json";
  const std::string run_out = scratch + "/" + role + ".run.json";
  const std::string log = scratch + "/" + role + ".log";
  const char* preload = getenv("LD_PRELOAD");
  const std::string preload_value =
      wrapper + (preload != nullptr && preload[0] != '\0' ? std::string(":") + preload : "");
  Result<int> rc = spawn_logged(
      {valgrind, "--tool=dhat", "--mode=ad-hoc", "--soname-synonyms=somalloc=nouserintercepts",
       kNumCallers, "--vgdb=no", "-q", "--dhat-out-file=" + dhat_out, build->binary, "run",
       build->case_id, "--counter", "none", "--rounds", "1", "--warmup",
       std::to_string(build->warmup), "--out", run_out},
      {"LD_PRELOAD=" + preload_value}, log);
  if (!rc) return Failure{false, rc.error().message};
  const std::string text = read_log(log);
  if (text.find("failed to start tool 'dhat'") != std::string::npos)
    return Failure{true, "valgrind's DHAT is not available (" + valgrind +
                             " could not start --tool=dhat): install a valgrind with DHAT "
                             "(Debian's 'valgrind' has it)\n" +
                             text};
  if (*rc == 2)
    return Failure{true, build->binary + " refused case " + build->case_id + ":\n" + text};
  if (*rc != 0)
    return Failure{false,
                   build->binary + " run " + build->case_id + " under DHAT failed:\n" + text};
  Result<RoundAllocations> round = parse_dhat_round(read_log(dhat_out), dhat_out);
  if (!round) return Failure{false, round.error().message};
  if (round->rounds_marked != 1)
    return Failure{true, build->binary + " marked " + std::to_string(round->rounds_marked) +
                             " measured rounds where it ran one: a moqbench built before "
                             "explain --allocations cannot say where its allocations come from"};
  // What the run counted itself in the round: the sites must add up to it exactly.
  results::Result<results::ResultsFile> counted = results::read_results_file(run_out);
  if (!counted) return Failure{false, counted.error().message};
  const results::CaseResult& c = counted->cases.at(0);
  if (!c.metrics.allocations || c.metrics.allocations->samples.size() != 1)
    return Failure{false, run_out + ": no allocation count of the measured round"};
  const uint64_t own = c.metrics.allocations->samples[0];
  if (own != round->allocations)
    return Failure{false, "DHAT saw " + std::to_string(round->allocations) +
                              " allocations in the measured round where " + build->binary +
                              " counted " + std::to_string(own)};
  if (build->recorded_allocations && *build->recorded_allocations != own)
    out.warning = out.label + ": the round measured now made " + std::to_string(own) +
                  " allocations, the results file's first measured round " +
                  std::to_string(*build->recorded_allocations) + ": was the binary rebuilt since?";
  out.round = std::move(*round);
  return std::nullopt;
}

}  // namespace

int explain_allocations(const CliContext& ctx, const AllocationsRequest& r) {
  const std::string sub = "explain --allocations";
  Result<std::string> valgrind = counters::find_valgrind();
  if (!valgrind) return bad_input(ctx, sub, "DHAT is not available: " + valgrind.error().message);
  Result<std::string> wrapper = wrapper_library();
  if (!wrapper) return bad_input(ctx, sub, wrapper.error().message);
  Result<ExplainScratch> made = ExplainScratch::make();
  if (!made) return bad_input(ctx, sub, made.error().message);
  const ExplainScratch scratch_dir = std::move(*made);
  const std::string& scratch = scratch_dir.dir();

  std::vector<Measured> sides;
  for (const auto& [arg, role] : {std::pair{r.base, "base"}, std::pair{r.head, "head"}}) {
    if (arg.empty()) continue;
    Measured m;
    if (std::optional<Failure> f = measure(arg, role, r, *valgrind, *wrapper, scratch, m)) {
      if (f->bad_input) return bad_input(ctx, sub, f->message);
      ctx.io->err << "moqbench " << sub << ": " << f->message << '\n';
      return kExitFailed;
    }
    if (!m.warning.empty()) ctx.io->err << "moqbench " << sub << ": " << m.warning << '\n';
    sides.push_back(std::move(m));
  }
  if (sides.size() == 1) {
    ctx.io->out << render_round_allocations(sides[0].case_id, sides[0].label, sides[0].round, r.top,
                                            r.format);
  } else {
    if (sides[0].label == sides[1].label) {
      sides[0].label = "base";
      sides[1].label = "head";
    }
    const std::string case_id = !r.case_id.empty() ? r.case_id : sides[1].case_id;
    ctx.io->out << render_allocation_changes(case_id, sides[0].label, sides[0].round,
                                             sides[1].label, sides[1].round, r.top, r.format);
  }
  return ctx.io->out ? kExitOk : kExitFailed;
}

}  // namespace moq::cli
