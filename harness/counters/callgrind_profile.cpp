#include "harness/counters/callgrind_profile.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace moq::counters {

namespace {

// One name-compression table ("(id) name" defines, "(id)" refers).
class Names {
 public:
  Result<std::string> read(std::string_view value) {
    if (value.empty() || value[0] != '(') return std::string(value);
    const size_t close = value.find(')');
    if (close == std::string_view::npos) return Error{0, "unclosed '(' in a name"};
    const std::string id(value.substr(1, close - 1));
    std::string_view rest = value.substr(close + 1);
    if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    if (!rest.empty()) return names_[id] = std::string(rest);
    auto it = names_.find(id);
    if (it == names_.end()) return Error{0, "name (" + id + ") used before it was defined"};
    return it->second;
  }

 private:
  std::map<std::string, std::string> names_;
};

bool parse_u64(std::string_view s, uint64_t& out) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ')
      ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ')
      ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

}  // namespace

Result<CallgrindProfile> parse_callgrind_profile(std::string_view text, std::string_view source,
                                                 const std::vector<std::string>& events) {
  std::vector<size_t> columns;  // of `events` in the events: line
  // The sum of the chosen columns of a line's costs (a missing trailing column reads 0).
  auto cost_of = [&](const std::vector<std::string_view>& w, size_t first, uint64_t& cost) {
    cost = 0;
    for (size_t c : columns) {
      uint64_t v = 0;
      if (first + c < w.size() && !parse_u64(w[first + c], v)) return false;
      cost += v;
    }
    return true;
  };
  Names files, functions, objects;
  std::map<std::string, FunctionCost> by_name;
  size_t positions = 1;
  bool ir_first = false;
  CallgrindProfile out;
  FunctionCost* current = nullptr;
  std::string file = "???";
  bool call_cost_next = false;  // the line after calls= is the call's inclusive cost
  std::string callee;           // the last cfn=
  bool first_cost_of_function = false;
  std::vector<uint64_t> last(4, 0);
  size_t number = 0;
  auto error = [&](const std::string& what) {
    return Error{0, std::string(source) + ":" + std::to_string(number) + ": " + what};
  };
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find('=');
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos && (eq == std::string_view::npos || colon < eq)) {
      const std::string_view key = line.substr(0, colon);
      const std::string_view value = line.substr(colon + 1);
      if (key == "positions") {
        positions = words(value).size();
        if (positions == 0 || positions > 3)
          return error("unsupported positions: " + std::string(value));
      } else if (key == "events") {
        const std::vector<std::string_view> names = words(value);
        ir_first = !names.empty() && names[0] == "Ir";
        if (!ir_first) return error("the first event is not Ir: " + std::string(value));
        columns.clear();
        for (const std::string& event : events) {
          const auto at = std::find(names.begin(), names.end(), event);
          if (at == names.end())
            return error("the profile has no " + event +
                         " event (its events: " + std::string(value) +
                         "); callgrind collects the cache events with --cache-sim=yes and the "
                         "branch events with --branch-sim=yes");
          columns.push_back(static_cast<size_t>(at - names.begin()));
        }
      } else if (key == "summary" || key == "totals") {
        const std::vector<std::string_view> w = words(value);
        if (w.empty() || !cost_of(w, 0, out.total)) return error("a bad " + std::string(key));
      }
      continue;
    }
    if (eq != std::string_view::npos && eq <= 5 && line[0] >= 'a' && line[0] <= 'z') {
      const std::string_view key = line.substr(0, eq);
      const std::string_view value = line.substr(eq + 1);
      Result<std::string> name = std::string();
      if (key == "fl" || key == "fi" || key == "fe" || key == "cfi" || key == "cfl") {
        name = files.read(value);
        if (name && (key == "fl" || key == "fi" || key == "fe")) file = *name;
      } else if (key == "fn" || key == "cfn") {
        name = functions.read(value);
        if (name && key == "cfn") callee = *name;
        if (name && key == "fn") {
          FunctionCost& f = by_name[*name];
          if (f.name.empty()) {
            f.name = *name;
            f.file = file;
            first_cost_of_function = true;
          }
          current = &f;
        }
      } else if (key == "ob" || key == "cob") {
        name = objects.read(value);
      } else if (key == "calls") {
        call_cost_next = true;
        const std::vector<std::string_view> w = words(value);
        uint64_t count = 0;
        if (w.empty() || !parse_u64(w[0], count)) return error("a bad calls= line");
        if (callee.empty()) return error("calls= before any cfn=");
        if (!current) return error("calls= before any fn=");
        by_name[callee].calls += count;  // named below if no fn= block defines it
      }
      // jump=, jcnd= and the rest carry no cost of their own.
      if (!name) return error(name.error().message);
      continue;
    }
    // A cost line: positions, then the events (Ir first).
    const std::vector<std::string_view> w = words(line);
    if (w.size() < positions) return error("a cost line with too few fields");
    for (size_t p = 0; p < positions; ++p) {
      const std::string_view s = w[p];
      uint64_t v = 0;
      if (s == "*") continue;
      if (s[0] == '+' || s[0] == '-') {
        if (!parse_u64(s.substr(1), v)) return error("a bad position '" + std::string(s) + "'");
        last[p] = s[0] == '+' ? last[p] + v : last[p] - v;
      } else {
        if (!parse_u64(s, v)) return error("a bad position '" + std::string(s) + "'");
        last[p] = v;
      }
    }
    uint64_t ir = 0;
    if (!cost_of(w, positions, ir)) return error("a bad cost on '" + std::string(line) + "'");
    if (!current) return error("a cost before any fn=");
    if (first_cost_of_function) {
      current->line = last[positions - 1];
      first_cost_of_function = false;
    }
    current->inclusive += ir;
    if (!call_cost_next) current->self += ir;
    call_cost_next = false;
  }
  if (!ir_first)
    return Error{0, std::string(source) + ": no 'events: Ir' line: not a callgrind profile"};
  for (auto& [name, f] : by_name) {
    if (f.name.empty()) {
      f.name = name;
      f.file = "???";
    }
    out.functions.push_back(std::move(f));
  }
  return out;
}

}  // namespace moq::counters
