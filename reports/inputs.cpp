#include "reports/inputs.h"

#include <algorithm>
#include <map>

#include "reports/schema/results_file.h"

namespace moq::reports {
namespace {

std::string base_label(const std::string& path) {
  std::string name =
      path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  const std::string suffix = ".json";
  if (name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
    name.resize(name.size() - suffix.size());
  }
  return name.empty() ? "file" : name;
}

}  // namespace

CaseLookup::CaseLookup(const results::ResultsFile& file) {
  for (const results::CaseResult& c : file.cases)
    by_id_.emplace(c.id, &c);
}

const results::CaseResult* CaseLookup::find(std::string_view id) const {
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

std::vector<CaseLookup> lookups_of(const std::vector<InputFile>& inputs) {
  std::vector<CaseLookup> lookups;
  lookups.reserve(inputs.size());
  for (const InputFile& input : inputs)
    lookups.emplace_back(input.results);
  return lookups;
}

void assign_labels(std::vector<InputFile>& inputs) {
  std::map<std::string, int> uses;
  for (const InputFile& input : inputs)
    ++uses[base_label(input.path)];
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string label = base_label(inputs[i].path);
    if (uses[label] > 1) label += "#" + std::to_string(i + 1);
    inputs[i].label = label;
  }
}

Result<std::vector<InputFile>> load_inputs(const std::vector<std::string>& paths) {
  std::vector<InputFile> inputs;
  for (const std::string& path : paths) {
    Result<results::ResultsFile> file = results::read_results_file(path);
    if (!file.ok()) return file.error();
    inputs.push_back({path, "", std::move(*file)});
  }
  assign_labels(inputs);
  return inputs;
}

std::string counter_text(const results::Meta& meta) {
  std::string text(results::to_string(meta.counter_backend));
  if (meta.counter_event) text += " " + *meta.counter_event;
  return text;
}

std::string commit_text(const results::Meta& meta) {
  if (!meta.git_commit) return "no git commit";
  return meta.git_commit->substr(0, 7) + (meta.git_dirty ? " dirty" : " clean");
}

Status check_same_counter(const InputFile& first, const InputFile& other) {
  const results::Meta& a = first.results.meta;
  const results::Meta& b = other.results.meta;
  if (a.counter_backend != b.counter_backend || a.counter_event != b.counter_event) {
    return Error{"cannot compare " + first.path + " (counter " + counter_text(a) + ") with " +
                 other.path + " (counter " + counter_text(b) +
                 "): counts from different counter backends or events are never "
                 "compared; measure both with the same backend and event"};
  }
  return {};
}

Status check_same_counter(const std::vector<InputFile>& inputs) {
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (Status status = check_same_counter(inputs[0], inputs[i]); !status.ok()) return status;
  }
  return {};
}

bool same_source(const results::Meta& a, const results::Meta& b) {
  return a.git_commit && b.git_commit && *a.git_commit == *b.git_commit && !a.git_dirty &&
         !b.git_dirty && a.compiler == b.compiler && a.compiler_flags == b.compiler_flags &&
         a.build_type == b.build_type && a.cpu_model == b.cpu_model &&
         a.counter_backend == b.counter_backend && a.counter_event == b.counter_event;
}

bool same_build(const results::Meta& a, const results::Meta& b) {
  if (!same_source(a, b)) return false;
  const bool both_recorded = a.executable && b.executable && a.build_id && b.build_id;
  return !both_recorded || (a.executable == b.executable && a.build_id == b.build_id);
}

std::optional<std::string> incomplete_run(const results::Meta& meta) {
  if (!meta.run || meta.run->state == results::RunState::kComplete) return std::nullopt;
  const std::string of = std::to_string(meta.run->cases_done) + " of " +
                         (meta.plan ? std::to_string(meta.plan->cases.size()) : std::string("?")) +
                         " planned cases";
  if (meta.run->state == results::RunState::kInterrupted)
    return "interrupted by signal " + std::to_string(meta.run->signal.value_or(0)) + " after " + of;
  return "did not finish (killed, crashed, failed to write, or a merge of shards that lacks some) "
         "after " +
         of;
}

std::optional<bool> planned(const results::Meta& meta, std::string_view id) {
  const std::vector<std::string>* cases = meta.plan    ? &meta.plan->cases
                                          : meta.shard ? &meta.shard->cases
                                                       : nullptr;
  if (cases == nullptr) return std::nullopt;
  return std::find(cases->begin(), cases->end(), id) != cases->end();
}

}  // namespace moq::reports
