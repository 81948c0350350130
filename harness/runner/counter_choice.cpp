#include "harness/runner/counter_choice.h"

#include <vector>

#include "harness/counters/counter_registry.h"
#include "harness/counters/cpu_pin.h"

namespace moq::harness {

namespace {

using counters::CounterBackendDef;
using counters::CounterOpening;

std::string name_of(const CounterBackendDef& def) {
  return std::string(def.backend.name());
}

// "--counter perf: <why>", the form of every error about a chosen backend.
Error about(const CounterBackendDef& def, const Error& error) {
  return Error{0, "--counter " + name_of(def) + ": " + error.message};
}

Status pin_if_asked(const CounterRequest& request) {
  if (!request.cpu) return {};
  if (Status st = counters::pin_current_thread_to_cpu(*request.cpu); !st)
    return Error{0, "--cpu " + std::to_string(*request.cpu) + ": " + st.error().message};
  return {};
}

Result<CounterOpening> open_here(const CounterBackendDef& def, const CounterRequest& request) {
  counters::CounterOptions options;
  options.backend = def.backend;
  if (def.takes_event) options.event = request.event;
  return def.open(options);
}

CounterChoice opened(const CounterBackendDef& def, CounterOpening opening, std::string why) {
  CounterChoice choice;
  choice.backend = def.backend;
  choice.event = opening.counter->event();
  choice.counter = std::move(opening.counter);
  choice.why = std::move(why);
  return choice;
}

CounterChoice rerun(const CounterBackendDef& def, std::string why) {
  CounterChoice choice;
  choice.backend = def.backend;
  choice.reexec = true;
  choice.event = std::string(def.rerun->event);
  choice.why = std::move(why);
  return choice;
}

CounterChoice none(std::string why) {
  CounterChoice choice;
  choice.why = std::move(why);
  return choice;
}

// Whether this process is the re-run a backend asked for (then it measures with that backend);
// an Error when it runs under the backend's tool but was not started to measure.
Result<bool> hosts(const CounterBackendDef& def) {
  if (!def.rerun) return false;
  Result<bool> hosted = def.rerun->hosted();
  if (!hosted) return about(def, hosted.error());
  return *hosted;
}

// Open in this process, or the program's re-run under the backend's tool; `how` says who chose.
Result<CounterChoice> take(const CounterBackendDef& def, const CounterRequest& request,
                           const std::string& how) {
  Result<bool> hosted = hosts(def);
  if (!hosted) return hosted.error();
  if (def.rerun && !*hosted) {
    Result<std::string> prepared = def.rerun->prepare();
    if (!prepared) return about(def, prepared.error());
    return rerun(def, "counter " + name_of(def) + " (" + how + ")" + *prepared);
  }
  Result<CounterOpening> opening = open_here(def, request);
  if (!opening) return about(def, opening.error());
  std::string why = "counter " + name_of(def) + " (" + how + ")" + opening->detail;
  return opened(def, std::move(*opening), std::move(why));
}

Result<CounterChoice> choose_auto(const std::vector<CounterBackendDef>& defs,
                                  const CounterRequest& request) {
  // Inside a backend's own re-run the choice was made already.
  for (const CounterBackendDef& def : defs) {
    Result<bool> hosted = hosts(def);
    if (!hosted) return hosted.error();
    if (*hosted) return take(def, request, "auto");
  }
  std::string passed_over;  // "perf unavailable: <why>; and <why>"
  auto pass = [&](const CounterBackendDef& def, const Error& error) {
    passed_over += passed_over.empty() ? name_of(def) + " unavailable: " : "; and ";
    passed_over += error.message;
  };
  for (const CounterBackendDef& def : defs) {
    if (def.auto_rank == 0) continue;
    const std::string how = "auto" + (passed_over.empty() ? "" : ": " + passed_over);
    if (def.rerun) {
      Result<std::string> prepared = def.rerun->prepare();
      if (prepared) return rerun(def, "counter " + name_of(def) + " (" + how + ")" + *prepared);
      pass(def, prepared.error());
      continue;
    }
    Result<CounterOpening> opening = open_here(def, request);
    if (!opening) {
      pass(def, opening.error());
      continue;
    }
    // Auto says why it could take the backend, when the backend says; else what asking says.
    std::string why = opening->because.empty()
                          ? "counter " + name_of(def) + " (" + how + ")" + opening->detail
                          : "counter " + name_of(def) + " (" + how +
                                (passed_over.empty() ? ": " : "; ") + opening->because + ")";
    return opened(def, std::move(*opening), std::move(why));
  }
  return none("counter none (auto" + (passed_over.empty() ? "" : ": " + passed_over) +
              "): instructions are not counted");
}

}  // namespace

Result<std::optional<CounterBackend>> parse_counter_option(std::string_view text) {
  if (text == "auto") return std::optional<CounterBackend>();
  if (text == "none") return std::optional<CounterBackend>(CounterBackend::kNone);
  Result<std::vector<CounterBackendDef>> defs = counters::registered_counter_backends();
  if (!defs) return defs.error();
  for (const CounterBackendDef& def : *defs)
    if (def.backend.name() == text) return std::optional<CounterBackend>(def.backend);
  std::string names = counters::counter_backend_names(*defs);
  return Error{0, "--counter: unknown counter '" + std::string(text) + "' (choose auto, none" +
                      (names.empty() ? "" : ", " + names) + ")"};
}

std::string counter_option_help() {
  Result<std::vector<CounterBackendDef>> defs = counters::registered_counter_backends();
  if (!defs) return "instruction counter (" + defs.error().message + ")";
  std::string autos;
  for (const CounterBackendDef& def : *defs) {
    if (def.auto_rank == 0) continue;
    autos +=
        (autos.empty() ? "" : ", else ") + name_of(def) + " " + std::string(def.auto_condition);
  }
  std::string names = counters::counter_backend_names(*defs);
  return "instruction counter: auto (" + autos + (autos.empty() ? "" : ", else ") + "none), " +
         names + (names.empty() ? "" : " or ") + "none";
}

bool counter_takes_event(CounterBackend backend) {
  Result<std::optional<CounterBackendDef>> def = counters::find_counter_backend(backend.name());
  return def && *def && (*def)->takes_event;
}

std::string event_counter_names() {
  Result<std::vector<CounterBackendDef>> defs = counters::registered_counter_backends();
  if (!defs) return {};
  std::vector<CounterBackendDef> taking;
  for (CounterBackendDef& def : *defs)
    if (def.takes_event) taking.push_back(def);
  return counters::counter_backend_names(taking, " or ");
}

Result<CounterChoice> choose_counter(const CounterRequest& request) {
  // First, and whatever the counter: --cpu names a CPU, not a backend, so an error must say what
  // is wrong with the CPU rather than blame the counter that happened to pin.
  if (Status st = pin_if_asked(request); !st) return st.error();
  Result<std::vector<CounterBackendDef>> defs = counters::registered_counter_backends();
  if (!defs) return defs.error();
  if (!request.backend) return choose_auto(*defs, request);
  if (*request.backend == CounterBackend::kNone)
    return none("counter none (asked for): instructions are not counted");
  for (const CounterBackendDef& def : *defs)
    if (def.backend == *request.backend) return take(def, request, "asked for");
  return Error{0, "--counter " + std::string(request.backend->name()) +
                      ": no such counter in this program (choose auto, none, " +
                      counters::counter_backend_names(*defs) + ")"};
}

Result<CounterChoice> choose_default_counter(const CounterRequest& request, std::string_view flag) {
  if (Status st = pin_if_asked(request); !st) return st.error();
  Result<std::vector<CounterBackendDef>> defs = counters::registered_counter_backends();
  if (!defs) return defs.error();
  for (const CounterBackendDef& def : *defs) {
    Result<bool> hosted = hosts(def);
    if (!hosted) return hosted.error();
    if (!*hosted) continue;
    Result<CounterOpening> opening = open_here(def, request);
    if (!opening) return about(def, opening.error());
    return opened(
        def, std::move(*opening),
        "counter " + name_of(def) + " (the default " + std::string(def.rerun->host) + ")");
  }
  // The first of auto's backends that measures in this process.
  for (const CounterBackendDef& def : *defs) {
    if (def.rerun || def.auto_rank == 0) continue;
    Result<CounterOpening> opening = open_here(def, request);
    if (!opening) continue;
    std::string why = "counter " + name_of(def) + " (the default " +
                      std::string(def.auto_condition) + ")" + opening->detail;
    return opened(def, std::move(*opening), std::move(why));
  }
  // None: what was missing, and which option would count by re-running.
  std::string why;
  auto say = [&](const std::string& part) { why += (why.empty() ? "" : "; ") + part; };
  for (const CounterBackendDef& def : *defs)
    if (!def.rerun && def.auto_rank != 0) say(std::string(def.auto_missing));
  for (const CounterBackendDef& def : *defs)
    if (def.rerun)
      say(std::string(flag) + "=" + name_of(def) + " counts " + std::string(def.rerun->host));
  return none("counter none (the default " + why + "): instructions are not counted");
}

}  // namespace moq::harness
