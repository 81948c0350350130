// Exact instruction counting with valgrind's callgrind (backend "callgrind").
//
// The program runs under `valgrind --tool=callgrind --instr-atstart=no ...` (callgrind_launch.h).
// start() switches instrumentation on and zeroes callgrind's counters; stop() dumps them with a
// region label (CALLGRIND_DUMP_STATS_AT), switches instrumentation off, and reads the region's Ir
// back from the dump file that the dump wrote (<out-file>.<n>, n = callgrind's dump number). The
// count is exact and repeatable; it includes a constant few instructions of start()/stop()
// themselves.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "harness/counters/instruction_counter.h"
#include "model/base/result.h"

namespace moq::counters {

struct CallgrindOptions {
  // Keep each region's dump file (for callgrind_annotate / kcachegrind) instead of deleting it
  // once read.
  bool keep_dumps = false;
};

class CallgrindCounter final : public InstructionCounter {
 public:
  // Fails unless the process runs under valgrind started by run_under_callgrind (or by hand
  // with the same options and MOQ_CALLGRIND_OUT_FILE set).
  static Result<std::unique_ptr<CallgrindCounter>> open(const CallgrindOptions& options = {});

  Status start() override;
  Result<InstrReading> stop() override;
  CounterBackend backend() const override { return CounterBackend::kCallgrind; }
  const std::string& event() const override { return event_; }
  // The callgrind output file; region dumps are this name plus ".<n>".
  const std::string& out_file() const { return out_file_; }
  // The dump file of the last region read (deleted unless keep_dumps).
  const std::string& last_dump_file() const { return last_dump_file_; }

 private:
  CallgrindCounter(std::string out_file, bool keep_dumps)
      : out_file_(std::move(out_file)), keep_dumps_(keep_dumps) {}

  std::string out_file_;
  bool keep_dumps_;
  bool running_ = false;
  char label_[32] = {};  // prepared before the region, so making it is not counted
  std::string event_ = "Ir";
  std::string last_dump_file_;
};

}  // namespace moq::counters
