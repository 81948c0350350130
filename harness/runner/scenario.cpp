#include "harness/runner/scenario.h"

#include <algorithm>

namespace moq::harness {

namespace {

// The rule FORMAT.md sets for scenario names, axis names and string values: non-empty, and no
// '/', '=', whitespace or control characters, so that an id splits back into its parts.
bool is_id_word(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '/' || c == '=' || c == ',' || u <= 0x20 || u == 0x7f) return false;
  }
  return true;
}

}  // namespace

const char* axis_kind_name(AxisKind kind) {
  switch (kind) {
    case AxisKind::Version:
      return "version";
    case AxisKind::Integer:
      return "integer";
    case AxisKind::Choice:
      return "choice";
  }
  return "?";
}

AxisSpec AxisSpec::version() {
  AxisSpec a;
  a.name = std::string(kVersionAxis);
  a.kind = AxisKind::Version;
  a.help = "protocol version";
  return a;
}

AxisSpec AxisSpec::integer(std::string name, std::string help, int64_t default_value, int64_t min,
                           int64_t max, std::vector<int64_t> sweep) {
  AxisSpec a;
  a.name = std::move(name);
  a.kind = AxisKind::Integer;
  a.help = std::move(help);
  a.default_int = default_value;
  a.min = min;
  a.max = max;
  a.sweep_ints = std::move(sweep);
  return a;
}

AxisSpec AxisSpec::choice(std::string name, std::string help, std::vector<std::string> choices,
                          std::vector<std::string> sweep) {
  AxisSpec a;
  a.name = std::move(name);
  a.kind = AxisKind::Choice;
  a.help = std::move(help);
  a.choices = std::move(choices);
  if (!a.choices.empty()) a.default_text = a.choices.front();
  a.sweep_texts = std::move(sweep);
  return a;
}

const AxisSpec* ScenarioDef::find_axis(std::string_view axis) const {
  for (const AxisSpec& a : axes)
    if (a.name == axis) return &a;
  return nullptr;
}

const AxisSpec* ScenarioDef::find_axis(std::string_view axis, std::string_view bench) const {
  const AxisSpec* a = find_axis(axis);
  return a && a->on_bench(bench) ? a : nullptr;
}

bool AxisSpec::on_bench(std::string_view bench) const {
  return benches.empty() || std::find(benches.begin(), benches.end(), bench) != benches.end();
}

bool ScenarioDef::runs_on(std::string_view bench) const {
  return std::find(benches.begin(), benches.end(), bench) != benches.end();
}

int64_t CaseSpec::integer(std::string_view axis) const {
  for (const Param& p : values_)
    if (p.name == axis) {
      if (const int64_t* v = std::get_if<int64_t>(&p.value)) return *v;
    }
  return 0;
}

const std::string& CaseSpec::text(std::string_view axis) const {
  static const std::string kEmpty;
  for (const Param& p : values_)
    if (p.name == axis) {
      if (const std::string* v = std::get_if<std::string>(&p.value)) return *v;
    }
  return kEmpty;
}

std::vector<Param> CaseSpec::id_params() const {
  std::vector<Param> shown;
  for (const Param& p : values_) {
    const AxisSpec* axis = scenario_->find_axis(p.name);
    if (axis && !axis->id_when_default) {
      bool is_default = axis->kind == AxisKind::Integer ? p.value == ParamValue(axis->default_int)
                                                        : p.value == ParamValue(axis->default_text);
      if (is_default) continue;
    }
    shown.push_back(p);
  }
  return shown;
}

std::string CaseSpec::id() const {
  return results::make_case_id(bench_, scenario_->name, version_, id_params());
}

void ScenarioRegistry::set_versions(std::vector<std::string> implemented,
                                    std::vector<std::string> known,
                                    std::vector<std::string> interop_only) {
  for (const std::string& v : implemented)
    if (std::find(known.begin(), known.end(), v) == known.end()) known.push_back(v);
  swept_.clear();
  for (const std::string& v : implemented)
    if (std::find(interop_only.begin(), interop_only.end(), v) == interop_only.end())
      swept_.push_back(v);
  implemented_ = std::move(implemented);
  known_ = std::move(known);
  interop_only_ = std::move(interop_only);
}

bool ScenarioRegistry::is_interop_only(std::string_view version) const {
  return std::find(interop_only_.begin(), interop_only_.end(), version) != interop_only_.end();
}

Status ScenarioRegistry::add(ScenarioDef def) {
  if (!is_id_word(def.name))
    return Error{0, "scenario name '" + def.name + "' is not a valid id word"};
  if (find(def.name)) return Error{0, "scenario '" + def.name + "' is registered twice"};
  if (!def.make) return Error{0, "scenario '" + def.name + "' has no case factory"};
  if (def.benches.empty()) return Error{0, "scenario '" + def.name + "' names no bench"};
  for (const std::string& bench : def.benches) {
    if (std::find(results::kBenches.begin(), results::kBenches.end(), bench) ==
        results::kBenches.end())
      return Error{0, "scenario '" + def.name + "': unknown bench '" + bench + "'"};
  }
  for (size_t i = 0; i < def.axes.size(); ++i) {
    const AxisSpec& a = def.axes[i];
    std::string where = "scenario '" + def.name + "' axis '" + a.name + "'";
    if (!is_id_word(a.name)) return Error{0, where + ": not a valid id word"};
    for (size_t j = 0; j < i; ++j)
      if (def.axes[j].name == a.name) return Error{0, where + ": declared twice"};
    if (a.kind == AxisKind::Version && i != 0)
      return Error{0, where + ": the version axis must come first"};
    if (a.kind == AxisKind::Version && !a.benches.empty())
      return Error{0, where + ": the version axis exists on every bench"};
    for (const std::string& bench : a.benches)
      if (!def.runs_on(bench))
        return Error{0, where + ": bench '" + bench + "' is not one the scenario runs on"};
    if (a.kind != AxisKind::Version && a.name == kVersionAxis)
      return Error{0, where + ": the name 'version' is reserved for the version axis"};
    if (a.kind == AxisKind::Integer) {
      if (a.min > a.max || a.default_int < a.min || a.default_int > a.max)
        return Error{0, where + ": default outside [min, max]"};
      for (int64_t v : a.sweep_ints)
        if (v < a.min || v > a.max) return Error{0, where + ": sweep value outside [min, max]"};
    }
    if (a.kind == AxisKind::Choice) {
      if (a.choices.empty()) return Error{0, where + ": no choices"};
      for (const std::string& c : a.choices)
        if (!is_id_word(c)) return Error{0, where + ": choice '" + c + "' is not a valid id word"};
    }
  }
  scenarios_.push_back(std::make_unique<ScenarioDef>(std::move(def)));
  return {};
}

const ScenarioDef* ScenarioRegistry::find(std::string_view name) const {
  for (const auto& s : scenarios_)
    if (s->name == name) return s.get();
  return nullptr;
}

std::string ScenarioRegistry::scenario_names() const {
  std::string out;
  for (const auto& s : scenarios_) {
    if (!out.empty()) out += ", ";
    out += s->name;
  }
  return out.empty() ? "none registered" : out;
}

}  // namespace moq::harness
