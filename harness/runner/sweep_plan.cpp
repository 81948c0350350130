#include "harness/runner/sweep_plan.h"

#include <algorithm>
#include <set>

namespace moq::harness {

Result<std::vector<CaseSpec>> plan_sweep(const ScenarioRegistry& registry,
                                         const SweepRequest& request) {
  std::vector<const ScenarioDef*> selected;
  const bool named = !request.scenarios.empty();
  if (named) {
    for (const std::string& name : request.scenarios) {
      Result<const ScenarioDef*> s = find_scenario(registry, name);
      if (!s) return Error{0, "--scenario: " + s.error().message};
      selected.push_back(*s);
    }
  } else {
    for (const auto& s : registry.scenarios())
      if (s->in_default_sweep) selected.push_back(s.get());
  }

  for (const std::string& bench : request.benches) {
    if (std::find(results::kBenches.begin(), results::kBenches.end(), bench) ==
        results::kBenches.end()) {
      std::string known;
      for (std::string_view b : results::kBenches)
        known += (known.empty() ? "" : ", ") + std::string(b);
      return Error{0, "--bench: unknown bench '" + bench + "' (benches: " + known + ")"};
    }
  }

  for (const AxisValues& axis : request.axes) {
    bool used = std::any_of(selected.begin(), selected.end(), [&](const ScenarioDef* s) {
      return s->find_axis(axis.axis) != nullptr;
    });
    if (!used) {
      std::string names;
      for (const ScenarioDef* s : selected)
        names += (names.empty() ? "" : "; ") + s->name + ": " + axis_names(*s);
      return Error{0, axis.source + ": no selected scenario has the axis '" + axis.axis + "' (" +
                          (names.empty() ? "no scenario selected" : names) + ")"};
    }
  }

  std::vector<CaseSpec> cases;
  std::set<std::string> ids;
  for (const ScenarioDef* s : selected) {
    std::vector<std::string> benches;
    if (request.benches.empty()) {
      benches = s->benches;
    } else {
      for (const std::string& b : request.benches)
        if (s->runs_on(b)) benches.push_back(b);
      if (benches.empty() && named) {
        if (Status st = check_bench(*s, request.benches.front()); !st)
          return Error{0, "--bench: " + st.error().message};
      }
    }
    std::vector<AxisValues> overrides;
    for (const AxisValues& a : request.axes)
      if (s->find_axis(a.axis)) overrides.push_back(a);
    for (const std::string& bench : benches) {
      Result<std::vector<CaseSpec>> grid = expand_grid(registry, *s, bench, overrides);
      if (!grid) return grid.error();
      for (CaseSpec& c : *grid) {
        std::string id = c.id();
        if (!ids.insert(id).second)
          return Error{
              0, "the sweep names case " + id + " twice (two spellings of one value in a list?)"};
        cases.push_back(std::move(c));
      }
    }
  }
  if (cases.empty()) {
    std::string why;
    if (selected.empty()) {
      why = named ? "no scenario" : "no scenario is in the default sweep yet";
    } else if (registry.implemented_versions().empty() &&
               std::all_of(selected.begin(), selected.end(),
                           [](const ScenarioDef* s) { return s->has_version(); })) {
      why = "no protocol version is implemented yet";
    } else {
      why = "no selected scenario runs on the selected benches";
    }
    return Error{
        0, "the sweep selects no case: " + why + " (scenarios: " + registry.scenario_names() + ")"};
  }
  return cases;
}

}  // namespace moq::harness
