// One benchmark case: a topology built once, then driven round by round by the runner
// (runner.h). Scenarios (scenarios/) implement it; the harness meets them only through the
// registry (scenario.h).
//
// The runner calls, in order:
//   setup()                               once, not measured
//   for each round r = 0, 1, ... (warm-up rounds first, then measured ones):
//     prepare_round(r)                    not measured: clear the viewers' delivery logs, ...
//     run_round(r)                        MEASURED: instructions, allocations, wall time
//     check_round(r)                      not measured: what was delivered and what should have
//     been
//   teardown()                            once, not measured
// stack_counts() is read just before and just after each run_round(); the difference is the
// round's own stack counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "harness/runner/delivery.h"
#include "model/base/result.h"
#include "reports/schema/results.h"

namespace moq::harness {

// The stack's own counters, cumulative since setup; per round the runner takes differences.
struct StackCounts {
  uint64_t streams_opened = 0;  // transport streams opened, both directions, every connection
  uint64_t wire_bytes = 0;      // bytes written to the transport, both directions
  uint64_t tasks_run = 0;       // executor polls (Executor::polls())
  // A transport with a wire (QUIC): UDP datagrams sent and their payload bytes. on_wire says
  // whether the case's connections have one at all (results record packets only then).
  bool on_wire = false;
  uint64_t packets = 0;
  uint64_t udp_bytes = 0;
};

// A round's delivery next to what the scenario expected. The runner fails the case when they
// differ, naming both.
struct RoundCheck {
  RoundDelivery delivered;
  RoundDelivery expected;
  // An invariant of the topology the round broke, named (e.g. a relay holding two upstream
  // subscriptions for one track); empty: none. The runner fails the case with it.
  std::string broken;
};

class Case {
 public:
  virtual ~Case() = default;

  // Builds the topology (connections, sessions, subscriptions) and reaches the state rounds start
  // from. An Error fails the case with its message.
  virtual Status setup() = 0;
  // Before each round, outside the measured region.
  virtual void prepare_round(uint64_t /*round*/) {}
  // The measured step: the round's writes and reads, and the executor run until idle. An Error
  // (deadlock, exhausted step budget, stack error) fails the case with its message.
  virtual Status run_round(uint64_t round) = 0;
  // After each round, outside the measured region: hashes what the viewers recorded and computes
  // what they should have received.
  virtual RoundCheck check_round(uint64_t round) = 0;
  virtual StackCounts stack_counts() const = 0;
  // Warm-up rounds this case needs before its rounds are steady (e.g. until a cache it fills is
  // full); the runner warms up for at least this many, whatever it was asked for, and records
  // the number it ran.
  virtual uint32_t min_warmup_rounds() const { return 0; }
  // The rounds of one cycle of this case (e.g. 4 when a group is written one frame a round): the
  // runner warms up and measures a whole number of cycles, so that every phase of the cycle is
  // sampled alike.
  virtual uint32_t round_multiple() const { return 1; }
  // Delivery measured on the world's virtual clock over the rounds from first_measured_round on
  // (the measured ones), after the last: for a case whose viewers read as data arrives.
  // nullopt: the case does not measure it (viewers that read after the round settled would
  // only time the settling).
  virtual std::optional<results::DeliveryTiming> delivery_timing(
      uint64_t /*first_measured_round*/) const {
    return std::nullopt;
  }
  // Once after the last round, outside measurement (the destructor follows).
  virtual void teardown() {}
};

}  // namespace moq::harness
