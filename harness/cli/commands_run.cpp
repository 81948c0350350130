// `moqbench run CASE-ID` or `moqbench run SCENARIO [--set axis=value ...]`: one case, measured,
// with a readable summary.
#include <memory>

#include "harness/cli/commands.h"
#include "harness/runner/case_builder.h"
#include "harness/runner/memory_check.h"
#include "harness/runner/summary.h"

namespace moq::cli {

namespace {

struct RunArgs {
  std::string target;
  std::vector<std::string> sets;
  std::string bench;
  MeasureOptions measure;
};

// A case id other than the canonical one still runs, but says what it filled in or rewrote and
// which id the results will carry.
void explain_id(std::ostream& err, const std::string& typed, const harness::CaseSpec& spec,
                const harness::CaseIdReading& reading) {
  if (spec.id() == typed) return;
  if (!reading.defaulted.empty()) {
    std::string list;
    for (const std::string& d : reading.defaulted)
      list += (list.empty() ? "" : ", ") + d;
    err << "moqbench run: filled in from the defaults: " << list << '\n';
  }
  for (const auto& [as_typed, canonical] : reading.respelled)
    err << "moqbench run: '" << as_typed << "' is written '" << canonical << "'\n";
  for (const std::string& hidden : reading.left_out)
    err << "moqbench run: '" << hidden << "' is the default, which the id leaves out\n";
  err << "moqbench run: running " << spec.id() << " (the canonical id of '" << typed << "')\n";
}

Result<harness::CaseSpec> resolve_case(const harness::ScenarioRegistry& registry,
                                       const RunArgs& args, std::ostream& err) {
  if (args.target.find('/') != std::string::npos) {
    if (!args.sets.empty() || !args.bench.empty())
      return Error{0, "--set and --bench go with a scenario name, not with a case id ('" +
                          args.target + "' names every axis already)"};
    harness::CaseIdReading reading;
    Result<harness::CaseSpec> spec = harness::parse_case_id(registry, args.target, &reading);
    if (spec) explain_id(err, args.target, *spec, reading);
    return spec;
  }
  Result<const harness::ScenarioDef*> scenario = harness::find_scenario(registry, args.target);
  if (!scenario) return scenario.error();
  std::vector<std::pair<std::string, std::string>> settings;
  for (const std::string& s : args.sets) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      return Error{0, "--set '" + s + "': expected axis=value"};
    settings.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  std::string bench = args.bench.empty() ? (*scenario)->benches.front() : args.bench;
  return harness::make_case_spec(registry, **scenario, bench, settings);
}

}  // namespace

Action add_run_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "run",
      "Measure one case: a case id (bench/scenario/version/axis=value/...) or a scenario "
      "name with --set axis=value for the axes that should not take their defaults");
  auto args = std::make_shared<RunArgs>();
  sub->add_option("case", args->target, "case id, or scenario name")->required();
  sub->add_option("--set", args->sets, "axis=value (repeatable), with a scenario name")
      ->type_name("AXIS=VALUE");
  sub->add_option("--bench", args->bench, "bench, with a scenario name (default: its first)");
  add_measure_options(*sub, args->measure);
  sub->add_option("--profile", args->measure.profile,
                  "keep the last measured round's callgrind profile (per function) in this file, "
                  "for `moqbench explain` or callgrind_annotate (needs --counter callgrind)");
  return [ctx, args]() {
    Result<harness::CaseSpec> spec = resolve_case(*ctx.registry, *args, ctx.io->err);
    if (!spec) return bad_input(ctx, "run", spec.error().message);
    std::vector<harness::CaseSpec> cases{std::move(*spec)};
    return measure_cases(
        ctx, "run", args->measure, cases,
        [&](const results::Meta& meta, const std::vector<results::CaseResult>& done) {
          // With --out - the results document owns stdout: the summary goes to stderr.
          std::ostream& table = args->measure.out == "-" ? ctx.io->err : ctx.io->out;
          for (const results::CaseResult& c : done)
            harness::print_case_summary(table, meta, c);
          // One case per process, so the process's peak is the case's (with the program's own
          // few MiB): what its memory estimate is checked against. Under callgrind the process
          // is valgrind, whose peak is not the case's.
          if (meta.counter_backend == results::CounterBackend::kCallgrind) return;
          if (std::optional<uint64_t> peak = harness::peak_resident_bytes())
            table << "peak memory " << *peak << " bytes (" << harness::format_bytes(*peak)
                  << "), this process's resident set at its largest\n";
        });
  };
}

}  // namespace moq::cli
