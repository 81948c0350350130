// The common face of the instruction counters, so the runner can use any backend through one API.
//
// Backends: `perf` (hardware counter through perf_event_open, perf_counter.h) and `callgrind`
// (exact counts from valgrind's callgrind, callgrind_counter.h). Every reading records which
// backend produced it, as the results format's one CounterBackend (reports/schema/
// counter_backend.h): counts from different backends are never comparable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/base/result.h"
#include "reports/schema/counter_backend.h"

namespace moq::counters {

using results::CounterBackend;

// The count of one measured region. `instructions` is the count of the counter's event (user-
// space instructions for the default events; another event's count when one was chosen).
struct InstrReading {
  uint64_t instructions = 0;
  // perf only: the kernel multiplexed the counter (it ran for less time than it was enabled), so
  // `instructions` is a partial, unscaled count and must be rejected, never scaled.
  bool multiplexed = false;
  CounterBackend backend = CounterBackend::kNone;
  // callgrind with its simulators only (valgrind's --cache-sim=yes, --branch-sim=yes): the
  // region's misses as results.h's kSimMetrics sum them; nullopt when not simulated.
  std::optional<uint64_t> l1_misses = std::nullopt;
  std::optional<uint64_t> ll_misses = std::nullopt;
  std::optional<uint64_t> branch_misses = std::nullopt;
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
