#include "harness/runner/case_builder.h"

#include <algorithm>
#include <charconv>

#include "model/wire/version.h"

namespace moq::harness {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

bool contains(const std::vector<std::string>& items, std::string_view s) {
  return std::find(items.begin(), items.end(), s) != items.end();
}

std::string quoted(std::string_view s) {
  return "'" + std::string(s) + "'";
}

}  // namespace

std::string axis_names(const ScenarioDef& scenario) {
  std::vector<std::string> names;
  for (const AxisSpec& a : scenario.axes)
    names.push_back(a.name);
  return names.empty() ? "none" : join(names);
}

Result<ParamValue> parse_axis_value(const ScenarioRegistry& registry, const AxisSpec& axis,
                                    std::string_view text) {
  switch (axis.kind) {
    case AxisKind::Version: {
      // Every spelling a command takes (an ALPN, draft-N), kept by the version's name.
      if (const std::optional<Version> v = parse_version_spelling(text)) text = version_name(*v);
      if (contains(registry.implemented_versions(), text)) return ParamValue(std::string(text));
      std::string implemented = registry.implemented_versions().empty()
                                    ? "none yet"
                                    : join(registry.implemented_versions());
      if (contains(registry.known_versions(), text))
        return Error{0, "version " + quoted(text) +
                            " is not implemented yet (implemented: " + implemented + ")"};
      return Error{0, "unknown version " + quoted(text) + " (implemented: " + implemented + ")"};
    }
    case AxisKind::Integer: {
      int64_t v = 0;
      const char* first = text.data();
      const char* last = text.data() + text.size();
      auto [ptr, ec] = std::from_chars(first, last, v);
      if (text.empty() || ec == std::errc::invalid_argument || ptr != last)
        return Error{0, "axis " + quoted(axis.name) + ": " + quoted(text) + " is not an integer"};
      if (ec == std::errc::result_out_of_range || v < axis.min || v > axis.max)
        return Error{0, "axis " + quoted(axis.name) + ": " + quoted(text) + " is outside " +
                            std::to_string(axis.min) + ".." + std::to_string(axis.max)};
      return ParamValue(v);
    }
    case AxisKind::Choice:
      if (contains(axis.choices, text)) return ParamValue(std::string(text));
      return Error{0, "axis " + quoted(axis.name) + ": " + quoted(text) + " is not one of " +
                          join(axis.choices)};
  }
  return Error{0, "axis " + quoted(axis.name) + ": unknown kind"};
}

ParamValue axis_default(const ScenarioRegistry& registry, const AxisSpec& axis) {
  switch (axis.kind) {
    case AxisKind::Version:
      return ParamValue(registry.swept_versions().empty() ? std::string()
                                                          : registry.swept_versions().front());
    case AxisKind::Integer:
      return ParamValue(axis.default_int);
    case AxisKind::Choice:
      return ParamValue(axis.default_text);
  }
  return ParamValue(int64_t{0});
}

std::vector<ParamValue> axis_sweep_values(const ScenarioRegistry& registry, const AxisSpec& axis) {
  std::vector<ParamValue> values;
  switch (axis.kind) {
    case AxisKind::Version:
      for (const std::string& v : registry.swept_versions())
        values.emplace_back(v);
      return values;
    case AxisKind::Integer:
      for (int64_t v : axis.sweep_ints)
        values.emplace_back(v);
      break;
    case AxisKind::Choice:
      for (const std::string& v : axis.sweep_texts)
        values.emplace_back(v);
      break;
  }
  if (values.empty()) values.push_back(axis_default(registry, axis));
  return values;
}

Result<const ScenarioDef*> find_scenario(const ScenarioRegistry& registry, std::string_view name) {
  if (const ScenarioDef* s = registry.find(name)) return s;
  return Error{
      0, "unknown scenario " + quoted(name) + " (scenarios: " + registry.scenario_names() + ")"};
}

Status check_bench(const ScenarioDef& scenario, std::string_view bench) {
  if (std::find(results::kBenches.begin(), results::kBenches.end(), bench) ==
      results::kBenches.end()) {
    std::vector<std::string> known(results::kBenches.begin(), results::kBenches.end());
    return Error{0, "unknown bench " + quoted(bench) + " (benches: " + join(known) + ")"};
  }
  if (!scenario.runs_on(bench))
    return Error{0, "scenario " + quoted(scenario.name) + " does not run on bench " +
                        quoted(bench) + " (it runs on: " + join(scenario.benches) + ")"};
  return {};
}

Result<std::vector<std::string>> split_list(std::string_view text, std::string_view option) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (item.empty())
      return Error{0, std::string(option) + ": malformed list " + quoted(text) +
                          " (an empty item; write values separated by commas, e.g. 1,4)"};
    if (contains(items, item))
      return Error{0, std::string(option) + ": malformed list " + quoted(text) + " (" +
                          quoted(item) + " appears twice)"};
    items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

Result<CaseSpec> make_case_spec(const ScenarioRegistry& registry, const ScenarioDef& scenario,
                                std::string bench,
                                const std::vector<std::pair<std::string, std::string>>& settings) {
  if (Status st = check_bench(scenario, bench); !st) return st.error();
  for (size_t i = 0; i < settings.size(); ++i) {
    const AxisSpec* axis = scenario.find_axis(settings[i].first);
    if (!axis)
      return Error{0, "scenario " + quoted(scenario.name) + " has no axis " +
                          quoted(settings[i].first) + " (its axes: " + axis_names(scenario) + ")"};
    if (!axis->on_bench(bench))
      return Error{0, "axis " + quoted(axis->name) + " of scenario " + quoted(scenario.name) +
                          " exists on bench " + join(axis->benches) + " only, not on " +
                          quoted(bench)};
    for (size_t j = 0; j < i; ++j)
      if (settings[j].first == settings[i].first)
        return Error{0, "axis " + quoted(settings[i].first) + " is set twice"};
  }
  std::string version(kNoVersion);
  std::vector<Param> values;
  for (const AxisSpec& axis : scenario.axes) {
    if (!axis.on_bench(bench)) continue;
    ParamValue value = axis_default(registry, axis);
    for (const auto& [name, text] : settings) {
      if (name != axis.name) continue;
      Result<ParamValue> parsed = parse_axis_value(registry, axis, text);
      if (!parsed) return parsed.error();
      value = std::move(*parsed);
    }
    if (axis.kind == AxisKind::Version) {
      version = std::get<std::string>(value);
      if (version.empty())
        return Error{0, "scenario " + quoted(scenario.name) +
                            " needs a protocol version and none is implemented yet"};
    } else {
      values.push_back(Param{axis.name, std::move(value)});
    }
  }
  CaseSpec spec(scenario, std::move(bench), std::move(version), std::move(values));
  if (scenario.check_axes) {
    if (Status st = scenario.check_axes(spec); !st)
      return Error{0, "case " + spec.id() + " is refused: " + st.error().message};
  }
  return spec;
}

namespace {

// What parse_case_id tells its caller: each typed setting against the canonical id.
CaseIdReading read_against_canonical(
    const CaseSpec& spec, const std::vector<std::pair<std::string, std::string>>& settings) {
  CaseIdReading reading;
  const std::vector<Param> shown = spec.id_params();
  for (const Param& p : shown) {
    const bool typed = std::any_of(settings.begin(), settings.end(),
                                   [&](const auto& s) { return s.first == p.name; });
    if (!typed) reading.defaulted.push_back(p.name + "=" + results::param_value_text(p.value));
  }
  for (const std::pair<std::string, std::string>& setting : settings) {
    // Named, not bound: clang 14 (Debian 12's clang-tidy) cannot capture a structured binding.
    const std::string& name = setting.first;
    const std::string& text = setting.second;
    if (name == kVersionAxis) continue;
    const auto in_id =
        std::find_if(shown.begin(), shown.end(), [&](const Param& p) { return p.name == name; });
    if (in_id == shown.end()) {
      reading.left_out.push_back(name + "=" + text);
    } else if (const std::string canonical = results::param_value_text(in_id->value);
               canonical != text) {
      reading.respelled.emplace_back(name + "=" + text, name + "=" + canonical);
    }
  }
  return reading;
}

}  // namespace

Result<CaseSpec> parse_case_id(const ScenarioRegistry& registry, std::string_view id,
                               CaseIdReading* reading) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t slash = id.find('/', start);
    parts.push_back(id.substr(start, slash == std::string_view::npos ? slash : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (parts.size() < 3)
    return Error{
        0, "case id " + quoted(id) + " is not of the form bench/scenario/version/axis=value/..."};
  Result<const ScenarioDef*> scenario = find_scenario(registry, parts[1]);
  if (!scenario) return scenario.error();
  const ScenarioDef& def = **scenario;
  std::vector<std::pair<std::string, std::string>> settings;
  if (def.has_version()) {
    settings.emplace_back(std::string(kVersionAxis), std::string(parts[2]));
  } else if (parts[2] != kNoVersion) {
    return Error{0, "case id " + quoted(id) + ": scenario " + quoted(def.name) +
                        " has no version axis, so its version segment is 'none', not " +
                        quoted(parts[2])};
  }
  for (size_t i = 3; i < parts.size(); ++i) {
    size_t eq = parts[i].find('=');
    if (eq == std::string_view::npos || eq == 0)
      return Error{0, "case id " + quoted(id) + ": segment " + quoted(parts[i]) +
                          " is not of the form axis=value"};
    std::string axis(parts[i].substr(0, eq));
    if (axis == kVersionAxis)
      return Error{0, "case id " + quoted(id) +
                          ": the version goes in the third segment, not as version=..."};
    settings.emplace_back(std::move(axis), std::string(parts[i].substr(eq + 1)));
  }
  Result<CaseSpec> spec = make_case_spec(registry, def, std::string(parts[0]), settings);
  if (spec && reading) *reading = read_against_canonical(*spec, settings);
  return spec;
}

Result<std::vector<CaseSpec>> expand_grid(const ScenarioRegistry& registry,
                                          const ScenarioDef& scenario, const std::string& bench,
                                          const std::vector<AxisValues>& overrides) {
  if (Status st = check_bench(scenario, bench); !st) return st.error();
  for (const AxisValues& o : overrides) {
    if (!scenario.find_axis(o.axis))
      return Error{0, o.source + ": scenario " + quoted(scenario.name) + " has no axis " +
                          quoted(o.axis) + " (its axes: " + axis_names(scenario) + ")"};
  }
  // The value texts of every axis, checked here so that an error names the option it came from.
  // The axes on this bench; an override of an axis of another bench applies there only.
  std::vector<const AxisSpec*> axes;
  for (const AxisSpec& axis : scenario.axes)
    if (axis.on_bench(bench)) axes.push_back(&axis);
  std::vector<std::vector<std::string>> texts;
  for (const AxisSpec* axis_on_bench : axes) {
    const AxisSpec& axis = *axis_on_bench;
    std::vector<std::string> values;
    const AxisValues* given = nullptr;
    for (const AxisValues& o : overrides)
      if (o.axis == axis.name) given = &o;
    if (given) {
      for (const std::string& t : given->texts) {
        Result<ParamValue> parsed = parse_axis_value(registry, axis, t);
        if (!parsed) return Error{0, given->source + ": " + parsed.error().message};
        values.push_back(t);
      }
    } else {
      for (const ParamValue& v : axis_sweep_values(registry, axis))
        values.push_back(results::param_value_text(v));
      if (axis.kind == AxisKind::Version && values.empty())
        return std::vector<CaseSpec>{};  // no implemented version: no case
    }
    texts.push_back(std::move(values));
  }
  std::vector<CaseSpec> cases;
  std::vector<size_t> index(texts.size(), 0);
  while (true) {
    std::vector<std::pair<std::string, std::string>> settings;
    for (size_t a = 0; a < texts.size(); ++a)
      settings.emplace_back(axes[a]->name, texts[a][index[a]]);
    Result<CaseSpec> spec = make_case_spec(registry, scenario, bench, settings);
    if (!spec) return spec.error();
    cases.push_back(std::move(*spec));
    // Odometer: the last axis varies fastest.
    size_t a = texts.size();
    while (a > 0) {
      --a;
      if (++index[a] < texts[a].size()) break;
      index[a] = 0;
      if (a == 0) return cases;
    }
    if (texts.empty()) return cases;
  }
}

}  // namespace moq::harness
