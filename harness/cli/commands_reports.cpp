// `moqbench compare | gate | report | merge`: the CLI side of the reports library
// (reports/commands.h, reports/README.md). Only argument parsing lives here; the reports do the
// rest and return the exit status (0 ok, 1 output not written, 2 bad input, 3 gate: regressed;
// merge: incomplete).
#include <memory>

#include "harness/cli/baselines.h"
#include "harness/cli/commands.h"
#include "reports/commands.h"
#include "reports/figures.h"
#include "reports/limits.h"

namespace moq::cli {

namespace {

// Parses --format into `format`; an unknown name is bad input naming it.
bool parse_format(const CliContext& ctx, const std::string& sub, const std::string& text,
                  reports::OutputFormat& format, int& status) {
  reports::Result<reports::OutputFormat> f = reports::parse_output_format(text);
  if (!f) {
    status = bad_input(ctx, sub, "--format: " + f.error().message);
    return false;
  }
  format = *f;
  return true;
}

// --baseline NAME: the baseline's file put first, as BASE, in front of the files given. False
// (with `status` set) when the name is bad or unknown.
bool put_baseline_first(const CliContext& ctx, const std::string& sub, const CLI::App& app,
                        const std::string& name, std::vector<std::string>& files, int& status) {
  if (app.count("--baseline") == 0) return true;
  Result<std::string> path = find_baseline(name);
  if (!path) {
    status = bad_input(ctx, sub, path.error().message);
    return false;
  }
  files.insert(files.begin(), *path);
  return true;
}

constexpr const char* kBaselineHelp =
    "use the named baseline (`moqbench baselines`) as BASE, in place of the first file";

}  // namespace

Action add_compare_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "compare",
      "Compare results files case by case (matched by id): instructions as % change against the "
      "first file, allocations before -> after, NEW and REMOVED cases");
  struct Args {
    reports::CompareCommand command;
    std::string format = "table";
    std::string baseline;
  };
  auto args = std::make_shared<Args>();
  sub->add_option("files", args->command.files,
                  "BASE.json HEAD.json [MORE.json...] (without BASE.json with --baseline)")
      ->required()
      ->expected(1, -1);
  sub->add_option("--baseline", args->baseline, kBaselineHelp)->type_name("NAME");
  sub->add_option("--format", args->format, "table, md, csv or json")->capture_default_str();
  sub->footer(
      "Rows: regressed cases first, then improved, within noise, unchanged; each group by the "
      "size of the change (the last file against the first), largest first. The last line sums "
      "them up with the geometric mean of the ratios.");
  return [ctx, args, sub]() {
    int status = kExitOk;
    if (!parse_format(ctx, "compare", args->format, args->command.format, status)) return status;
    if (!put_baseline_first(ctx, "compare", *sub, args->baseline, args->command.files, status))
      return status;
    return reports::run_compare(args->command, ctx.io->out, ctx.io->err);
  };
}

Action add_gate_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "gate",
      "Check HEAD against BASE with limits. Exit codes: 0 passed; 1 output not written; 2 bad "
      "input; 3 a case regressed (instructions above the % limit, allocations above the "
      "absolute limit, or a case failing in HEAD); 4 HEAD's run was interrupted or never finished "
      "(its meta.run); 5 cases of BASE missing from HEAD (see --allow-removed); 6 no case in "
      "common; 7 instructions compared but not measured (--counter none: use --metric "
      "allocations). When several apply: 7, 6, 4, 5, then 3");
  struct Args {
    reports::GateCommand command;
    std::string format = "table";
    // Taken as text and read by the reports library, which refuses what an unsigned conversion
    // would wrap around ("-1" must not become 2^64 - 1 and turn the allocation gate off).
    std::string max_instructions_regression = "1";
    std::string max_allocations_increase = "0";
    std::string growth_metric = "instructions";
    std::vector<std::string> files;  // BASE HEAD, or HEAD with --baseline
    std::string baseline;
  };
  auto args = std::make_shared<Args>();
  sub->add_option("files", args->files, "BASE.json HEAD.json (HEAD.json alone with --baseline)")
      ->required()
      ->expected(1, 2);
  sub->add_option("--baseline", args->baseline, kBaselineHelp)->type_name("NAME");
  sub->add_option("--max-instructions-regression", args->max_instructions_regression,
                  "percent of instructions a case may grow by (a number >= 0)")
      ->capture_default_str();
  sub->add_option("--max-allocations-increase", args->max_allocations_increase,
                  "allocations per round a case may grow by (a whole number >= 0)")
      ->capture_default_str();
  sub->add_option("--overrides", args->command.overrides_file,
                  "per-case limits (reports/README.md for the syntax)");
  sub->add_flag("--fail-on-removed", args->command.fail_on_removed,
                "accepted and ignored: a case of BASE missing from HEAD always fails the gate "
                "(exit 5) unless --allow-removed");
  sub->add_flag(
      "--allow-removed", args->command.allow_removed,
      "accept cases of BASE that HEAD's recorded plan (its sweep's options, filter or shard) left "
      "out on purpose; "
      "cases HEAD planned and did not measure, or a HEAD with no plan, still fail");
  sub->add_option("--metric", args->command.metrics,
                  "metrics compared, comma-separated: instructions, allocations (allocations "
                  "alone for files measured with --counter none); also l1_misses, ll_misses "
                  "(--cache-sim) and branch_misses (--branch-sim), held to the instructions' "
                  "percentage")
      ->capture_default_str();
  sub->add_option("--growth", args->command.growth_bounds,
                  "SCENARIO/AXIS=O(...) (repeatable): HEAD's cost along the axis may grow at most "
                  "this fast (see `moqbench fit`)")
      ->type_name("BOUND");
  sub->add_option("--growth-metric", args->growth_metric,
                  "what --growth fits: instructions, allocations or allocation_bytes")
      ->capture_default_str();
  sub->add_option("--format", args->format, "table, md, csv or json")->capture_default_str();
  return [ctx, args, sub]() {
    int status = kExitOk;
    if (!parse_format(ctx, "gate", args->format, args->command.format, status)) return status;
    const bool named = sub->count("--baseline") > 0;
    if (args->files.size() != (named ? 1u : 2u))
      return bad_input(ctx, "gate",
                       named ? "with --baseline NAME give HEAD.json alone, got " +
                                   std::to_string(args->files.size()) + " files"
                             : "give BASE.json and HEAD.json (or --baseline NAME and HEAD.json)");
    if (!put_baseline_first(ctx, "gate", *sub, args->baseline, args->files, status)) return status;
    args->command.base = args->files[0];
    args->command.head = args->files[1];
    reports::Result<double> pct = reports::parse_instructions_limit(
        args->max_instructions_regression, "--max-instructions-regression");
    if (!pct) return bad_input(ctx, "gate", pct.error().message);
    reports::Result<uint64_t> count = reports::parse_allocations_limit(
        args->max_allocations_increase, "--max-allocations-increase");
    if (!count) return bad_input(ctx, "gate", count.error().message);
    reports::Result<reports::FitMetric> metric = reports::parse_fit_metric(args->growth_metric);
    if (!metric) return bad_input(ctx, "gate", "--growth-metric: " + metric.error().message);
    args->command.growth_metric = *metric;
    args->command.max_instructions_regression = *pct;
    args->command.max_allocations_increase = *count;
    return reports::run_gate(args->command, ctx.io->out, ctx.io->err);
  };
}

Action add_fit_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "fit",
      "Fit cost against one axis of a sweep: per series of cases that differ only in the axis, "
      "the log-log slope and the nearest of O(1), O(log n), O(n), O(n log n), O(n^2), O(n^3) "
      "with its residual; exit 3 when a series grows faster than --max");
  struct Args {
    reports::FitCommand command;
    std::string metric = "instructions";
    std::string max;
    std::string format = "table";
  };
  auto args = std::make_shared<Args>();
  sub->add_option("file", args->command.file, "RESULTS.json")->required();
  sub->add_option("--axis", args->command.request.axis, "the axis n (numeric)")->required();
  sub->add_option("--scenario", args->command.request.scenario,
                  "only this scenario's cases (default: every case with the axis)");
  sub->add_option("--metric", args->metric, "instructions, allocations or allocation_bytes")
      ->capture_default_str();
  sub->add_option("--max", args->max, "the growth allowed, e.g. 'O(n)'");
  sub->add_option("--format", args->format, "table, md, csv or json")->capture_default_str();
  return [ctx, args]() {
    int status = kExitOk;
    if (!parse_format(ctx, "fit", args->format, args->command.format, status)) return status;
    reports::Result<reports::FitMetric> metric = reports::parse_fit_metric(args->metric);
    if (!metric) return bad_input(ctx, "fit", "--metric: " + metric.error().message);
    args->command.request.metric = *metric;
    if (!args->max.empty()) {
      reports::Result<reports::Growth> max = reports::parse_growth(args->max);
      if (!max) return bad_input(ctx, "fit", "--max: " + max.error().message);
      args->command.max = *max;
    }
    return reports::run_fit(args->command, ctx.io->out, ctx.io->err);
  };
}

Action add_report_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "report",
      "Write a self-contained HTML page (tables and SVG charts) and/or a Markdown summary of "
      "results files");
  auto command = std::make_shared<reports::ReportCommand>();
  auto baseline = std::make_shared<std::string>();
  sub->add_option("files", command->files, "FILE.json... (may be none with --baseline)")
      ->expected(0, -1);
  sub->add_option("--baseline", *baseline, kBaselineHelp)->type_name("NAME");
  sub->add_option("--html", command->html_out, "write the HTML page here");
  sub->add_flag("--md", command->markdown, "print the Markdown summary (also without --html)");
  return [ctx, command, baseline, sub]() {
    int status = kExitOk;
    if (!put_baseline_first(ctx, "report", *sub, *baseline, command->files, status)) return status;
    if (command->files.empty())
      return bad_input(ctx, "report", "give one or more results files (or --baseline NAME)");
    return reports::run_report(*command, ctx.io->out, ctx.io->err);
  };
}

Action add_merge_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "merge",
      "Join the results files of a sweep's shards (sweep --shard I/N) into one, in the sweep's "
      "order; refuses shards of different sweeps, builds or counters; exit 3 when cases are "
      "missing or duplicated (the merged file is still written)");
  auto command = std::make_shared<reports::MergeCommand>();
  sub->add_option("files", command->files, "SHARD.json...")->required()->expected(1, -1);
  sub->add_option("--out", command->out, "the merged results file")->required();
  return [ctx, command]() { return reports::run_merge(*command, ctx.io->out, ctx.io->err); };
}

Action add_figures_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "figures",
      "Rewrite the READMEs' generated figures (the blocks between <!-- figures:NAME begin/end "
      "--> lines) from the committed results files (tests/gate/baseline.json, "
      "tests/gate/figures-*.json); --check writes nothing and exits 3 naming each block that "
      "differs. Exit 2: a results file, README, case or marker missing");
  auto command = std::make_shared<reports::FiguresCommand>();
  sub->add_option("--root", command->root, "the repository")->capture_default_str();
  sub->add_flag("--check", command->check, "compare only: exit 3 when a block differs");
  return [ctx, command]() { return reports::run_figures(*command, ctx.io->out, ctx.io->err); };
}

}  // namespace moq::cli
