// The scenario interface and registry.
//
// A scenario declares its axes (name, kind, default, allowed values, the values its default sweep
// takes) and builds a Case from a CaseSpec, one value per axis. The harness never links a
// scenario directly: scenarios register themselves (registrar.h), a binary that links them fills
// a ScenarioRegistry (register_linked_scenarios) and hands it to
// the CLI, the sweep or the Google Benchmark adapter.
//
// Case ids are paths, `bench/scenario/version/axis=value/...` (ARCHITECTURE.md), e.g.
// `model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=256`. The protocol version is the
// axis named "version"; it sits in the third segment, not among the `axis=value` parts. A
// scenario without a version axis (the data model alone) has the version `none`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/runner/case.h"
#include "harness/runner/memory_estimate.h"
#include "model/base/result.h"
#include "reports/schema/results.h"

namespace moq::harness {

using results::Param;
using results::ParamValue;

// The version segment of the id of a scenario without a version axis.
inline constexpr std::string_view kNoVersion = "none";
inline constexpr std::string_view kVersionAxis = "version";

enum class AxisKind : uint8_t {
  Version,  // a protocol version from the registry's implemented versions (a string)
  Integer,  // an integer in [min, max]
  Choice,   // one of `choices` (a string)
};
const char* axis_kind_name(AxisKind kind);

struct AxisSpec {
  std::string name;
  AxisKind kind = AxisKind::Integer;
  std::string help;
  // Integer: the value when none is given. Choice: the first choice when empty. Version: ignored
  // (the registry's first implemented version).
  int64_t default_int = 0;
  std::string default_text;
  int64_t min = 0;  // Integer only
  int64_t max = INT64_MAX;
  std::vector<std::string> choices;  // Choice only
  // The values the scenario's default sweep takes. Empty: the default alone. Version axes sweep
  // every implemented version.
  std::vector<int64_t> sweep_ints;
  std::vector<std::string> sweep_texts;
  // False: the id names this axis only when the value differs from the default, so a setting
  // such as the frame size can be added without renaming every existing case.
  bool id_when_default = true;
  // The benches the axis exists on; empty: every bench the scenario runs on. The relay bench's
  // `relays` axis has no meaning on the model bench, so model case ids never name it.
  std::vector<std::string> benches;

  bool on_bench(std::string_view bench) const;

  static AxisSpec version();
  static AxisSpec integer(std::string name, std::string help, int64_t default_value, int64_t min,
                          int64_t max, std::vector<int64_t> sweep = {});
  static AxisSpec choice(std::string name, std::string help, std::vector<std::string> choices,
                         std::vector<std::string> sweep = {});
};

class CaseSpec;
using CaseFactory = std::function<Result<std::unique_ptr<Case>>(const CaseSpec&)>;

struct ScenarioDef {
  std::string name;
  std::string summary;                           // one line, for `moqbench list`
  std::vector<std::string> benches = {"model"};  // benches it runs on (results::kBenches)
  std::vector<AxisSpec> axes;                    // in id order; a version axis comes first
  bool in_default_sweep = false;                 // part of `moqbench sweep` with no arguments
  CaseFactory make;
  // The memory a case holds at its peak, from its axes alone, before it is built (see
  // memory_estimate.h: terms of a measured cost per unit times the axes they grow with, e.g.
  // viewers x frames x bytes per frame held). A case whose estimate exceeds what the process may
  // use is refused with the size and the axes to lower (memory_check.h). Empty: the scenario's
  // memory does not grow with its axes beyond a few MiB.
  std::function<MemoryEstimate(const CaseSpec&)> estimate_memory;
  // The rules a combination of axis values must follow beyond each axis's own range (frames x
  // frame_size within the largest group, ...): an Error names the axes, their values and the rule.
  // Every planned case is checked (make_case_spec), so a refused combination is bad input before
  // anything runs; `make` applies the same functions, so each rule is written once. Empty: every
  // combination is accepted.
  std::function<Status(const CaseSpec&)> check_axes;

  const AxisSpec* find_axis(std::string_view axis) const;
  // The axis on `bench`: null when the scenario has no such axis or it exists on other benches.
  const AxisSpec* find_axis(std::string_view axis, std::string_view bench) const;
  bool has_version() const { return !axes.empty() && axes.front().kind == AxisKind::Version; }
  bool runs_on(std::string_view bench) const;
};

// One case: a scenario, a bench and a value for every axis.
class CaseSpec {
 public:
  CaseSpec(const ScenarioDef& scenario, std::string bench, std::string version,
           std::vector<Param> values)
      : scenario_(&scenario),
        bench_(std::move(bench)),
        version_(std::move(version)),
        values_(std::move(values)) {}

  const ScenarioDef& scenario() const { return *scenario_; }
  const std::string& bench() const { return bench_; }
  // The protocol version, or "none" for a scenario without a version axis.
  const std::string& version() const { return version_; }
  // Every non-version axis in axis order, including those the id leaves out at their default.
  const std::vector<Param>& values() const { return values_; }

  // The value of an Integer / Choice axis of the scenario (the axis must exist: a programming
  // error otherwise, reported as 0 / an empty string).
  int64_t integer(std::string_view axis) const;
  const std::string& text(std::string_view axis) const;

  // The params the id shows (results::CaseResult::params) and the id itself.
  std::vector<Param> id_params() const;
  std::string id() const;

 private:
  const ScenarioDef* scenario_;
  std::string bench_;
  std::string version_;
  std::vector<Param> values_;
};

class ScenarioRegistry {
 public:
  // The protocol versions scenarios may run (`implemented`, in sweep order), every version
  // name the project knows (so an unimplemented one is told apart from a misspelt one), and the
  // implemented ones kept for interop only: they run when named, but stay out of the default
  // sweep, the axis default and the default fault runs.
  void set_versions(std::vector<std::string> implemented, std::vector<std::string> known,
                    std::vector<std::string> interop_only = {});
  // Adds a scenario; an Error names a duplicate or malformed definition.
  Status add(ScenarioDef def);

  const ScenarioDef* find(std::string_view name) const;
  // Registration order.
  const std::vector<std::unique_ptr<ScenarioDef>>& scenarios() const { return scenarios_; }
  const std::vector<std::string>& implemented_versions() const { return implemented_; }
  const std::vector<std::string>& known_versions() const { return known_; }
  // The implemented versions less the interop-only ones, in sweep order: what runs by default.
  const std::vector<std::string>& swept_versions() const { return swept_; }
  bool is_interop_only(std::string_view version) const;
  std::string scenario_names() const;  // "a, b, c" for error messages

 private:
  std::vector<std::unique_ptr<ScenarioDef>> scenarios_;
  std::vector<std::string> implemented_;
  std::vector<std::string> known_;
  std::vector<std::string> swept_;
  std::vector<std::string> interop_only_;
};

}  // namespace moq::harness
