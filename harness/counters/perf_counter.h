// Instruction counting with a hardware performance counter (backend "perf").
//
// The event is named through libpfm4 (default "instructions:u"; a PMU-specific name such as
// "cpu_core/instructions/u" also works on hybrid CPUs), opened with perf_event_open for the
// calling thread, user space only (kernel and hypervisor excluded). Each region reads
// time-enabled and time-running: a region in which the kernel multiplexed the counter is flagged
// in the reading (multiplexed = true), never scaled.
//
// Machines without a PMU (most VMs, these build machines) cannot open hardware events: open()
// then fails with an Error naming the event, the errno text and the fix (--counter callgrind).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "harness/counters/cpu_pin.h"
#include "harness/counters/instruction_counter.h"
#include "model/base/result.h"

namespace moq::counters {

struct PerfOptions {
  std::string event = "instructions:u";
  // Pin the calling thread to this CPU before opening the counter (less migration noise).
  std::optional<int> pin_cpu;
};

// One read() of the counter: value plus PERF_FORMAT_TOTAL_TIME_ENABLED / _RUNNING.
struct PerfRawCount {
  uint64_t value = 0;
  uint64_t time_enabled = 0;
  uint64_t time_running = 0;
};

// The reading of a region from the reads at its start and end: the value difference, unscaled,
// flagged multiplexed when the counter ran for less time than it was enabled.
InstrReading perf_region_reading(const PerfRawCount& begin, const PerfRawCount& end);

class PerfCounter final : public InstructionCounter {
 public:
  static Result<std::unique_ptr<PerfCounter>> open(const PerfOptions& options);
  ~PerfCounter() override;
  PerfCounter(const PerfCounter&) = delete;
  PerfCounter& operator=(const PerfCounter&) = delete;

  Status start() override;
  Result<InstrReading> stop() override;
  CounterBackend backend() const override { return CounterBackend::kPerf; }
  const std::string& event() const override { return event_; }
  // libpfm4's fully qualified name of the event, e.g.
  // "perf::PERF_COUNT_HW_INSTRUCTIONS:u=1:k=0...".
  const std::string& encoded_event() const { return encoded_event_; }

 private:
  PerfCounter(int fd, std::string event, std::string encoded_event)
      : fd_(fd), event_(std::move(event)), encoded_event_(std::move(encoded_event)) {}
  Result<PerfRawCount> read_raw() const;

  int fd_;
  std::string event_;
  std::string encoded_event_;
  bool running_ = false;
  PerfRawCount begin_;
};

}  // namespace moq::counters
