// `moqbench list`: the scenarios, their axes (kind, default, allowed values, default-sweep values)
// and the protocol versions.
#include <memory>

#include "harness/cli/commands.h"
#include "harness/runner/case_builder.h"

namespace moq::cli {

namespace {

std::string join_values(const std::vector<results::ParamValue>& values) {
  std::string out;
  for (const results::ParamValue& v : values) {
    if (!out.empty()) out += ",";
    out += results::param_value_text(v);
  }
  return out;
}

std::string allowed_text(const harness::ScenarioRegistry& registry, const harness::AxisSpec& a) {
  switch (a.kind) {
    case harness::AxisKind::Version:
      return registry.implemented_versions().empty() ? "(none implemented yet)"
                                                     : join(registry.implemented_versions(), ",");
    case harness::AxisKind::Integer:
      return std::to_string(a.min) + ".." + std::to_string(a.max);
    case harness::AxisKind::Choice:
      return join(a.choices, ",");
  }
  return "";
}

void print_scenario(std::ostream& out, const harness::ScenarioRegistry& registry,
                    const harness::ScenarioDef& s) {
  out << s.name << "  (bench: " << join(s.benches) << "; "
      << (s.in_default_sweep ? "in the default sweep" : "not in the default sweep") << ")\n";
  out << "  " << s.summary << '\n';
  if (s.axes.empty()) {
    out << "  axes: none; case id " << s.benches.front() << '/' << s.name << '/'
        << harness::kNoVersion << '\n';
    return;
  }
  size_t w = 4;
  for (const harness::AxisSpec& a : s.axes)
    w = std::max(w, a.name.size());
  for (const harness::AxisSpec& a : s.axes) {
    std::string def = results::param_value_text(harness::axis_default(registry, a));
    out << "  " << a.name << std::string(w - a.name.size() + 2, ' ') << a.help << "\n"
        << "  " << std::string(w + 2, ' ') << harness::axis_kind_name(a.kind) << ", default "
        << (def.empty() ? "-" : def) << ", allowed " << allowed_text(registry, a) << ", sweep "
        << join_values(harness::axis_sweep_values(registry, a));
    if (!a.id_when_default) out << " (in the case id only when not " << def << ")";
    if (!a.benches.empty()) out << " (bench " << join(a.benches) << " only)";
    out << '\n';
  }
}

}  // namespace

Action add_list_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "list",
      "List the scenarios, their axes (defaults, allowed and default-sweep values) and "
      "the protocol versions");
  auto scenario = std::make_shared<std::string>();
  sub->add_option("scenario", *scenario, "show this scenario only");
  return [ctx, scenario]() {
    const harness::ScenarioRegistry& registry = *ctx.registry;
    std::ostream& out = ctx.io->out;
    if (!scenario->empty()) {
      Result<const harness::ScenarioDef*> s = harness::find_scenario(registry, *scenario);
      if (!s) return bad_input(ctx, "list", s.error().message);
      print_scenario(out, registry, **s);
      return kExitOk;
    }
    // An interop-only version is marked: it runs when named, never by default.
    std::vector<std::string> implemented;
    for (const std::string& v : registry.implemented_versions())
      implemented.push_back(registry.is_interop_only(v) ? v + " (interop only)" : v);
    out << "versions: implemented " << (implemented.empty() ? "none yet" : join(implemented))
        << "; known " << join(registry.known_versions()) << "\n\n";
    for (const auto& s : registry.scenarios()) {
      print_scenario(out, registry, *s);
      out << '\n';
    }
    out << "Case ids: bench/scenario/version/axis=value/... (version 'none' for scenarios "
           "without a version axis).\n";
    return kExitOk;
  };
}

}  // namespace moq::cli
