#include "harness/runner/runner.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "harness/counters/alloc_counter.h"
#include "harness/counters/wall_counter.h"
#include "harness/runner/memory_check.h"
#include "harness/runner/round_markers.h"

namespace moq::harness {

namespace {

constexpr size_t kSamplesReserved = 64;

// Per-metric samples of the measured rounds, in round order.
struct Samples {
  std::vector<uint64_t> instructions, allocations, allocation_bytes, wall_ns, streams_opened,
      wire_bytes, tasks_run, packets, udp_bytes;
  // callgrind's simulators, when the counter reads them (not reserved: empty without them).
  std::vector<uint64_t> l1_misses, ll_misses, branch_misses;
  bool on_wire = false;

  void reserve(size_t n) {
    for (std::vector<uint64_t>* v :
         {&instructions, &allocations, &allocation_bytes, &wall_ns, &streams_opened, &wire_bytes,
          &tasks_run, &packets, &udp_bytes})
      v->reserve(n);
  }
};

// One round's readings, taken with as little code as possible between the counter's start and
// stop.
struct RoundReading {
  Status status;
  counters::InstrReading instr;
  counters::AllocSnapshot allocs;
  uint64_t wall_ns = 0;
  StackCounts before, after;
};

Status measure_round(Case& c, uint64_t round, counters::InstructionCounter* counter, bool measured,
                     RoundReading& out) {
  out.before = c.stack_counts();
  counters::WallCounter wall;
  wall.start();
  if (measured) moq_measured_round_begin();
  if (counter) {
    if (Status st = counter->start(); !st) return st;
  }
  // Inside the instruction region so that the counter's own allocations (callgrind reads its dump
  // file in stop()) stay out of the count; a snapshot is two thread-local loads.
  const counters::AllocSnapshot allocs_before = counters::alloc_snapshot();
  out.status = c.run_round(round);
  out.allocs = counters::alloc_snapshot() - allocs_before;
  if (counter) {
    Result<counters::InstrReading> r = counter->stop();
    if (!r) return r.error();
    out.instr = *r;
  }
  if (measured) moq_measured_round_end();
  out.wall_ns = wall.elapsed_ns();
  out.after = c.stack_counts();
  return {};
}

std::string round_name(uint64_t round, uint64_t warmup) {
  if (round < warmup) return "warm-up round " + std::to_string(round + 1);
  return "measured round " + std::to_string(round - warmup + 1);
}

class CaseRun {
 public:
  CaseRun(const CaseSpec& spec, const RunOptions& options, counters::InstructionCounter* counter)
      : spec_(spec), options_(options), counter_(counter) {}

  results::CaseResult run() {
    identify();
    // A capacity that does not depend on the round count: sized by it, these allocations fell
    // in another size class for 5 rounds than for 3 or 8, and the first measured round of a
    // case still warming up cost 210,471 instead of 210,181 instructions (the allocator's state
    // differed). Beyond it the vectors grow between rounds, the same way for every count.
    samples_.reserve(kSamplesReserved);
    bool out_of_memory = false;
    try {
      if (Status st = run_rounds(); !st) fail(st.error().message);
    } catch (const std::bad_alloc&) {
      out_of_memory = true;
    } catch (const std::exception& e) {
      fail(std::string("exception: ") + e.what());
    }
    if (out_of_memory) {
      case_.reset();  // give its memory back before anything else needs some
      fail(
          "out of memory (std::bad_alloc): the case needs more memory than this process could "
          "get; lower its largest axes");
    }
    if (case_) {
      try {
        case_->teardown();
        case_.reset();
      } catch (const std::exception& e) {
        if (!result_.flags.failed) fail(std::string("teardown: exception: ") + e.what());
      }
    }
    finish();
    return std::move(result_);
  }

  results::CaseResult failed(std::string reason) {
    identify();
    fail(std::move(reason));
    finish();
    return std::move(result_);
  }

 private:
  void identify() {
    result_.bench = spec_.bench();
    result_.scenario = spec_.scenario().name;
    result_.version = spec_.version();
    result_.params = spec_.id_params();
    result_.id = results::make_case_id(result_);
    result_.rounds = {options_.warmup, options_.rounds};
  }

  Status run_rounds() {
    // Before building anything: a case that cannot fit is refused with its size, not left to
    // fail in the allocator (the CLI refuses it earlier still, as bad input).
    if (Status st = check_case_memory(spec_, memory_limit()); !st) return st;
    Result<std::unique_ptr<Case>> made = spec_.scenario().make(spec_);
    if (!made) return Error{0, "building the case: " + made.error().message};
    case_ = std::move(*made);
    if (Status st = case_->setup(); !st) return Error{0, "setup: " + st.error().message};

    const uint32_t cycle = std::max<uint32_t>(case_->round_multiple(), 1);
    auto whole_cycles = [cycle](uint32_t rounds) { return (rounds + cycle - 1) / cycle * cycle; };
    const uint32_t warmup = whole_cycles(std::max(options_.warmup, case_->min_warmup_rounds()));
    const uint32_t measured = whole_cycles(options_.rounds);
    result_.rounds.warmup = warmup;
    uint64_t round = 0;
    for (uint32_t w = 0; w < warmup; ++w, ++round) {
      if (Status st = one_round(round, /*measure=*/false); !st) return st;
    }
    uint32_t rejected = 0;
    uint32_t accepted = 0;
    while (accepted < measured) {
      Result<bool> ok = one_round_measured(round++);
      if (!ok) return ok.error();
      if (*ok) {
        ++accepted;
      } else if (++rejected > measured) {
        return Error{0, std::to_string(rejected) +
                            " perf readings ran multiplexed and were rejected (another program "
                            "uses the PMU counters?)"};
      }
    }
    result_.timing = case_->delivery_timing(warmup);
    return {};
  }

  // A warm-up round: run and checked, not recorded.
  Status one_round(uint64_t round, bool measure) {
    case_->prepare_round(round);
    RoundReading reading;
    if (Status st = measure_round(*case_, round, measure ? counter_ : nullptr, measure, reading);
        !st)
      return Error{0,
                   round_name(round, result_.rounds.warmup) + ": counter: " + st.error().message};
    if (!reading.status)
      return Error{
          0, round_name(round, result_.rounds.warmup) + ": " + reading.status.error().message};
    return check(round).first;
  }

  // A measured round: false when its reading was rejected (multiplexed).
  Result<bool> one_round_measured(uint64_t round) {
    case_->prepare_round(round);
    RoundReading reading;
    if (Status st = measure_round(*case_, round, counter_, /*measured=*/true, reading); !st)
      return Error{0,
                   round_name(round, result_.rounds.warmup) + ": counter: " + st.error().message};
    if (!reading.status)
      return Error{
          0, round_name(round, result_.rounds.warmup) + ": " + reading.status.error().message};
    auto [st, delivered] = check(round);
    if (!st) return st.error();
    if (reading.instr.multiplexed) {
      result_.flags.multiplexed = true;
      return false;
    }
    if (counter_) samples_.instructions.push_back(reading.instr.instructions);
    if (reading.instr.l1_misses) samples_.l1_misses.push_back(*reading.instr.l1_misses);
    if (reading.instr.ll_misses) samples_.ll_misses.push_back(*reading.instr.ll_misses);
    if (reading.instr.branch_misses) samples_.branch_misses.push_back(*reading.instr.branch_misses);
    samples_.allocations.push_back(reading.allocs.allocs);
    samples_.allocation_bytes.push_back(reading.allocs.bytes);
    samples_.wall_ns.push_back(reading.wall_ns);
    samples_.streams_opened.push_back(reading.after.streams_opened - reading.before.streams_opened);
    samples_.wire_bytes.push_back(reading.after.wire_bytes - reading.before.wire_bytes);
    samples_.tasks_run.push_back(reading.after.tasks_run - reading.before.tasks_run);
    samples_.packets.push_back(reading.after.packets - reading.before.packets);
    samples_.udp_bytes.push_back(reading.after.udp_bytes - reading.before.udp_bytes);
    samples_.on_wire = samples_.on_wire || reading.after.on_wire;
    delivered_.add(delivered);
    return true;
  }

  std::pair<Status, RoundDelivery> check(uint64_t round) {
    RoundCheck chk = case_->check_round(round);
    if (!chk.broken.empty())
      return {Error{0, round_name(round, result_.rounds.warmup) + ": " + chk.broken},
              chk.delivered};
    if (chk.delivered == chk.expected) return {Status{}, chk.delivered};
    return {
        Error{0, round_name(round, result_.rounds.warmup) + ": delivery check failed: delivered " +
                     describe(chk.delivered) + "; expected " + describe(chk.expected)},
        chk.delivered};
  }

  void fail(std::string reason) {
    result_.flags.failed = true;
    result_.flags.reason = std::move(reason);
  }

  void finish() {
    results::Metrics& m = result_.metrics;
    m.instructions = results::compute_stats(std::move(samples_.instructions));
    m.allocations = results::compute_stats(std::move(samples_.allocations));
    m.allocation_bytes = results::compute_stats(std::move(samples_.allocation_bytes));
    m.wall_ns = results::compute_stats(std::move(samples_.wall_ns));
    m.streams_opened = results::compute_stats(std::move(samples_.streams_opened));
    m.wire_bytes = results::compute_stats(std::move(samples_.wire_bytes));
    m.tasks_run = results::compute_stats(std::move(samples_.tasks_run));
    m.l1_misses = results::compute_stats(std::move(samples_.l1_misses));
    m.ll_misses = results::compute_stats(std::move(samples_.ll_misses));
    m.branch_misses = results::compute_stats(std::move(samples_.branch_misses));
    if (samples_.on_wire) {
      m.packets = results::compute_stats(std::move(samples_.packets));
      m.udp_bytes = results::compute_stats(std::move(samples_.udp_bytes));
    }
    RoundDelivery d = delivered_.result();
    result_.delivered = {d.frames, d.bytes, hash_hex(d.hash)};
  }

  const CaseSpec& spec_;
  RunOptions options_;
  counters::InstructionCounter* counter_;
  std::unique_ptr<Case> case_;
  Samples samples_;
  DeliveryCombiner delivered_;
  results::CaseResult result_;
};

}  // namespace

results::CaseResult run_case(const CaseSpec& spec, const RunOptions& options,
                             counters::InstructionCounter* counter) {
  return CaseRun(spec, options, counter).run();
}

results::CaseResult failed_case(const CaseSpec& spec, const RunOptions& options,
                                std::string reason) {
  return CaseRun(spec, options, nullptr).failed(std::move(reason));
}

}  // namespace moq::harness
