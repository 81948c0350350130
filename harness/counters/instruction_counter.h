// The common face of the instruction counters, so the runner can use any backend through one API.
//
// Backends: `perf` (hardware counter through perf_event_open, perf_counter.h) and `callgrind`
// (exact counts from valgrind's callgrind, callgrind_counter.h). Every reading records which
// backend produced it: counts from different backends are never comparable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/base/result.h"

namespace moq::counters {

enum class CounterBackend : uint8_t { None, Perf, Callgrind };

// "none", "perf", "callgrind": the names the CLI accepts and results record.
const char* counter_backend_name(CounterBackend backend);
// The inverse of counter_backend_name; an unknown name is an Error listing the valid ones.
Result<CounterBackend> parse_counter_backend(std::string_view name);

// The count of one measured region. `instructions` is the count of the counter's event (user-
// space instructions for the default events; another event's count when one was chosen).
struct InstrReading {
  uint64_t instructions = 0;
  // perf only: the kernel multiplexed the counter (it ran for less time than it was enabled), so
  // `instructions` is a partial, unscaled count and must be rejected, never scaled.
  bool multiplexed = false;
  CounterBackend backend = CounterBackend::None;
};

class InstructionCounter {
 public:
  virtual ~InstructionCounter() = default;
  // Begins a region. Fails if a region is already open.
  virtual Status start() = 0;
  // Ends the region begun by start() and returns its count.
  virtual Result<InstrReading> stop() = 0;
  virtual CounterBackend backend() const = 0;
  // What is counted, e.g. "instructions:u" (perf) or "Ir" (callgrind).
  virtual const std::string& event() const = 0;
};

}  // namespace moq::counters
