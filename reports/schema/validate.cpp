// The results schema's validator (FORMAT.md), every section of a results file in one file and
// longer than 600 lines for that reason: the sections share the JSON-path helpers, the error
// wording and the version rules at the top (which fields a schema version has, spread from
// version 3 on), and a file is checked in the order FORMAT.md describes it, so a reader holds the
// two side by side. The per-section checks are the natural seams if it grows further.
#include "reports/schema/validate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <vector>

namespace moq::results {
namespace {

#define MOQ_RESULTS_TRY(expr)          \
  do {                                 \
    Status status_ = (expr);           \
    if (!status_.ok()) return status_; \
  } while (0)

// What the error quotes of a bad value: a bounded excerpt, whatever the value's size.
std::string excerpt(const Json& value) {
  return json_excerpt(value);
}

std::string child(const std::string& path, std::string_view key) {
  if (path.empty()) return std::string(key);
  return path + "." + std::string(key);
}

std::string element(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

Error bad(const std::string& path, std::string_view expected, const Json& got) {
  return Error{path + ": expected " + std::string(expected) + ", got " + excerpt(got)};
}

Error problem(const std::string& path, const std::string& what) {
  return Error{path + ": " + what};
}

// An object holding exactly `keys`: a missing key is named before an unknown one.
// j is an object with every key of `keys`, any of `optional`, and nothing else.
Status check_object(const Json& j, const std::string& path,
                    std::initializer_list<std::string_view> keys,
                    std::initializer_list<std::string_view> optional = {}) {
  if (!j.is_object()) return bad(path.empty() ? "(document)" : path, "an object", j);
  for (std::string_view key : keys) {
    if (!j.contains(key)) return problem(child(path, key), "missing");
  }
  for (const auto& item : j.items()) {
    if (std::find(keys.begin(), keys.end(), item.key()) == keys.end() &&
        std::find(optional.begin(), optional.end(), item.key()) == optional.end()) {
      return problem(child(path, item.key()), "unknown field");
    }
  }
  return {};
}

bool is_uint(const Json& j) {
  if (j.is_number_unsigned()) return true;
  return j.is_number_integer() && j.get<int64_t>() >= 0;
}

Status check_uint(const Json& j, const std::string& path) {
  if (!is_uint(j)) return bad(path, "a non-negative integer", j);
  return {};
}

Status check_bool(const Json& j, const std::string& path) {
  if (!j.is_boolean()) return bad(path, "true or false", j);
  return {};
}

Status check_string(const Json& j, const std::string& path, bool allow_empty) {
  if (!j.is_string()) return bad(path, "a string", j);
  if (!allow_empty && j.get_ref<const std::string&>().empty()) {
    return bad(path, "a non-empty string", j);
  }
  return {};
}

bool is_lower_hex(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A segment of a case id: no '/', no '=', no whitespace or control characters.
bool is_id_segment(std::string_view text) {
  if (text.empty()) return false;
  return std::none_of(text.begin(), text.end(), [](char c) {
    return c == '/' || c == '=' || static_cast<unsigned char>(c) <= ' ' || c == 0x7f;
  });
}

Status check_segment(const Json& j, const std::string& path) {
  if (!j.is_string() || !is_id_segment(j.get_ref<const std::string&>())) {
    return bad(path, "a non-empty string without '/', '=' or whitespace", j);
  }
  return {};
}

// Digits at text[pos, pos+n) as a number, or -1.
int digits(std::string_view text, size_t pos, size_t n) {
  if (pos + n > text.size()) return -1;
  int value = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// "YYYY-MM-DDTHH:MM:SS[.fraction]Z"
bool is_iso8601_utc(std::string_view t) {
  if (t.size() < 20) return false;
  if (t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':') return false;
  const int year = digits(t, 0, 4), month = digits(t, 5, 2), day = digits(t, 8, 2);
  const int hour = digits(t, 11, 2), minute = digits(t, 14, 2), second = digits(t, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return false;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
    return false;
  }
  size_t pos = 19;
  if (t[pos] == '.') {
    ++pos;
    const size_t start = pos;
    while (pos < t.size() && t[pos] >= '0' && t[pos] <= '9')
      ++pos;
    if (pos == start) return false;
  }
  return pos + 1 == t.size() && t[pos] == 'Z';
}

// spread: the schema's stats objects carry stddev, cv and outliers (results/3 on).
Status check_stats(const Json& j, const std::string& path, uint64_t max_samples, bool exact_count,
                   bool spread) {
  if (spread) {
    MOQ_RESULTS_TRY(check_object(
        j, path, {"median", "min", "max", "mean", "stddev", "cv", "outliers", "samples"}));
  } else {
    MOQ_RESULTS_TRY(check_object(j, path, {"median", "min", "max", "mean", "samples"}));
  }
  const Json& samples_json = j["samples"];
  const std::string samples_path = child(path, "samples");
  if (!samples_json.is_array()) return bad(samples_path, "an array", samples_json);
  std::vector<uint64_t> samples;
  samples.reserve(samples_json.size());
  for (size_t i = 0; i < samples_json.size(); ++i) {
    MOQ_RESULTS_TRY(check_uint(samples_json[i], element(samples_path, i)));
    samples.push_back(samples_json[i].get<uint64_t>());
  }
  if (samples.empty()) {
    return problem(samples_path, "empty (a metric without samples is null)");
  }
  if (exact_count ? samples.size() != max_samples : samples.size() > max_samples) {
    return problem(samples_path, std::to_string(samples.size()) +
                                     " samples, but rounds.measured is " +
                                     std::to_string(max_samples));
  }
  for (std::string_view key : {"median", "min", "max"}) {
    MOQ_RESULTS_TRY(check_uint(j[key], child(path, key)));
  }
  const Json& mean = j["mean"];
  if (!mean.is_number() || !std::isfinite(mean.get<double>())) {
    return bad(child(path, "mean"), "a finite number", mean);
  }
  const MetricStats expected = *compute_stats(std::move(samples));
  auto mismatch = [&](std::string_view key, const std::string& want) {
    return problem(child(path, key), "is " + excerpt(j[key]) + " but the samples give " + want);
  };
  if (j["median"].get<uint64_t>() != expected.median) {
    return mismatch("median", std::to_string(expected.median));
  }
  if (j["min"].get<uint64_t>() != expected.min) {
    return mismatch("min", std::to_string(expected.min));
  }
  if (j["max"].get<uint64_t>() != expected.max) {
    return mismatch("max", std::to_string(expected.max));
  }
  const double got_mean = mean.get<double>();
  if (std::fabs(got_mean - expected.mean) > 1e-9 * std::max(1.0, std::fabs(expected.mean))) {
    return mismatch("mean", Json(expected.mean).dump());
  }
  if (!spread) return {};
  for (const auto& [key, want] : {std::pair{"stddev", expected.stddev}, {"cv", expected.cv}}) {
    const Json& got = j[key];
    if (!got.is_number() || !std::isfinite(got.get<double>()) || got.get<double>() < 0)
      return bad(child(path, key), "a finite number >= 0", got);
    if (std::fabs(got.get<double>() - want) > 1e-9 * std::max(1.0, want))
      return mismatch(key, Json(want).dump());
  }
  MOQ_RESULTS_TRY(check_uint(j["outliers"], child(path, "outliers")));
  if (j["outliers"].get<uint64_t>() != expected.outliers)
    return mismatch("outliers", std::to_string(expected.outliers));
  return {};
}

Status check_params(const Json& j, const std::string& path) {
  if (!j.is_object()) return bad(path, "an object", j);
  for (const auto& item : j.items()) {
    const std::string item_path = child(path, item.key());
    if (!is_id_segment(item.key())) {
      return problem(item_path,
                     "a parameter name must be non-empty, without '/', '=' or whitespace");
    }
    const Json& value = item.value();
    if (value.is_number_integer()) {
      if (value.is_number_unsigned() &&
          value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return bad(item_path, "an integer that fits in 64 signed bits", value);
      }
      continue;
    }
    if (value.is_string() && is_id_segment(value.get_ref<const std::string&>())) continue;
    return bad(item_path, "an integer or a non-empty string without '/', '=' or whitespace", value);
  }
  return {};
}

std::vector<Param> params_of(const Json& j) {
  std::vector<Param> params;
  for (const auto& item : j.items()) {
    if (item.value().is_number_integer()) {
      params.push_back({item.key(), item.value().get<int64_t>()});
    } else {
      params.push_back({item.key(), item.value().get<std::string>()});
    }
  }
  return params;
}

Status validate_shard(const Json& j, const std::string& path) {
  MOQ_RESULTS_TRY(check_object(j, path, {"index", "count", "plan_cases", "plan_digest", "cases"}));
  const Json& count = j["count"];
  if (!is_uint(count) || count.get<uint64_t>() < 1 || count.get<uint64_t>() > UINT32_MAX)
    return bad(child(path, "count"), "a shard count >= 1", count);
  const Json& index = j["index"];
  if (!is_uint(index) || index.get<uint64_t>() < 1 || index.get<uint64_t>() > count.get<uint64_t>())
    return bad(child(path, "index"), "a shard number from 1 to count", index);
  MOQ_RESULTS_TRY(check_uint(j["plan_cases"], child(path, "plan_cases")));
  const Json& digest = j["plan_digest"];
  if (!digest.is_string() || digest.get_ref<const std::string&>().size() != 16 ||
      !is_lower_hex(digest.get_ref<const std::string&>()))
    return bad(child(path, "plan_digest"), "16 lowercase hex digits", digest);
  const Json& cases = j["cases"];
  const std::string cases_path = child(path, "cases");
  if (!cases.is_array()) return bad(cases_path, "an array of case ids", cases);
  for (size_t i = 0; i < cases.size(); ++i)
    MOQ_RESULTS_TRY(check_string(cases[i], element(cases_path, i), false));
  // Case k of the plan is in shard k mod count + 1: this one's share is fixed by the three.
  const uint64_t n = count.get<uint64_t>();
  const uint64_t first = index.get<uint64_t>() - 1;
  const uint64_t total = j["plan_cases"].get<uint64_t>();
  const uint64_t share = total > first ? (total - first + n - 1) / n : 0;
  if (cases.size() != share) {
    return problem(cases_path, "holds " + std::to_string(cases.size()) + " ids, but shard " +
                                   std::to_string(first + 1) + "/" + std::to_string(n) + " of " +
                                   std::to_string(total) + " cases has " + std::to_string(share));
  }
  return {};
}

Status validate_plan(const Json& j, const std::string& path) {
  MOQ_RESULTS_TRY(check_object(j, path, {"cases", "digest", "selection"}));
  const Json& cases = j["cases"];
  const std::string cases_path = child(path, "cases");
  if (!cases.is_array()) return bad(cases_path, "an array of case ids", cases);
  std::set<std::string_view> seen;
  for (size_t i = 0; i < cases.size(); ++i) {
    MOQ_RESULTS_TRY(check_string(cases[i], element(cases_path, i), false));
    if (!seen.insert(cases[i].get_ref<const std::string&>()).second)
      return problem(element(cases_path, i), "duplicates an earlier planned id");
  }
  const Json& digest = j["digest"];
  if (!digest.is_string() || digest.get_ref<const std::string&>().size() != 16 ||
      !is_lower_hex(digest.get_ref<const std::string&>())) {
    return bad(child(path, "digest"), "16 lowercase hex digits", digest);
  }
  return check_string(j["selection"], child(path, "selection"), true);
}

Status validate_run_end(const Json& j, const std::string& path) {
  MOQ_RESULTS_TRY(check_object(j, path, {"state", "signal", "cases_done", "failed"}));
  const Json& state = j["state"];
  const std::optional<RunState> parsed =
      state.is_string() ? parse_run_state(state.get_ref<const std::string&>()) : std::nullopt;
  if (!parsed)
    return bad(child(path, "state"), "\"running\", \"complete\" or \"interrupted\"", state);
  const Json& signal = j["signal"];
  if (*parsed == RunState::kInterrupted) {
    if (!is_uint(signal) || signal.get<uint64_t>() < 1 || signal.get<uint64_t>() > 64)
      return bad(child(path, "signal"), "the signal number (interrupted)", signal);
  } else if (!signal.is_null()) {
    return bad(child(path, "signal"), "null (not interrupted)", signal);
  }
  if (!is_uint(j["cases_done"])) return bad(child(path, "cases_done"), "a count", j["cases_done"]);
  const Json& failed = j["failed"];
  if (!failed.is_array()) return bad(child(path, "failed"), "an array of case ids", failed);
  for (size_t i = 0; i < failed.size(); ++i)
    MOQ_RESULTS_TRY(check_string(failed[i], element(child(path, "failed"), i), false));
  return {};
}

}  // namespace

Status validate_meta(const Json& j, const std::string& path) {
  MOQ_RESULTS_TRY(
      check_object(j, path,
                   {"tool_version", "git_commit", "git_dirty", "compiler", "compiler_flags",
                    "build_type", "cpu_model", "kernel", "counter_backend", "counter_event",
                    "pinned_cpu", "command_line", "start_time"},
                   {"shard", "executable", "build_id", "plan", "run"}));
  MOQ_RESULTS_TRY(check_string(j["tool_version"], child(path, "tool_version"), false));
  const Json& commit = j["git_commit"];
  if (!commit.is_null()) {
    if (!commit.is_string() ||
        (commit.get_ref<const std::string&>().size() != 40 &&
         commit.get_ref<const std::string&>().size() != 64) ||
        !is_lower_hex(commit.get_ref<const std::string&>())) {
      return bad(child(path, "git_commit"), "null or a 40- or 64-digit lowercase hex commit id",
                 commit);
    }
  }
  MOQ_RESULTS_TRY(check_bool(j["git_dirty"], child(path, "git_dirty")));
  MOQ_RESULTS_TRY(check_string(j["compiler"], child(path, "compiler"), false));
  MOQ_RESULTS_TRY(check_string(j["compiler_flags"], child(path, "compiler_flags"), true));
  MOQ_RESULTS_TRY(check_string(j["build_type"], child(path, "build_type"), false));
  MOQ_RESULTS_TRY(check_string(j["cpu_model"], child(path, "cpu_model"), false));
  MOQ_RESULTS_TRY(check_string(j["kernel"], child(path, "kernel"), false));
  const Json& backend_json = j["counter_backend"];
  const std::optional<CounterBackend> backend =
      backend_json.is_string() ? parse_counter_backend(backend_json.get<std::string>())
                               : std::nullopt;
  if (!backend) {
    return bad(child(path, "counter_backend"), "one of " + counter_backend_list(/*quote=*/true),
               backend_json);
  }
  const Json& event = j["counter_event"];
  if (*backend == CounterBackend::kNone) {
    if (!event.is_null()) return bad(child(path, "counter_event"), "null (backend is none)", event);
  } else {
    MOQ_RESULTS_TRY(check_string(event, child(path, "counter_event"), false));
  }
  const Json& cpu = j["pinned_cpu"];
  if (!cpu.is_null() && (!is_uint(cpu) || cpu.get<uint64_t>() > UINT32_MAX)) {
    return bad(child(path, "pinned_cpu"), "null or a CPU number", cpu);
  }
  const Json& argv = j["command_line"];
  const std::string argv_path = child(path, "command_line");
  if (!argv.is_array()) return bad(argv_path, "an array of strings", argv);
  for (size_t i = 0; i < argv.size(); ++i) {
    MOQ_RESULTS_TRY(check_string(argv[i], element(argv_path, i), true));
  }
  const Json& start = j["start_time"];
  if (!start.is_string() || !is_iso8601_utc(start.get_ref<const std::string&>())) {
    return bad(child(path, "start_time"), "an ISO 8601 UTC time \"YYYY-MM-DDTHH:MM:SSZ\"", start);
  }
  if (j.contains("executable"))
    MOQ_RESULTS_TRY(check_string(j["executable"], child(path, "executable"), false));
  if (j.contains("build_id")) {
    const Json& id = j["build_id"];
    if (!id.is_string() || id.get_ref<const std::string&>().empty() ||
        !is_lower_hex(id.get_ref<const std::string&>())) {
      return bad(child(path, "build_id"), "a non-empty lowercase hex build id", id);
    }
  }
  if (j.contains("plan")) MOQ_RESULTS_TRY(validate_plan(j["plan"], child(path, "plan")));
  if (j.contains("run")) MOQ_RESULTS_TRY(validate_run_end(j["run"], child(path, "run")));
  if (j.contains("shard")) return validate_shard(j["shard"], child(path, "shard"));
  return {};
}

namespace {

Status check_latency(const Json& j, const std::string& path) {
  MOQ_RESULTS_TRY(check_object(j, path, {"p50", "p90", "p99", "max"}));
  uint64_t last = 0;
  for (const char* key : {"p50", "p90", "p99", "max"}) {
    MOQ_RESULTS_TRY(check_uint(j[key], child(path, key)));
    if (j[key].get<uint64_t>() < last)
      return problem(child(path, key), "is below the percentile before it");
    last = j[key].get<uint64_t>();
  }
  return {};
}

Status check_nullable_number(const Json& j, const std::string& path) {
  if (!j.is_null() && (!j.is_number() || j.get<double>() < 0))
    return bad(path, "a non-negative number or null", j);
  return {};
}

Status validate_load(const Json& j, const std::string& path) {
  MOQ_RESULTS_TRY(
      check_object(j, path,
                   {"frames_expected", "frames_delivered", "frames_lost", "bytes_delivered",
                    "frame_latency_ns", "group_latency_ns", "relay_in_process",
                    "relay_allocations_per_frame", "relay_instructions_per_frame"}));
  for (const char* key : {"frames_expected", "frames_delivered", "frames_lost", "bytes_delivered"})
    MOQ_RESULTS_TRY(check_uint(j[key], child(path, key)));
  const uint64_t expected = j["frames_expected"].get<uint64_t>();
  const uint64_t delivered = j["frames_delivered"].get<uint64_t>();
  if (delivered > expected)
    return problem(child(path, "frames_delivered"), "exceeds frames_expected");
  if (j["frames_lost"].get<uint64_t>() != expected - delivered)
    return problem(child(path, "frames_lost"), "is not frames_expected - frames_delivered");
  // A load run's latencies are null when nothing arrived to measure.
  for (const char* key : {"frame_latency_ns", "group_latency_ns"})
    if (!j[key].is_null()) MOQ_RESULTS_TRY(check_latency(j[key], child(path, key)));
  if (delivered > 0 && j["frame_latency_ns"].is_null())
    return problem(child(path, "frame_latency_ns"), "is null although frames were delivered");
  MOQ_RESULTS_TRY(check_bool(j["relay_in_process"], child(path, "relay_in_process")));
  MOQ_RESULTS_TRY(check_nullable_number(j["relay_allocations_per_frame"],
                                        child(path, "relay_allocations_per_frame")));
  return check_nullable_number(j["relay_instructions_per_frame"],
                               child(path, "relay_instructions_per_frame"));
}

// Latencies, the pace, and one {whole, reset, skipped} object per viewer.
Status validate_timing(const Json& j, const std::string& path) {
  MOQ_RESULTS_TRY(check_object(
      j, path, {"frame_latency_ns", "group_latency_ns", "group_duration_ns", "viewers"}));
  MOQ_RESULTS_TRY(check_latency(j["frame_latency_ns"], child(path, "frame_latency_ns")));
  MOQ_RESULTS_TRY(check_latency(j["group_latency_ns"], child(path, "group_latency_ns")));
  MOQ_RESULTS_TRY(check_uint(j["group_duration_ns"], child(path, "group_duration_ns")));
  const Json& viewers = j["viewers"];
  const std::string viewers_path = child(path, "viewers");
  if (!viewers.is_array()) return bad(viewers_path, "an array", viewers);
  for (size_t i = 0; i < viewers.size(); ++i) {
    const std::string at = element(viewers_path, i);
    MOQ_RESULTS_TRY(check_object(viewers[i], at, {"whole", "reset", "skipped"}));
    for (const char* key : {"whole", "reset", "skipped"})
      MOQ_RESULTS_TRY(check_uint(viewers[i][key], child(at, key)));
  }
  return {};
}

// Each role once, in kRoleNames order, with a sample per measured round.
Status validate_roles(const Json& j, const std::string& path, uint64_t measured, bool spread) {
  if (!j.is_array() || j.empty()) return bad(path, "a non-empty array", j);
  size_t next = 0;  // roles appear in kRoleNames order, each at most once
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string at = element(path, i);
    MOQ_RESULTS_TRY(check_object(j[i], at, {"role", "instructions", "allocations"}));
    const Json& name = j[i]["role"];
    const auto known = std::find(kRoleNames.begin() + next, kRoleNames.end(),
                                 name.is_string() ? name.get<std::string>() : std::string());
    if (known == kRoleNames.end())
      return bad(child(at, "role"),
                 "a role of harness, publisher, relay, viewer, transport, in "
                 "that order and each once",
                 name);
    next = static_cast<size_t>(known - kRoleNames.begin()) + 1;
    for (const char* metric : {"instructions", "allocations"})
      MOQ_RESULTS_TRY(check_stats(j[i][metric], child(at, metric), measured, true, spread));
  }
  return {};
}

}  // namespace

Status validate_case(const Json& j, CounterBackend backend, const std::string& path,
                     std::string_view schema) {
  const bool spread = schema_has_spread(schema);
  MOQ_RESULTS_TRY(check_object(
      j, path,
      {"id", "bench", "scenario", "version", "params", "rounds", "metrics", "delivered", "flags"},
      {"load", "timing", "roles"}));
  if (j.contains("load")) MOQ_RESULTS_TRY(validate_load(j["load"], child(path, "load")));
  if (j.contains("timing")) MOQ_RESULTS_TRY(validate_timing(j["timing"], child(path, "timing")));
  MOQ_RESULTS_TRY(check_string(j["id"], child(path, "id"), false));
  const Json& bench = j["bench"];
  if (!bench.is_string() || std::find(kBenches.begin(), kBenches.end(),
                                      bench.get_ref<const std::string&>()) == kBenches.end()) {
    return bad(child(path, "bench"), "\"model\" or \"relay\"", bench);
  }
  MOQ_RESULTS_TRY(check_segment(j["scenario"], child(path, "scenario")));
  MOQ_RESULTS_TRY(check_segment(j["version"], child(path, "version")));
  MOQ_RESULTS_TRY(check_params(j["params"], child(path, "params")));
  const std::string expected_id =
      make_case_id(bench.get<std::string>(), j["scenario"].get<std::string>(),
                   j["version"].get<std::string>(), params_of(j["params"]));
  if (j["id"].get_ref<const std::string&>() != expected_id) {
    return problem(child(path, "id"), "is " + excerpt(j["id"]) +
                                          " but bench/scenario/version/params give \"" +
                                          expected_id + "\"");
  }

  const Json& rounds = j["rounds"];
  const std::string rounds_path = child(path, "rounds");
  MOQ_RESULTS_TRY(check_object(rounds, rounds_path, {"warmup", "measured"}));
  MOQ_RESULTS_TRY(check_uint(rounds["warmup"], child(rounds_path, "warmup")));
  if (!is_uint(rounds["measured"]) || rounds["measured"].get<uint64_t>() == 0) {
    return bad(child(rounds_path, "measured"), "a positive integer", rounds["measured"]);
  }
  const uint64_t measured = rounds["measured"].get<uint64_t>();

  // flags before metrics: a failed case may have partial metrics.
  const Json& flags = j["flags"];
  const std::string flags_path = child(path, "flags");
  MOQ_RESULTS_TRY(check_object(flags, flags_path, {"multiplexed", "failed", "reason"}));
  MOQ_RESULTS_TRY(check_bool(flags["multiplexed"], child(flags_path, "multiplexed")));
  MOQ_RESULTS_TRY(check_bool(flags["failed"], child(flags_path, "failed")));
  const bool failed = flags["failed"].get<bool>();
  const Json& reason = flags["reason"];
  if (failed) {
    if (!reason.is_string() || reason.get_ref<const std::string&>().empty()) {
      return bad(child(flags_path, "reason"), "a non-empty string (the case failed)", reason);
    }
  } else if (!reason.is_null()) {
    MOQ_RESULTS_TRY(check_string(reason, child(flags_path, "reason"), false));
  }

  const Json& metrics = j["metrics"];
  const std::string metrics_path = child(path, "metrics");
  MOQ_RESULTS_TRY(
      check_object(metrics, metrics_path,
                   {"instructions", "allocations", "allocation_bytes", "wall_ns", "streams_opened",
                    "wire_bytes", "tasks_run"},
                   {"packets", "udp_bytes", "l1_misses", "ll_misses", "branch_misses"}));
  for (Metric metric : kWireMetrics) {
    const std::string_view name = metric_name(metric);
    if (!metrics.contains(name)) continue;
    const std::string stats_path = child(metrics_path, name);
    MOQ_RESULTS_TRY(check_stats(metrics[name], stats_path, measured, !failed, spread));
  }
  for (Metric metric : kSimMetrics) {
    const std::string_view name = metric_name(metric);
    if (!metrics.contains(name)) continue;
    const std::string stats_path = child(metrics_path, name);
    if (!spread) return problem(stats_path, "unknown field (added in moqbench.results/3)");
    if (backend != CounterBackend::kCallgrind)
      return problem(stats_path,
                     "only callgrind's simulators measure it, but counter_backend is \"" +
                         std::string(to_string(backend)) + "\"");
    MOQ_RESULTS_TRY(check_stats(metrics[name], stats_path, measured, !failed, spread));
  }
  for (Metric metric : kAllMetrics) {
    const std::string_view name = metric_name(metric);
    const Json& stats = metrics[name];
    const std::string stats_path = child(metrics_path, name);
    if (metric == Metric::kInstructions && backend == CounterBackend::kNone) {
      if (!stats.is_null()) return bad(stats_path, "null (counter_backend is \"none\")", stats);
      continue;
    }
    if (stats.is_null()) {
      if (failed) continue;
      return bad(stats_path, "an object {median, min, max, mean, samples}", stats);
    }
    MOQ_RESULTS_TRY(check_stats(stats, stats_path, measured, !failed, spread));
  }

  if (j.contains("roles"))
    MOQ_RESULTS_TRY(validate_roles(j["roles"], child(path, "roles"), measured, spread));

  const Json& delivered = j["delivered"];
  const std::string delivered_path = child(path, "delivered");
  MOQ_RESULTS_TRY(check_object(delivered, delivered_path, {"frames", "bytes", "hash"}));
  MOQ_RESULTS_TRY(check_uint(delivered["frames"], child(delivered_path, "frames")));
  MOQ_RESULTS_TRY(check_uint(delivered["bytes"], child(delivered_path, "bytes")));
  const Json& hash = delivered["hash"];
  if (!hash.is_string() || hash.get_ref<const std::string&>().empty() ||
      hash.get_ref<const std::string&>().size() > 128 ||
      hash.get_ref<const std::string&>().size() % 2 != 0 ||
      !is_lower_hex(hash.get_ref<const std::string&>())) {
    return bad(child(delivered_path, "hash"),
               "a lowercase hex string of an even length up to 128 digits", hash);
  }
  return {};
}

Status validate(const Json& doc) {
  if (!doc.is_object()) return bad("(document)", "an object", doc);
  if (!doc.contains("schema")) return problem("schema", "missing (not a moqbench results file?)");
  const Json& schema = doc["schema"];
  if (!schema.is_string()) return bad("schema", "a string", schema);
  const std::string& version = schema.get_ref<const std::string&>();
  if (version != kSchema &&
      std::find(kOlderSchemas.begin(), kOlderSchemas.end(), version) == kOlderSchemas.end()) {
    std::string known = "\"" + std::string(kSchema) + "\"";
    for (std::string_view older : kOlderSchemas)
      known += " and \"" + std::string(older) + "\"";
    return problem("schema", "unsupported results schema " + excerpt(schema) +
                                 "; this moqbench reads " + known);
  }
  MOQ_RESULTS_TRY(check_object(doc, "", {"schema", "meta", "cases"}));
  MOQ_RESULTS_TRY(validate_meta(doc["meta"], "meta"));
  const CounterBackend backend =
      *parse_counter_backend(doc["meta"]["counter_backend"].get<std::string>());
  const Json& cases = doc["cases"];
  if (!cases.is_array()) return bad("cases", "an array", cases);
  std::set<std::string_view> shard_cases;  // a shard holds only cases of its share
  const bool sharded = doc["meta"].contains("shard");
  if (sharded) {
    for (const Json& id : doc["meta"]["shard"]["cases"])
      shard_cases.insert(id.get_ref<const std::string&>());
  }
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string path = element("cases", i);
    MOQ_RESULTS_TRY(validate_case(cases[i], backend, path, version));
    const std::string& id = cases[i]["id"].get_ref<const std::string&>();
    const auto [it, inserted] = seen.emplace(id, i);
    if (!inserted) {
      return problem(child(path, "id"),
                     "\"" + id + "\" duplicates " + element("cases", it->second) + ".id");
    }
    if (sharded && shard_cases.count(id) == 0)
      return problem(child(path, "id"), "\"" + id + "\" is not in meta.shard.cases");
  }
  return {};
}

}  // namespace moq::results
