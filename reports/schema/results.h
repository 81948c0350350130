// The moqbench results format (schema "moqbench.results/3") as C++ values. FORMAT.md documents
// every field; validate.h checks a JSON document against it; json_io.h converts both ways;
// results_file.h reads and writes files.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "reports/schema/counter_backend.h"

namespace moq::results {

inline constexpr std::string_view kSchema = "moqbench.results/3";
// Older schemas still read. Version 1 had no meta.plan and no meta.run: such a file says nothing
// of what it set out to measure or how its run ended. Versions 1 and 2 had no spread figures in
// a stats object: they are computed from its samples on reading (FORMAT.md, "Versions").
inline constexpr std::array<std::string_view, 2> kOlderSchemas = {"moqbench.results/2",
                                                                  "moqbench.results/1"};
// Whether a schema string's stats objects carry the spread figures (stddev, cv, outliers).
bool schema_has_spread(std::string_view schema);

// One shard of a sweep (`moqbench sweep --shard I/N`): case k of the sweep's plan (0-based) runs
// in shard k mod N + 1. `moqbench merge` joins the N files back into the sweep.
struct ShardInfo {
  uint32_t index = 1;              // I, 1-based
  uint32_t count = 1;              // N
  uint64_t plan_cases = 0;         // cases in the whole sweep
  std::string plan_digest;         // 16 lowercase hex digits: FNV-1a of the plan's ids and rounds
  std::vector<std::string> cases;  // the ids this shard runs, in plan order

  bool operator==(const ShardInfo&) const = default;
};

// What a run, sweep or merge set out to measure, so that a reader can tell a case that was never
// planned from one that was planned and not measured.
struct PlanInfo {
  std::vector<std::string> cases;  // the planned ids, in plan order
  std::string digest;              // 16 lowercase hex digits: FNV-1a of the ids and rounds
  std::string selection;           // how the cases were chosen: the sweep's options, its shard

  bool operator==(const PlanInfo&) const = default;
};

// How the run that wrote the file ended. A file is rewritten after every case with "running", so
// a run that died without a word (killed, crashed) leaves "running": incomplete all the same.
enum class RunState { kRunning, kComplete, kInterrupted };
std::string_view to_string(RunState state);
std::optional<RunState> parse_run_state(std::string_view text);
struct RunEnd {
  RunState state = RunState::kRunning;
  std::optional<int> signal;        // kInterrupted: the signal that stopped it
  uint64_t cases_done = 0;          // cases measured (K of the plan's M)
  std::vector<std::string> failed;  // ids of the cases that failed, in run order

  bool operator==(const RunEnd&) const = default;
};

// Where, how and from what the results were produced.
struct Meta {
  std::string tool_version;
  std::optional<std::string> git_commit;  // full lowercase hex id; nullopt: not a git checkout
  bool git_dirty = false;                 // uncommitted changes in the measured tree
  std::string compiler;                   // e.g. "GNU 12.2.0"
  std::string compiler_flags;             // the flags the measured code was compiled with
  std::string build_type;                 // e.g. "Release"
  std::string cpu_model;
  std::string kernel;
  CounterBackend counter_backend = CounterBackend::kNone;
  std::optional<std::string> counter_event;  // e.g. "instructions:u", "Ir"; nullopt iff kNone
  std::optional<uint32_t> pinned_cpu;        // nullopt: not pinned
  std::vector<std::string> command_line;     // argv of the run
  std::string start_time;                    // ISO 8601 UTC, "2026-11-29T18:30:01Z"
  std::optional<ShardInfo> shard;            // nullopt: a whole sweep (or a run)
  // Which binary measured: its absolute path and its linker build id (lowercase hex). Two files
  // of one source with the same pair are reruns of one build; a different pair is another build
  // of that source (inputs.h). nullopt: not recorded (older files, or not readable).
  std::optional<std::string> executable;
  std::optional<std::string> build_id;
  // nullopt: not recorded (schema version 1).
  std::optional<PlanInfo> plan;
  std::optional<RunEnd> run;

  bool operator==(const Meta&) const = default;
};

// Statistics of one metric over the measured rounds. All counts are integers; the median of an
// even number of samples is the LOWER of the two middle values, so a median is always a value
// some round produced (no half allocations), and gates compare integers.
//
// The spread: stddev is the sample standard deviation (n - 1 in the denominator; 0 for one
// sample), cv the coefficient of variation stddev / mean (0 when the mean is 0), and outliers the
// rounds outside Tukey's fences [Q1 - 1.5 IQR, Q3 + 1.5 IQR], the quartiles linearly interpolated
// between the sorted samples (as hyperfine and numpy do). An exact counter repeats its count, so
// its spread is 0 with no outliers.
struct MetricStats {
  uint64_t median = 0;
  uint64_t min = 0;
  uint64_t max = 0;
  double mean = 0;
  double stddev = 0;
  double cv = 0;
  uint64_t outliers = 0;
  std::vector<uint64_t> samples;  // one per measured round, in round order

  bool operator==(const MetricStats&) const = default;
};

// Stats of samples (kept in round order); nullopt when samples is empty.
std::optional<MetricStats> compute_stats(std::vector<uint64_t> samples);

enum class Metric {
  kInstructions,
  kAllocations,
  kAllocationBytes,
  kWallNs,
  kStreamsOpened,
  kWireBytes,
  kTasksRun,
  kPackets,  // optional: only a case over a transport with a wire (QUIC) has them
  kUdpBytes,
  kL1Misses,  // optional: callgrind with --cache-sim or --branch-sim only (kSimMetrics)
  kLlMisses,
  kBranchMisses,
};
inline constexpr std::array<Metric, 7> kAllMetrics = {
    Metric::kInstructions,  Metric::kAllocations, Metric::kAllocationBytes, Metric::kWallNs,
    Metric::kStreamsOpened, Metric::kWireBytes,   Metric::kTasksRun,
};
// Metrics present only for a case whose transport has a wire (params.transport quic-sim or
// quic): UDP datagrams sent and their payload bytes, every connection, per round.
inline constexpr std::array<Metric, 2> kWireMetrics = {Metric::kPackets, Metric::kUdpBytes};
// Metrics of callgrind's simulators, present only when the run asked for them: with --cache-sim,
// l1_misses (I1mr + D1mr + D1mw: first-level instruction read, data read and data write misses)
// and ll_misses (ILmr + DLmr + DLmw: the same at the last level); with --branch-sim,
// branch_misses (Bcm + Bim: mispredicted conditional and indirect branches).
inline constexpr std::array<Metric, 3> kSimMetrics = {Metric::kL1Misses, Metric::kLlMisses,
                                                      Metric::kBranchMisses};
// The metrics a case may lack (no key): kWireMetrics, then kSimMetrics.
inline constexpr std::array<Metric, 5> kOptionalMetrics = {Metric::kPackets, Metric::kUdpBytes,
                                                           Metric::kL1Misses, Metric::kLlMisses,
                                                           Metric::kBranchMisses};
// The JSON key of a metric: "instructions", "allocation_bytes", ...
std::string_view metric_name(Metric metric);

// Per-round metrics. nullopt (JSON null) when there is no sample: instructions under the "none"
// backend, or a failed case that completed no measured round.
struct Metrics {
  std::optional<MetricStats> instructions;
  std::optional<MetricStats> allocations;
  std::optional<MetricStats> allocation_bytes;
  std::optional<MetricStats> wall_ns;
  std::optional<MetricStats> streams_opened;  // the stack's own per-round counts
  std::optional<MetricStats> wire_bytes;
  std::optional<MetricStats> tasks_run;
  std::optional<MetricStats> packets;  // kWireMetrics: nullopt (no key) without a wire
  std::optional<MetricStats> udp_bytes;
  std::optional<MetricStats> l1_misses;  // kSimMetrics: nullopt (no key) unless simulated
  std::optional<MetricStats> ll_misses;
  std::optional<MetricStats> branch_misses;

  std::optional<MetricStats>& get(Metric metric);
  const std::optional<MetricStats>& get(Metric metric) const;
  bool operator==(const Metrics&) const = default;
};

// A sweep axis value: integers stay numbers (they can be plotted), everything else is a string.
using ParamValue = std::variant<int64_t, std::string>;
std::string param_value_text(const ParamValue& value);

struct Param {
  std::string name;
  ParamValue value;
  bool operator==(const Param&) const = default;
};

struct Rounds {
  uint64_t warmup = 0;
  uint64_t measured = 0;
  bool operator==(const Rounds&) const = default;
};

// What the measured rounds delivered, summed over them, with a hash of the delivered payload
// order (lowercase hex) so that skipped or reordered work shows.
struct Delivered {
  uint64_t frames = 0;
  uint64_t bytes = 0;
  std::string hash;
  bool operator==(const Delivered&) const = default;
};

struct CaseFlags {
  bool multiplexed = false;           // a perf sample ran multiplexed (it was rejected)
  bool failed = false;                // the case did not complete; metrics may be partial
  std::optional<std::string> reason;  // required when failed; otherwise an optional note
  bool operator==(const CaseFlags&) const = default;
};

// Percentiles of a latency, nanoseconds (nearest rank: each is a latency some frame had).
struct LatencyStats {
  uint64_t p50 = 0;
  uint64_t p90 = 0;
  uint64_t p99 = 0;
  uint64_t max = 0;
  bool operator==(const LatencyStats&) const = default;
};
// Nearest-rank percentiles of samples (sorted in place); zeros when empty.
LatencyStats latency_stats(std::vector<uint64_t>& samples);

// A live run against a relay over real QUIC (`moqbench load`): what its viewers received in the
// measured window against what they should have, and how late.
struct LoadSummary {
  uint64_t frames_expected = 0;   // frames written in the window x the viewers of their broadcast
  uint64_t frames_delivered = 0;  // of those, the frames their viewers read
  uint64_t frames_lost = 0;       // frames_expected - frames_delivered
  uint64_t bytes_delivered = 0;
  // Absent when no frame arrived (null in JSON): a percentile of nothing is not 0.
  std::optional<LatencyStats> frame_latency_ns;  // written -> read, every delivered frame
  // Per whole group and viewer: the latency of its latest frame; absent when no group completed.
  std::optional<LatencyStats> group_latency_ns;
  bool relay_in_process = false;  // the relay ran in this process (on its own thread)
  std::optional<double> relay_allocations_per_frame;   // in-process relay only
  std::optional<double> relay_instructions_per_frame;  // in-process relay with a perf counter
  bool operator==(const LoadSummary&) const = default;
};

// One viewer's groups over the measured rounds of a case that measures delivery in virtual time.
struct ViewerGroups {
  uint64_t whole = 0;  // groups read from first frame to end
  // Groups that ended before their end (frames read may be partial): reset or aborted on the
  // way, or let go by the viewer for newer ones.
  uint64_t reset = 0;
  uint64_t skipped = 0;  // groups the viewer never received (a gap in sequences it saw)
  bool operator==(const ViewerGroups&) const = default;
};
// Delivery measured on the world's virtual clock (scenarios whose viewers read as data arrives,
// e.g. `congested`), over the measured rounds.
struct DeliveryTiming {
  // The publisher's write of a frame -> a viewer's read of it, every frame read.
  LatencyStats frame_latency_ns;
  // Per group and viewer, whole or not: the write of its first frame -> the viewer's read of the
  // last frame it read of it.
  LatencyStats group_latency_ns;
  uint64_t group_duration_ns = 0;  // the publisher's pace: one group per this many ns (0: unpaced)
  std::vector<ViewerGroups> viewers;  // in viewer order
  bool operator==(const DeliveryTiming&) const = default;
};

inline constexpr std::array<std::string_view, 2> kBenches = {"model", "relay"};

// One role's share of each measured round (`run --roles`): the roles of model/async/role.h,
// measured by callgrind passes that count inside that role's code alone (harness/cli/
// role_split.h). The roles of a case sum to its instructions and allocations.
inline constexpr std::array<std::string_view, 5> kRoleNames = {"harness", "publisher", "relay",
                                                               "viewer", "transport"};
struct RoleCost {
  std::string role;  // one of kRoleNames
  MetricStats instructions;
  MetricStats allocations;
  bool operator==(const RoleCost&) const = default;
};

struct CaseResult {
  std::string id;  // make_case_id(*this): bench/scenario/version/name=value/...
  std::string bench;
  std::string scenario;
  std::string version;        // protocol version, e.g. "moq-lite-06"
  std::vector<Param> params;  // sweep axes, in id order
  Rounds rounds;
  Metrics metrics;
  Delivered delivered;
  CaseFlags flags;
  std::optional<LoadSummary> load;       // `moqbench load` results only
  std::optional<DeliveryTiming> timing;  // cases that measure delivery in virtual time
  std::vector<RoleCost> roles;           // in kRoleNames order; empty: not split by role

  const Param* find_param(std::string_view name) const;
  bool operator==(const CaseResult&) const = default;
};

// "bench/scenario/version/name=value/..." with params in order.
std::string make_case_id(std::string_view bench, std::string_view scenario,
                         std::string_view version, const std::vector<Param>& params);
inline std::string make_case_id(const CaseResult& c) {
  return make_case_id(c.bench, c.scenario, c.version, c.params);
}

struct ResultsFile {
  Meta meta;
  std::vector<CaseResult> cases;

  const CaseResult* find_case(std::string_view id) const;
  bool operator==(const ResultsFile&) const = default;
};

// Formats seconds since the Unix epoch as ISO 8601 UTC ("YYYY-MM-DDTHH:MM:SSZ"); for the runner
// to fill Meta::start_time.
std::string iso8601_utc(int64_t unix_seconds);

}  // namespace moq::results
