#include "harness/counters/callgrind_counter.h"

#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>

#include "harness/counters/callgrind_dump.h"
#include "harness/counters/callgrind_launch.h"
#include "harness/counters/counter_registry.h"

namespace moq::counters {
namespace {

// Callgrind numbers its dumps per process (1, 2, ...); these are process-wide so several counters
// in one process agree on where the next dump lands.
uint64_t last_dump_number = 0;
uint64_t regions_started = 0;

// Dumps triggered by someone else (callgrind_control -d) shift the numbering; look this far
// ahead for ours, recognised by its label.
constexpr uint64_t kDumpLookahead = 64;

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

// The sum of a simulator's events; nullopt when the dump lacks any of them (not simulated).
std::optional<uint64_t> sum_of_events(const CallgrindDumpTotals& totals,
                                      std::initializer_list<std::string_view> names) {
  uint64_t sum = 0;
  for (std::string_view name : names) {
    std::optional<uint64_t> v = totals.event(name);
    if (!v) return std::nullopt;
    sum += *v;
  }
  return sum;
}

}  // namespace

Result<std::unique_ptr<CallgrindCounter>> CallgrindCounter::open(const CallgrindOptions& options) {
  if (!running_under_valgrind()) {
    return Error{0,
                 "callgrind backend: not running under valgrind; the program must re-run "
                 "itself through run_under_callgrind (the moqbench CLI does this for "
                 "--counter callgrind)"};
  }
  const char* out = getenv(kCallgrindOutFileEnv);
  if (out == nullptr || out[0] == '\0') {
    return Error{0, std::string("callgrind backend: running under valgrind but ") +
                        kCallgrindOutFileEnv +
                        " is not set; start through run_under_callgrind, or run `valgrind "
                        "--tool=callgrind --instr-atstart=no --callgrind-out-file=F ...` with " +
                        kCallgrindOutFileEnv + "=F"};
  }
  return std::unique_ptr<CallgrindCounter>(new CallgrindCounter(out, options.keep_dumps));
}

Status CallgrindCounter::start() {
  if (running_) return Error{0, "callgrind backend: start() while a region is already open"};
  snprintf(label_, sizeof label_, "moq-region-%llu",
           static_cast<unsigned long long>(++regions_started));
  running_ = true;
  CALLGRIND_START_INSTRUMENTATION;
  CALLGRIND_ZERO_STATS;
  return {};
}

Result<InstrReading> CallgrindCounter::stop() {
  if (!running_) return Error{0, "callgrind backend: stop() without start()"};
  CALLGRIND_DUMP_STATS_AT(label_);
  CALLGRIND_STOP_INSTRUMENTATION;
  running_ = false;

  std::string text;
  std::string first_missing;
  for (uint64_t n = last_dump_number + 1; n <= last_dump_number + kDumpLookahead; ++n) {
    std::string path = out_file_ + "." + std::to_string(n);
    if (!read_file(path, text)) {
      first_missing = path;
      break;  // callgrind numbers dumps without gaps: nothing further exists either
    }
    if (callgrind_dump_label(text) != label_) continue;  // someone else's dump
    Result<CallgrindDumpTotals> totals = parse_callgrind_dump(text, label_, path);
    if (!totals) return totals.error();
    last_dump_number = n;
    last_dump_file_ = path;
    if (!keep_dumps_) std::remove(path.c_str());
    InstrReading reading{totals->ir, false, CounterBackend::kCallgrind};
    reading.l1_misses = sum_of_events(*totals, {"I1mr", "D1mr", "D1mw"});
    reading.ll_misses = sum_of_events(*totals, {"ILmr", "DLmr", "DLmw"});
    reading.branch_misses = sum_of_events(*totals, {"Bcm", "Bim"});
    return reading;
  }
  return Error{
      0, "callgrind backend: no dump of region '" + std::string(label_) + "' found (" +
             (first_missing.empty() ? "none among the next dumps" : "no file " + first_missing) +
             "); was valgrind started with --tool=callgrind --callgrind-out-file=" + out_file_ +
             "?"};
}

namespace {

// The registry's face of this backend. It measures from outside: the program runs again under
// valgrind (run_under_callgrind) and the counter opens in that re-run; auto tries it after perf.
Result<CounterOpening> open_callgrind(const CounterOptions&) {
  Result<std::unique_ptr<CallgrindCounter>> c = CallgrindCounter::open();
  if (!c) return c.error();
  CounterOpening opening;
  opening.counter = std::move(*c);
  opening.detail = "; running under callgrind, re-run by moqbench";
  return opening;
}

// valgrind started by run_under_callgrind (or by hand the same way) sets kCallgrindOutFileEnv.
Result<bool> hosted_by_callgrind() {
  if (!running_under_valgrind()) return false;
  if (std::getenv(kCallgrindOutFileEnv) == nullptr)
    return Error{0,
                 "this process runs under valgrind but was not started by moqbench "
                 "(MOQ_CALLGRIND_OUT_FILE is not set); run moqbench directly and it re-runs "
                 "itself under valgrind"};
  return true;
}

Result<std::string> prepare_callgrind_rerun() {
  Result<std::string> valgrind = find_valgrind();
  if (!valgrind) return valgrind.error();
  return "; re-running under " + *valgrind + " --tool=callgrind";
}

CounterBackendDef callgrind_backend() {
  CounterBackendDef def;
  def.backend = CounterBackend::kCallgrind;
  def.auto_rank = 2;
  def.auto_condition = "where valgrind is installed";
  def.auto_missing = "without valgrind";
  def.open = open_callgrind;
  def.rerun = CounterRerun{"under valgrind", hosted_by_callgrind, prepare_callgrind_rerun, "Ir"};
  return def;
}

}  // namespace

MOQ_REGISTER_COUNTER_BACKEND(callgrind_backend);

}  // namespace moq::counters
