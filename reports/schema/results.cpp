#include "reports/schema/results.h"

#include <algorithm>
#include <cmath>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace moq::results {

namespace {

// The q-quantile of sorted samples, linearly interpolated between the two nearest ranks.
long double quantile(const std::vector<uint64_t>& sorted, long double q) {
  const long double pos = q * static_cast<long double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(pos);
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const long double fraction = pos - static_cast<long double>(below);
  return static_cast<long double>(sorted[below]) +
         fraction *
             (static_cast<long double>(sorted[above]) - static_cast<long double>(sorted[below]));
}

}  // namespace

bool schema_has_spread(std::string_view schema) {
  return schema != "moqbench.results/1" && schema != "moqbench.results/2";
}

std::optional<MetricStats> compute_stats(std::vector<uint64_t> samples) {
  if (samples.empty()) return std::nullopt;
  MetricStats stats;
  std::vector<uint64_t> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  stats.min = sorted.front();
  stats.max = sorted.back();
  // Lower middle for an even count: see MetricStats.
  stats.median = sorted[(sorted.size() - 1) / 2];
  // long double keeps the sum exact for any realistic count of 64-bit samples.
  long double sum = 0;
  for (uint64_t s : samples)
    sum += static_cast<long double>(s);
  const long double mean = sum / static_cast<long double>(samples.size());
  stats.mean = static_cast<double>(mean);
  if (samples.size() > 1) {
    long double squares = 0;
    for (uint64_t s : samples) {
      const long double d = static_cast<long double>(s) - mean;
      squares += d * d;
    }
    stats.stddev =
        static_cast<double>(std::sqrt(squares / static_cast<long double>(samples.size() - 1)));
  }
  stats.cv = mean > 0 ? static_cast<double>(static_cast<long double>(stats.stddev) / mean) : 0.0;
  const long double q1 = quantile(sorted, 0.25);
  const long double q3 = quantile(sorted, 0.75);
  const long double low = q1 - 1.5L * (q3 - q1);
  const long double high = q3 + 1.5L * (q3 - q1);
  for (uint64_t s : samples) {
    const long double v = static_cast<long double>(s);
    if (v < low || v > high) ++stats.outliers;
  }
  stats.samples = std::move(samples);
  return stats;
}

std::string_view to_string(RunState state) {
  switch (state) {
    case RunState::kRunning:
      return "running";
    case RunState::kComplete:
      return "complete";
    case RunState::kInterrupted:
      return "interrupted";
  }
  return "running";
}

std::optional<RunState> parse_run_state(std::string_view text) {
  for (RunState s : {RunState::kRunning, RunState::kComplete, RunState::kInterrupted})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

std::string_view metric_name(Metric metric) {
  switch (metric) {
    case Metric::kInstructions:
      return "instructions";
    case Metric::kAllocations:
      return "allocations";
    case Metric::kAllocationBytes:
      return "allocation_bytes";
    case Metric::kWallNs:
      return "wall_ns";
    case Metric::kStreamsOpened:
      return "streams_opened";
    case Metric::kWireBytes:
      return "wire_bytes";
    case Metric::kTasksRun:
      return "tasks_run";
    case Metric::kPackets:
      return "packets";
    case Metric::kUdpBytes:
      return "udp_bytes";
    case Metric::kL1Misses:
      return "l1_misses";
    case Metric::kLlMisses:
      return "ll_misses";
    case Metric::kBranchMisses:
      return "branch_misses";
  }
  return "";
}

std::optional<MetricStats>& Metrics::get(Metric metric) {
  switch (metric) {
    case Metric::kInstructions:
      return instructions;
    case Metric::kAllocations:
      return allocations;
    case Metric::kAllocationBytes:
      return allocation_bytes;
    case Metric::kWallNs:
      return wall_ns;
    case Metric::kStreamsOpened:
      return streams_opened;
    case Metric::kWireBytes:
      return wire_bytes;
    case Metric::kTasksRun:
      return tasks_run;
    case Metric::kPackets:
      return packets;
    case Metric::kUdpBytes:
      return udp_bytes;
    case Metric::kL1Misses:
      return l1_misses;
    case Metric::kLlMisses:
      return ll_misses;
    case Metric::kBranchMisses:
      return branch_misses;
  }
  return instructions;
}

const std::optional<MetricStats>& Metrics::get(Metric metric) const {
  return const_cast<Metrics*>(this)->get(metric);
}

LatencyStats latency_stats(std::vector<uint64_t>& samples) {
  LatencyStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  auto rank = [&](double p) {
    const size_t n = samples.size();
    size_t k = static_cast<size_t>(std::ceil(p * static_cast<double>(n)));
    return samples[std::min(n, std::max<size_t>(k, 1)) - 1];
  };
  s.p50 = rank(0.50);
  s.p90 = rank(0.90);
  s.p99 = rank(0.99);
  s.max = samples.back();
  return s;
}

std::string param_value_text(const ParamValue& value) {
  if (const auto* number = std::get_if<int64_t>(&value)) return std::to_string(*number);
  return std::get<std::string>(value);
}

const Param* CaseResult::find_param(std::string_view name) const {
  for (const Param& p : params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string make_case_id(std::string_view bench, std::string_view scenario,
                         std::string_view version, const std::vector<Param>& params) {
  std::string id;
  id.append(bench).append("/").append(scenario).append("/").append(version);
  for (const Param& p : params) {
    id.append("/").append(p.name).append("=").append(param_value_text(p.value));
  }
  return id;
}

const CaseResult* ResultsFile::find_case(std::string_view id) const {
  for (const CaseResult& c : cases) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

std::string iso8601_utc(int64_t unix_seconds) {
  using namespace std::chrono;
  const sys_seconds t{seconds{unix_seconds}};
  const sys_days day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss<seconds> hms{t - day};
  char text[40];
  std::snprintf(
      text, sizeof text, "%04d-%02u-%02uT%02lld:%02lld:%02lldZ", int(ymd.year()),
      unsigned(ymd.month()), unsigned(ymd.day()), static_cast<long long>(hms.hours().count()),
      static_cast<long long>(hms.minutes().count()), static_cast<long long>(hms.seconds().count()));
  return text;
}

}  // namespace moq::results
