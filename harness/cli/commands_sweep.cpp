// `moqbench sweep`: a grid of cases, a progress line on stderr, a table on stdout, JSON to --out.
// With no arguments: the default sweep (every scenario marked in_default_sweep over its default
// sweep values; fetch_frames over every implemented version x publishers {1,4} x viewers {1,16} x
// frames {4,256}). With --shard I/N, only shard I of the sweep's cases (harness/runner/shard.h).
// --filter/--exclude choose cases by id (case_filter.h); --save-baseline also keeps the results
// as a named baseline (baselines.h).
#include <filesystem>
#include <memory>

#include "harness/cli/baselines.h"
#include "harness/cli/case_filter.h"
#include "harness/cli/commands.h"
#include "harness/cli/results_folder.h"
#include "harness/runner/shard.h"
#include "harness/runner/summary.h"
#include "harness/runner/sweep_plan.h"

namespace moq::cli {

namespace {

struct SweepArgs {
  std::string scenarios;
  std::string benches;
  // Axis value lists with an option of their own: (option, axis, text).
  struct Named {
    const char* option;
    const char* axis;
    const char* help;
    std::string text;
  };
  std::vector<Named> named = {
      {"--versions", "version", "protocol versions, e.g. moq-lite-06,moq-lite-07-wip", {}},
      {"--publishers", "publishers", "publisher counts, e.g. 1,4", {}},
      {"--viewers", "viewers", "viewer counts, e.g. 1,16", {}},
      {"--frames", "frames", "frames per group, e.g. 4,256", {}},
      {"--burst", "burst", "groups per fetch (fetch_range), e.g. 1,8", {}},
  };
  std::vector<std::string> sets;  // AXIS=LIST, any axis
  std::string shard;              // "I/N"; empty: the whole sweep
  CaseFilter filter;              // --filter, --exclude
  std::string save_baseline;      // empty: none
  bool force = false;             // --save-baseline may replace an existing baseline
  bool list_only = false;
  MeasureOptions measure;
};

Result<harness::SweepRequest> make_request(const CLI::App& sub, const SweepArgs& args) {
  harness::SweepRequest request;
  if (sub.count("--scenario") > 0) {
    Result<std::vector<std::string>> items = harness::split_list(args.scenarios, "--scenario");
    if (!items) return items.error();
    request.scenarios = std::move(*items);
  }
  if (sub.count("--bench") > 0) {
    Result<std::vector<std::string>> items = harness::split_list(args.benches, "--bench");
    if (!items) return items.error();
    request.benches = std::move(*items);
  }
  for (const SweepArgs::Named& n : args.named) {
    if (sub.count(n.option) == 0) continue;
    Result<std::vector<std::string>> items = harness::split_list(n.text, n.option);
    if (!items) return items.error();
    request.axes.push_back({n.axis, std::move(*items), n.option});
  }
  for (const std::string& s : args.sets) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      return Error{0, "--set '" + s + "': expected axis=value[,value...]"};
    std::string axis = s.substr(0, eq);
    std::string source = "--set " + axis;
    for (const harness::AxisValues& a : request.axes)
      if (a.axis == axis) return Error{0, source + ": the axis '" + axis + "' is given twice"};
    Result<std::vector<std::string>> items = harness::split_list(s.substr(eq + 1), source);
    if (!items) return items.error();
    request.axes.push_back({axis, std::move(*items), source});
  }
  return request;
}

}  // namespace

Action add_sweep_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "sweep",
      "Measure a grid of cases: a progress line on stderr, a table on stdout, JSON to --out. "
      "With no arguments, the default sweep: fetch_frames over every implemented version x "
      "publishers {1,4} x viewers {1,16} x frames {4,256}. Without --out the results go to "
      "<results folder>/sweep-<UTC time>.json and <results folder>/latest.json is updated; the "
      "results folder is $MOQBENCH_RESULTS_DIR when set, else <build>/results next to this "
      "binary's build (the folder ./tools/bench fills), else ./results");
  auto args = std::make_shared<SweepArgs>();
  sub->add_option("--scenario", args->scenarios,
                  "scenarios, comma-separated (default: those in the default sweep)")
      ->type_name("LIST");
  sub->add_option("--bench", args->benches,
                  "benches: model, relay (default: every bench each "
                  "scenario runs on)")
      ->type_name("LIST");
  for (SweepArgs::Named& n : args->named)
    sub->add_option(n.option, n.text, n.help)->type_name("LIST");
  sub->add_option("--set", args->sets,
                  "AXIS=LIST for any axis, e.g. --set frame_size=64,1024 (repeatable)")
      ->type_name("AXIS=LIST");
  sub->add_option("--shard", args->shard,
                  "run shard I of N only: case k of the sweep (0-based) is in shard k mod N + 1; "
                  "`moqbench merge` joins the N results files")
      ->type_name("I/N");
  sub->add_option("--filter", args->filter.filter,
                  "keep only the cases whose id contains a match of this regular expression "
                  "(ECMAScript, like grep -E); applied before --shard, recorded in the plan")
      ->type_name("REGEX");
  sub->add_option("--exclude", args->filter.exclude,
                  "leave out the cases whose id contains a match of this regular expression")
      ->type_name("REGEX");
  CLI::Option* save = sub->add_option(
      "--save-baseline", args->save_baseline,
      "also keep the results as the named baseline (see `moqbench baselines`) once the sweep "
      "completed with every case measured; folder: $MOQBENCH_BASELINES_DIR, else "
      "./.moqbench/baselines");
  save->type_name("NAME");
  sub->add_flag("--force", args->force, "let --save-baseline replace a baseline of that name")
      ->needs(save);
  sub->add_flag("--list", args->list_only, "print the ids of the selected cases and exit");
  add_measure_options(*sub, args->measure);
  return [ctx, args, sub]() {
    Result<harness::SweepRequest> request = make_request(*sub, *args);
    if (!request) return bad_input(ctx, "sweep", request.error().message);
    Result<std::vector<harness::CaseSpec>> cases = harness::plan_sweep(*ctx.registry, *request);
    if (!cases) return bad_input(ctx, "sweep", cases.error().message);
    // The filter chooses the sweep's cases; shards then split what it kept.
    cases = filter_cases(*cases, args->filter);
    if (!cases) return bad_input(ctx, "sweep", cases.error().message);
    std::optional<results::ShardInfo> shard;
    if (sub->count("--shard") > 0) {
      Result<harness::ShardSpec> spec = harness::parse_shard(args->shard);
      if (!spec) return bad_input(ctx, "sweep", spec.error().message);
      harness::ShardPlan part = harness::select_shard(
          *cases, *spec, harness::RunOptions{args->measure.warmup, args->measure.rounds});
      *cases = std::move(part.cases);
      shard = std::move(part.info);
    }
    if (args->list_only) {
      for (const harness::CaseSpec& c : *cases)
        ctx.io->out << c.id() << '\n';
      return kExitOk;
    }
    const bool saving = sub->count("--save-baseline") > 0;
    if (saving) {
      if (Status st = check_can_save(args->save_baseline, args->force); !st)
        return bad_input(ctx, "sweep", st.error().message);
      // The baseline is copied from the results file once the sweep is done, so that file must
      // be one that can be read back.
      std::error_code ec;
      const std::string& out = args->measure.out;
      if (out == "-" || (!out.empty() && std::filesystem::exists(out, ec) &&
                         !std::filesystem::is_regular_file(out, ec)))
        return bad_input(ctx, "sweep",
                         "--save-baseline needs the results in a regular file: --out '" + out +
                             "' is not one (leave --out out, or name a file)");
    }
    // Nothing measured is thrown away: without --out the results go to a file of their own in
    // the results folder, and latest.json there follows the newest sweep.
    const bool default_out = args->measure.out.empty();
    if (default_out) {
      Result<std::string> path = timestamped_results_path(results_folder());
      if (!path) return bad_input(ctx, "sweep", "no --out given and " + path.error().message);
      args->measure.out = *path;
      ctx.io->err << "moqbench sweep: no --out given: the results go to " << *path
                  << " (and latest.json beside it)\n";
    }
    const int code = measure_cases(
        ctx, "sweep", args->measure, *cases,
        [&](const results::Meta&, const std::vector<results::CaseResult>& done) {
          // With --out - the results document owns stdout: the table goes to stderr.
          harness::print_sweep_table(args->measure.out == "-" ? ctx.io->err : ctx.io->out, done);
        },
        shard);
    if (default_out && std::filesystem::exists(args->measure.out)) {
      Result<std::string> latest = update_latest(args->measure.out);
      if (!latest) {
        ctx.io->err << "moqbench sweep: " << latest.error().message << '\n';
        return code == kExitOk ? kExitFailed : code;
      }
      ctx.io->err << "moqbench sweep: " << *latest << " now holds these results\n";
    }
    if (saving) {
      // Only a sweep that measured every planned case stands for a baseline.
      if (code != kExitOk) {
        ctx.io->err << "moqbench sweep: baseline '" << args->save_baseline
                    << "' not saved: the sweep did not measure every case\n";
        return code;
      }
      Result<std::string> saved = save_baseline(args->measure.out, args->save_baseline);
      if (!saved) {
        ctx.io->err << "moqbench sweep: baseline '" << args->save_baseline
                    << "' not saved: " << saved.error().message << '\n';
        return kExitFailed;
      }
      ctx.io->err << "moqbench sweep: saved as baseline '" << args->save_baseline << "' (" << *saved
                  << ")\n";
    }
    return code;
  };
}

}  // namespace moq::cli
