#include "harness/counters/counter_registry.h"

#include <algorithm>

namespace moq::counters {

namespace {

// A function-local static: registrars in other files may run before this file's own globals are
// initialised, but never before the first call of this function.
std::vector<CounterBackendFactory>& factories() {
  static std::vector<CounterBackendFactory> list;
  return list;
}

Status check(const CounterBackendDef& def) {
  const std::string name(def.backend.name());
  if (name.empty() || name == "none" || name == "auto")
    return Error{0, "counter backend '" + name +
                        "' is registered, but that name is --counter's own (auto, none)"};
  if (def.open == nullptr) return Error{0, "counter backend '" + name + "' has no open()"};
  if (def.auto_rank < 0) return Error{0, "counter backend '" + name + "' has a negative rank"};
  if (def.rerun && (def.rerun->hosted == nullptr || def.rerun->prepare == nullptr))
    return Error{0, "counter backend '" + name + "' re-runs the program but says not how"};
  return {};
}

}  // namespace

CounterBackendRegistrar::CounterBackendRegistrar(CounterBackendFactory factory) {
  factories().push_back(factory);
}

Result<std::vector<CounterBackendDef>> registered_counter_backends() {
  std::vector<CounterBackendDef> defs;
  for (CounterBackendFactory factory : factories()) {
    CounterBackendDef def = factory();
    if (Status st = check(def); !st) return st.error();
    for (const CounterBackendDef& other : defs)
      if (other.backend == def.backend)
        return Error{
            0, "counter backend '" + std::string(def.backend.name()) + "' is registered twice"};
    defs.push_back(def);
  }
  // Static initialisation follows link order, which neither auto nor a message should.
  auto key = [](const CounterBackendDef& d) {
    return std::pair(d.auto_rank == 0 ? 1 : 0, d.auto_rank);
  };
  std::stable_sort(defs.begin(), defs.end(),
                   [&](const CounterBackendDef& a, const CounterBackendDef& b) {
                     if (key(a) != key(b)) return key(a) < key(b);
                     return a.backend.name() < b.backend.name();
                   });
  return defs;
}

Result<std::optional<CounterBackendDef>> find_counter_backend(std::string_view name) {
  Result<std::vector<CounterBackendDef>> defs = registered_counter_backends();
  if (!defs) return defs.error();
  for (CounterBackendDef& def : *defs)
    if (def.backend.name() == name) return std::optional<CounterBackendDef>(def);
  return std::optional<CounterBackendDef>();
}

std::string counter_backend_names(const std::vector<CounterBackendDef>& defs,
                                  const char* last_separator) {
  std::string names;
  for (size_t i = 0; i < defs.size(); ++i) {
    if (i > 0) names += i + 1 == defs.size() ? last_separator : ", ";
    names += defs[i].backend.name();
  }
  return names;
}

}  // namespace moq::counters
