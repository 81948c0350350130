#include "harness/cli/case_filter.h"

#include <regex>

namespace moq::cli {

namespace {

Result<std::optional<std::regex>> compile(const char* option,
                                          const std::optional<std::string>& pattern) {
  if (!pattern) return std::optional<std::regex>();
  try {
    return std::optional<std::regex>(std::regex(*pattern, std::regex::ECMAScript));
  } catch (const std::regex_error& e) {
    return Error{0, std::string(option) + " '" + *pattern + "': not a valid regular expression (" +
                        e.what() + ")"};
  }
}

std::string describe(const CaseFilter& filter) {
  std::string out;
  if (filter.filter) out += "--filter '" + *filter.filter + "'";
  if (filter.exclude)
    out += std::string(out.empty() ? "" : " with ") + "--exclude '" + *filter.exclude + "'";
  return out;
}

}  // namespace

Result<std::vector<harness::CaseSpec>> filter_cases(const std::vector<harness::CaseSpec>& cases,
                                                    const CaseFilter& filter) {
  if (!filter.filter && !filter.exclude) return cases;
  Result<std::optional<std::regex>> keep = compile("--filter", filter.filter);
  if (!keep) return keep.error();
  Result<std::optional<std::regex>> drop = compile("--exclude", filter.exclude);
  if (!drop) return drop.error();
  std::vector<harness::CaseSpec> kept;
  for (const harness::CaseSpec& c : cases) {
    const std::string id = c.id();
    if (*keep && !std::regex_search(id, **keep)) continue;
    if (*drop && std::regex_search(id, **drop)) continue;
    kept.push_back(c);
  }
  if (kept.empty())
    return Error{0, describe(filter) + " selects none of the sweep's " +
                        std::to_string(cases.size()) +
                        " cases (`moqbench sweep --list` without it lists their ids)"};
  return kept;
}

}  // namespace moq::cli
