// Building CaseSpecs from what a user typed: axis values, case ids, comma lists and sweep grids.
// Every Error names the bad value and what would have been accepted; the CLI turns them into
// exit status 2.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/runner/scenario.h"
#include "model/base/result.h"

namespace moq::harness {

// An axis value parsed and checked against the axis (range, choices, implemented versions).
Result<ParamValue> parse_axis_value(const ScenarioRegistry& registry, const AxisSpec& axis,
                                    std::string_view text);

// The axis's default value, and the values the scenario's default sweep takes.
ParamValue axis_default(const ScenarioRegistry& registry, const AxisSpec& axis);
std::vector<ParamValue> axis_sweep_values(const ScenarioRegistry& registry, const AxisSpec& axis);

// The scenario by name, or an Error listing the registered ones.
Result<const ScenarioDef*> find_scenario(const ScenarioRegistry& registry, std::string_view name);
// Checks that `bench` is a bench the results format knows and that the scenario runs on it.
Status check_bench(const ScenarioDef& scenario, std::string_view bench);

// Splits "1,4,16" into its items. Empty items ("1,,4", "", "4,") and repeated items are errors
// naming the option and the text.
Result<std::vector<std::string>> split_list(std::string_view text, std::string_view option);

// One case of `scenario`: `settings` are (axis, value text) pairs; every other axis takes its
// default. An unknown axis, a bad value, an axis set twice or a combination of values the
// scenario refuses (ScenarioDef::check_axes) is an Error.
Result<CaseSpec> make_case_spec(const ScenarioRegistry& registry, const ScenarioDef& scenario,
                                std::string bench,
                                const std::vector<std::pair<std::string, std::string>>& settings);

// How a typed case id differs from the canonical id of the case it names, so that a caller can
// say so rather than run something other than what was typed without a word.
struct CaseIdReading {
  // "viewers=1": axes the id left out that the canonical id names, with the defaults taken.
  std::vector<std::string> defaulted;
  // ("publishers=01", "publishers=1"): values written otherwise than the canonical id writes them.
  std::vector<std::pair<std::string, std::string>> respelled;
  // "frame_size=64": axes named at a default that the canonical id leaves out.
  std::vector<std::string> left_out;
};

// The case a case id names: `bench/scenario/version/axis=value/...`. Axes the id leaves out take
// their defaults, so `model/fetch_frames/moq-lite-06` is the scenario's default case; axes may
// come in any order. `reading`, when given, receives what was filled in or rewritten.
Result<CaseSpec> parse_case_id(const ScenarioRegistry& registry, std::string_view id,
                               CaseIdReading* reading = nullptr);

// The values a sweep gives one axis, as typed; `source` names where they came from in errors
// (e.g. "--publishers").
struct AxisValues {
  std::string axis;
  std::vector<std::string> texts;
  std::string source;
};

// The cases of a sweep grid over one scenario and bench: each axis takes the values given in
// `overrides` (which must name axes of the scenario), or else its default-sweep values. Cases
// come in axis order, the last axis varying fastest.
Result<std::vector<CaseSpec>> expand_grid(const ScenarioRegistry& registry,
                                          const ScenarioDef& scenario, const std::string& bench,
                                          const std::vector<AxisValues>& overrides);

// "version, publishers, viewers, frames" for messages.
std::string axis_names(const ScenarioDef& scenario);

}  // namespace moq::harness
