#include "harness/counters/callgrind_counter.h"

#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "harness/counters/callgrind_dump.h"
#include "harness/counters/callgrind_launch.h"

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
    Result<uint64_t> ir = parse_callgrind_dump_ir(text, label_, path);
    if (!ir) return ir.error();
    last_dump_number = n;
    last_dump_file_ = path;
    if (!keep_dumps_) std::remove(path.c_str());
    return InstrReading{*ir, false, CounterBackend::kCallgrind};
  }
  return Error{
      0, "callgrind backend: no dump of region '" + std::string(label_) + "' found (" +
             (first_missing.empty() ? "none among the next dumps" : "no file " + first_missing) +
             "); was valgrind started with --tool=callgrind --callgrind-out-file=" + out_file_ +
             "?"};
}

}  // namespace moq::counters
