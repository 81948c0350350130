#include "harness/cli/allocation_sites.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>

#include "reports/schema/json_text.h"
#include "reports/table.h"

namespace moq::cli {

namespace {

struct Frame {
  std::string name;
  std::string where;
};

// "0x4853100: name (file.cpp:12)" or "0x4853100: name (in /lib/x.so)"; "[root]" has neither.
Frame parse_frame(const std::string& text) {
  Frame f;
  std::string rest = text;
  if (const size_t colon = rest.find(": "); rest.rfind("0x", 0) == 0 && colon != std::string::npos)
    rest = rest.substr(colon + 2);
  const size_t open = rest.rfind(" (");
  if (open != std::string::npos && rest.back() == ')') {
    f.where = rest.substr(open + 2, rest.size() - open - 3);
    rest = rest.substr(0, open);
    // "in /a/b/moqbench": the object's name is enough to read, and stays the same in every tree.
    if (f.where.rfind("in /", 0) == 0) f.where = "in " + f.where.substr(f.where.rfind('/') + 1);
  }
  f.name = rest;
  return f;
}

// The entry points of the counting layer (alloc_counter.h) and the wrapper in front of it.
bool is_allocator(const std::string& name) {
  static constexpr std::array<std::string_view, 11> kEntries = {
      "moq_count_allocation", "operator new",   "malloc",   "calloc", "realloc", "reallocarray",
      "aligned_alloc",        "posix_memalign", "memalign", "valloc", "pvalloc"};
  for (std::string_view e : kEntries) {
    if (name.rfind(e, 0) == 0 &&
        (name.size() == e.size() || name[e.size()] == '(' || name[e.size()] == '['))
      return true;
  }
  return false;
}

// The qualified name without a leading return type ("void std::vector<...>::f(...)" ->
// "std::vector<...>::f(...)"): what follows the last space outside brackets before the
// parameters.
std::string_view qualified(std::string_view name) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ']' || c == '}') --depth;
    if (c == '(' && depth == 0) break;
    if (c == ' ' && depth == 0) start = i + 1;
  }
  return name.substr(start);
}

bool is_library(const Frame& f) {
  const std::string_view q = qualified(f.name);
  for (std::string_view prefix : {"std::", "__gnu_cxx::", "__cxxabiv1::"}) {
    if (q.rfind(prefix, 0) == 0) return true;
  }
  for (std::string_view lib : {"in libstdc++", "in libc.", "in libc-", "in ld-linux", "in libm."}) {
    if (f.where.rfind(lib, 0) == 0) return true;
  }
  return false;
}

void sort_sites(std::vector<AllocationSite>& sites) {
  std::sort(sites.begin(), sites.end(), [](const AllocationSite& a, const AllocationSite& b) {
    if (a.allocations != b.allocations) return a.allocations > b.allocations;
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return a.function < b.function;
  });
}

std::string signed_count(int64_t v) {
  const std::string digits = reports::format_count(static_cast<uint64_t>(v < 0 ? -v : v));
  return (v < 0 ? "-" : v > 0 ? "+" : "") + digits;
}

std::string render(const std::string& title, const reports::Table& t, const std::string& footer,
                   reports::OutputFormat format) {
  if (format == reports::OutputFormat::kMarkdown) {
    std::string out = "**" + reports::markdown_escape(title) + "**\n";
    if (!t.rows.empty()) out += "\n" + reports::render_markdown(t) + "\n";
    if (!footer.empty()) out += reports::markdown_escape(footer) + "\n";
    return out;
  }
  std::string out = title + "\n";
  if (!t.rows.empty()) out += "\n" + reports::render_terminal(t);
  if (!footer.empty()) out += footer + "\n";
  return out;
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return reports::format_count(n) + " " + (n == 1 ? one : many);
}

}  // namespace

Result<RoundAllocations> parse_dhat_round(std::string_view text, std::string_view source) {
  const std::string src(source);
  results::Result<results::Json> parsed = results::parse_json_text(text, source);
  if (!parsed) return Error{0, parsed.error().message};
  const results::Json& doc = *parsed;
  auto bad = [&](const std::string& what) {
    return Error{0, src + ": " + what + " (not a DHAT ad-hoc profile of explain --allocations?)"};
  };
  if (!doc.is_object() || !doc.contains("mode") || doc["mode"] != "ad-hoc" ||
      !doc.contains("pps") || !doc["pps"].is_array() || !doc.contains("ftbl") ||
      !doc["ftbl"].is_array())
    return bad("expected an object with mode \"ad-hoc\", pps and ftbl");
  const results::Json& ftbl = doc["ftbl"];
  std::vector<Frame> frames;
  for (const results::Json& f : ftbl) {
    if (!f.is_string()) return bad("ftbl holds a non-string");
    frames.push_back(parse_frame(f.get<std::string>()));
  }
  RoundAllocations round;
  std::map<std::string, AllocationSite> sites;
  for (const results::Json& pp : doc["pps"]) {
    if (!pp.is_object() || !pp.contains("tb") || !pp.contains("tbk") || !pp.contains("fs") ||
        !pp["tb"].is_number_unsigned() || !pp["tbk"].is_number_unsigned() || !pp["fs"].is_array())
      return bad("a program point without tb, tbk and fs");
    std::vector<const Frame*> stack;
    for (const results::Json& i : pp["fs"]) {
      if (!i.is_number_unsigned() || i.get<uint64_t>() >= frames.size())
        return bad("a frame index out of ftbl");
      stack.push_back(&frames[i.get<size_t>()]);
    }
    const uint64_t count = pp["tbk"].get<uint64_t>();
    const uint64_t bytes = pp["tb"].get<uint64_t>();
    if (stack.empty()) return bad("a program point with no frames");
    if (stack[0]->name == "moq_measured_round_begin") {
      round.rounds_marked += count;
      continue;
    }
    if (stack[0]->name != "moq_count_allocation")
      return bad("an event from " + stack[0]->name + ", not from the allocation wrapper");
    size_t i = 0;
    while (i < stack.size() && is_allocator(stack[i]->name))
      ++i;
    const Frame* via = i < stack.size() ? stack[i] : nullptr;
    const Frame* site = nullptr;
    for (size_t j = i; j < stack.size() && site == nullptr; ++j) {
      if (!is_library(*stack[j])) site = stack[j];
    }
    if (site == nullptr) site = via;
    AllocationSite& s = sites[site ? site->name : "(no frame past the allocator)"];
    if (site) {
      s.function = site->name;
      s.where = site->where;
      if (via != site && s.via.empty()) s.via = via->name;
    } else {
      s.function = "(no frame past the allocator)";
    }
    s.allocations += count;
    s.bytes += bytes;
    round.allocations += count;
    round.bytes += bytes;
  }
  for (auto& [name, s] : sites)
    round.sites.push_back(std::move(s));
  sort_sites(round.sites);
  return round;
}

std::string render_round_allocations(const std::string& case_id, const std::string& label,
                                     const RoundAllocations& round, size_t top,
                                     reports::OutputFormat format) {
  if (round.allocations == 0)
    return render(case_id + ": " + label + ": no allocations in the measured round", {}, "",
                  format);
  const std::string title = case_id + ": " + label + ": " +
                            plural(round.allocations, "allocation", "allocations") + ", " +
                            plural(round.bytes, "byte", "bytes") + " in one measured round";
  reports::Table t;
  t.header = {"allocations", "bytes", "function", "via", "where"};
  t.align = {reports::Align::kRight, reports::Align::kRight, reports::Align::kLeft,
             reports::Align::kLeft, reports::Align::kLeft};
  const size_t shown = std::min(top, round.sites.size());
  uint64_t rest_allocs = 0, rest_bytes = 0;
  for (size_t i = 0; i < round.sites.size(); ++i) {
    const AllocationSite& s = round.sites[i];
    if (i >= shown) {
      rest_allocs += s.allocations;
      rest_bytes += s.bytes;
      continue;
    }
    t.rows.push_back({reports::format_count(s.allocations), reports::format_count(s.bytes),
                      s.function, s.via, s.where});
  }
  std::string footer = plural(round.sites.size(), "allocation site", "allocation sites");
  if (shown < round.sites.size())
    footer += "; the " + std::to_string(round.sites.size() - shown) + " not shown make " +
              plural(rest_allocs, "allocation", "allocations") + ", " +
              plural(rest_bytes, "byte", "bytes");
  return render(title, t, footer, format);
}

std::string render_allocation_changes(const std::string& case_id, const std::string& base_label,
                                      const RoundAllocations& base, const std::string& head_label,
                                      const RoundAllocations& head, size_t top,
                                      reports::OutputFormat format) {
  if (base.allocations == 0 && head.allocations == 0)
    return render(case_id + ": no allocations in the measured round, in " + base_label + " or in " +
                      head_label,
                  {}, "", format);
  struct Delta {
    const AllocationSite* base = nullptr;
    const AllocationSite* head = nullptr;
    int64_t allocs() const {
      return static_cast<int64_t>(head ? head->allocations : 0) -
             static_cast<int64_t>(base ? base->allocations : 0);
    }
    int64_t bytes() const {
      return static_cast<int64_t>(head ? head->bytes : 0) -
             static_cast<int64_t>(base ? base->bytes : 0);
    }
  };
  std::map<std::string, Delta> all;
  for (const AllocationSite& s : base.sites)
    all[s.function].base = &s;
  for (const AllocationSite& s : head.sites)
    all[s.function].head = &s;
  std::vector<std::pair<std::string, Delta>> changed;
  size_t unchanged = 0;
  for (const auto& [name, d] : all) {
    if (d.allocs() == 0 && d.bytes() == 0) {
      ++unchanged;
    } else {
      changed.emplace_back(name, d);
    }
  }
  std::stable_sort(changed.begin(), changed.end(), [](const auto& a, const auto& b) {
    if (std::llabs(a.second.allocs()) != std::llabs(b.second.allocs()))
      return std::llabs(a.second.allocs()) > std::llabs(b.second.allocs());
    return std::llabs(a.second.bytes()) > std::llabs(b.second.bytes());
  });
  const int64_t allocs_delta =
      static_cast<int64_t>(head.allocations) - static_cast<int64_t>(base.allocations);
  const int64_t bytes_delta = static_cast<int64_t>(head.bytes) - static_cast<int64_t>(base.bytes);
  const std::string title = case_id + ": " + base_label + " " +
                            reports::format_count(base.allocations) + " -> " + head_label + " " +
                            reports::format_count(head.allocations) + " allocations (" +
                            signed_count(allocs_delta) + "), " + reports::format_count(base.bytes) +
                            " -> " + reports::format_count(head.bytes) + " bytes (" +
                            signed_count(bytes_delta) + ") in one measured round";
  reports::Table t;
  t.header = {"function",
              "allocs " + base_label,
              "allocs " + head_label,
              "allocs delta",
              "bytes " + base_label,
              "bytes " + head_label,
              "bytes delta",
              "where"};
  t.align = {reports::Align::kLeft,  reports::Align::kRight, reports::Align::kRight,
             reports::Align::kRight, reports::Align::kRight, reports::Align::kRight,
             reports::Align::kRight, reports::Align::kLeft};
  const size_t shown = std::min(top, changed.size());
  int64_t rest = 0;
  for (size_t i = 0; i < changed.size(); ++i) {
    const auto& [name, d] = changed[i];
    if (i >= shown) {
      rest += d.allocs();
      continue;
    }
    const AllocationSite* any = d.head ? d.head : d.base;
    t.rows.push_back({name, reports::format_count(d.base ? d.base->allocations : 0),
                      reports::format_count(d.head ? d.head->allocations : 0),
                      signed_count(d.allocs()), reports::format_count(d.base ? d.base->bytes : 0),
                      reports::format_count(d.head ? d.head->bytes : 0), signed_count(d.bytes()),
                      any->where});
  }
  std::string footer = plural(changed.size(), "site changed", "sites changed") + ", " +
                       std::to_string(unchanged) + " unchanged";
  if (shown < changed.size())
    footer += "; the " + std::to_string(changed.size() - shown) + " not shown change " +
              signed_count(rest) + " allocations";
  return render(title, t, footer, format);
}

}  // namespace moq::cli
