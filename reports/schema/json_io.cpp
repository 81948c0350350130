#include "reports/schema/json_io.h"

#include <utility>

#include "reports/schema/validate.h"

namespace moq::results {
namespace {

Json nullable(const std::optional<std::string>& text) {
  if (text) return Json(*text);
  return Json(nullptr);
}

std::optional<std::string> nullable_string(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<std::string>();
}

// Files of schemas before the spread figures get them from their samples, as a writer would have.
MetricStats stats_from_json(const Json& j) {
  MetricStats stats = *compute_stats(j["samples"].get<std::vector<uint64_t>>());
  stats.median = j["median"].get<uint64_t>();
  stats.min = j["min"].get<uint64_t>();
  stats.max = j["max"].get<uint64_t>();
  stats.mean = j["mean"].get<double>();
  if (j.contains("stddev")) {
    stats.stddev = j["stddev"].get<double>();
    stats.cv = j["cv"].get<double>();
    stats.outliers = j["outliers"].get<uint64_t>();
  }
  return stats;
}

// Only called on validated documents.
Meta meta_from_json(const Json& j) {
  Meta meta;
  meta.tool_version = j["tool_version"].get<std::string>();
  meta.git_commit = nullable_string(j["git_commit"]);
  meta.git_dirty = j["git_dirty"].get<bool>();
  meta.compiler = j["compiler"].get<std::string>();
  meta.compiler_flags = j["compiler_flags"].get<std::string>();
  meta.build_type = j["build_type"].get<std::string>();
  meta.cpu_model = j["cpu_model"].get<std::string>();
  meta.kernel = j["kernel"].get<std::string>();
  meta.counter_backend = *parse_counter_backend(j["counter_backend"].get<std::string>());
  meta.counter_event = nullable_string(j["counter_event"]);
  if (!j["pinned_cpu"].is_null()) meta.pinned_cpu = j["pinned_cpu"].get<uint32_t>();
  meta.command_line = j["command_line"].get<std::vector<std::string>>();
  meta.start_time = j["start_time"].get<std::string>();
  if (j.contains("shard")) {
    const Json& sh = j["shard"];
    ShardInfo shard;
    shard.index = sh["index"].get<uint32_t>();
    shard.count = sh["count"].get<uint32_t>();
    shard.plan_cases = sh["plan_cases"].get<uint64_t>();
    shard.plan_digest = sh["plan_digest"].get<std::string>();
    shard.cases = sh["cases"].get<std::vector<std::string>>();
    meta.shard = std::move(shard);
  }
  if (j.contains("executable")) meta.executable = j["executable"].get<std::string>();
  if (j.contains("build_id")) meta.build_id = j["build_id"].get<std::string>();
  if (j.contains("plan")) {
    const Json& p = j["plan"];
    meta.plan = PlanInfo{p["cases"].get<std::vector<std::string>>(), p["digest"].get<std::string>(),
                         p["selection"].get<std::string>()};
  }
  if (j.contains("run")) {
    const Json& r = j["run"];
    RunEnd end;
    end.state = *parse_run_state(r["state"].get<std::string>());
    if (!r["signal"].is_null()) end.signal = r["signal"].get<int>();
    end.cases_done = r["cases_done"].get<uint64_t>();
    end.failed = r["failed"].get<std::vector<std::string>>();
    meta.run = std::move(end);
  }
  return meta;
}

namespace {

LatencyStats latency_from_json(const Json& j) {
  return {j["p50"].get<uint64_t>(), j["p90"].get<uint64_t>(), j["p99"].get<uint64_t>(),
          j["max"].get<uint64_t>()};
}

Json to_json(const LatencyStats& s) {
  return {{"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99}, {"max", s.max}};
}

std::optional<double> nullable_number(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<double>();
}

Json nullable(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

LoadSummary load_from_json(const Json& j) {
  LoadSummary l;
  l.frames_expected = j["frames_expected"].get<uint64_t>();
  l.frames_delivered = j["frames_delivered"].get<uint64_t>();
  l.frames_lost = j["frames_lost"].get<uint64_t>();
  l.bytes_delivered = j["bytes_delivered"].get<uint64_t>();
  // null: no frame (no whole group) arrived; files written before this could be null hold
  // objects, read the same way.
  if (!j["frame_latency_ns"].is_null())
    l.frame_latency_ns = latency_from_json(j["frame_latency_ns"]);
  if (!j["group_latency_ns"].is_null())
    l.group_latency_ns = latency_from_json(j["group_latency_ns"]);
  l.relay_in_process = j["relay_in_process"].get<bool>();
  l.relay_allocations_per_frame = nullable_number(j["relay_allocations_per_frame"]);
  l.relay_instructions_per_frame = nullable_number(j["relay_instructions_per_frame"]);
  return l;
}

Json to_json(const LoadSummary& l) {
  return {{"frames_expected", l.frames_expected},
          {"frames_delivered", l.frames_delivered},
          {"frames_lost", l.frames_lost},
          {"bytes_delivered", l.bytes_delivered},
          {"frame_latency_ns", l.frame_latency_ns ? to_json(*l.frame_latency_ns) : Json(nullptr)},
          {"group_latency_ns", l.group_latency_ns ? to_json(*l.group_latency_ns) : Json(nullptr)},
          {"relay_in_process", l.relay_in_process},
          {"relay_allocations_per_frame", nullable(l.relay_allocations_per_frame)},
          {"relay_instructions_per_frame", nullable(l.relay_instructions_per_frame)}};
}

DeliveryTiming timing_from_json(const Json& j) {
  DeliveryTiming t;
  t.frame_latency_ns = latency_from_json(j["frame_latency_ns"]);
  t.group_latency_ns = latency_from_json(j["group_latency_ns"]);
  t.group_duration_ns = j["group_duration_ns"].get<uint64_t>();
  for (const Json& v : j["viewers"]) {
    t.viewers.push_back(
        {v["whole"].get<uint64_t>(), v["reset"].get<uint64_t>(), v["skipped"].get<uint64_t>()});
  }
  return t;
}

Json to_json(const DeliveryTiming& t) {
  Json viewers = Json::array();
  for (const ViewerGroups& v : t.viewers)
    viewers.push_back({{"whole", v.whole}, {"reset", v.reset}, {"skipped", v.skipped}});
  return {{"frame_latency_ns", to_json(t.frame_latency_ns)},
          {"group_latency_ns", to_json(t.group_latency_ns)},
          {"group_duration_ns", t.group_duration_ns},
          {"viewers", std::move(viewers)}};
}

}  // namespace

CaseResult case_from_json(const Json& j) {
  CaseResult c;
  c.id = j["id"].get<std::string>();
  c.bench = j["bench"].get<std::string>();
  c.scenario = j["scenario"].get<std::string>();
  c.version = j["version"].get<std::string>();
  for (const auto& item : j["params"].items()) {
    if (item.value().is_number_integer()) {
      c.params.push_back({item.key(), item.value().get<int64_t>()});
    } else {
      c.params.push_back({item.key(), item.value().get<std::string>()});
    }
  }
  c.rounds.warmup = j["rounds"]["warmup"].get<uint64_t>();
  c.rounds.measured = j["rounds"]["measured"].get<uint64_t>();
  for (Metric metric : kAllMetrics) {
    const Json& stats = j["metrics"][metric_name(metric)];
    if (!stats.is_null()) c.metrics.get(metric) = stats_from_json(stats);
  }
  for (Metric metric : kOptionalMetrics) {
    const std::string_view name = metric_name(metric);
    if (j["metrics"].contains(name) && !j["metrics"][name].is_null())
      c.metrics.get(metric) = stats_from_json(j["metrics"][name]);
  }
  c.delivered.frames = j["delivered"]["frames"].get<uint64_t>();
  c.delivered.bytes = j["delivered"]["bytes"].get<uint64_t>();
  c.delivered.hash = j["delivered"]["hash"].get<std::string>();
  c.flags.multiplexed = j["flags"]["multiplexed"].get<bool>();
  c.flags.failed = j["flags"]["failed"].get<bool>();
  c.flags.reason = nullable_string(j["flags"]["reason"]);
  if (j.contains("load")) c.load = load_from_json(j["load"]);
  if (j.contains("timing")) c.timing = timing_from_json(j["timing"]);
  if (j.contains("roles")) {
    for (const Json& r : j["roles"]) {
      c.roles.push_back({r["role"].get<std::string>(), stats_from_json(r["instructions"]),
                         stats_from_json(r["allocations"])});
    }
  }
  return c;
}

}  // namespace

Json to_json(const Meta& meta) {
  Json j = Json::object();
  j["tool_version"] = meta.tool_version;
  j["git_commit"] = nullable(meta.git_commit);
  j["git_dirty"] = meta.git_dirty;
  j["compiler"] = meta.compiler;
  j["compiler_flags"] = meta.compiler_flags;
  j["build_type"] = meta.build_type;
  j["cpu_model"] = meta.cpu_model;
  j["kernel"] = meta.kernel;
  j["counter_backend"] = std::string(to_string(meta.counter_backend));
  j["counter_event"] = nullable(meta.counter_event);
  j["pinned_cpu"] = meta.pinned_cpu ? Json(*meta.pinned_cpu) : Json(nullptr);
  j["command_line"] = meta.command_line;
  j["start_time"] = meta.start_time;
  if (meta.shard) {
    Json sh = Json::object();
    sh["index"] = meta.shard->index;
    sh["count"] = meta.shard->count;
    sh["plan_cases"] = meta.shard->plan_cases;
    sh["plan_digest"] = meta.shard->plan_digest;
    sh["cases"] = meta.shard->cases;
    j["shard"] = std::move(sh);
  }
  if (meta.executable) j["executable"] = *meta.executable;
  if (meta.build_id) j["build_id"] = *meta.build_id;
  if (meta.plan) {
    j["plan"] = {{"cases", meta.plan->cases},
                 {"digest", meta.plan->digest},
                 {"selection", meta.plan->selection}};
  }
  if (meta.run) {
    j["run"] = {{"state", std::string(to_string(meta.run->state))},
                {"signal", meta.run->signal ? Json(*meta.run->signal) : Json(nullptr)},
                {"cases_done", meta.run->cases_done},
                {"failed", meta.run->failed}};
  }
  return j;
}

Json to_json(const MetricStats& stats) {
  Json j = Json::object();
  j["median"] = stats.median;
  j["min"] = stats.min;
  j["max"] = stats.max;
  j["mean"] = stats.mean;
  j["stddev"] = stats.stddev;
  j["cv"] = stats.cv;
  j["outliers"] = stats.outliers;
  j["samples"] = stats.samples;
  return j;
}

Json to_json(const CaseResult& c) {
  Json j = Json::object();
  j["id"] = c.id;
  j["bench"] = c.bench;
  j["scenario"] = c.scenario;
  j["version"] = c.version;
  Json params = Json::object();
  for (const Param& p : c.params) {
    if (const auto* number = std::get_if<int64_t>(&p.value)) {
      params[p.name] = *number;
    } else {
      params[p.name] = std::get<std::string>(p.value);
    }
  }
  j["params"] = std::move(params);
  j["rounds"] = {{"warmup", c.rounds.warmup}, {"measured", c.rounds.measured}};
  Json metrics = Json::object();
  for (Metric metric : kAllMetrics) {
    const std::optional<MetricStats>& stats = c.metrics.get(metric);
    metrics[std::string(metric_name(metric))] = stats ? to_json(*stats) : Json(nullptr);
  }
  for (Metric metric : kOptionalMetrics) {
    const std::optional<MetricStats>& stats = c.metrics.get(metric);
    if (stats) metrics[std::string(metric_name(metric))] = to_json(*stats);
  }
  j["metrics"] = std::move(metrics);
  j["delivered"] = {
      {"frames", c.delivered.frames}, {"bytes", c.delivered.bytes}, {"hash", c.delivered.hash}};
  j["flags"] = {{"multiplexed", c.flags.multiplexed},
                {"failed", c.flags.failed},
                {"reason", nullable(c.flags.reason)}};
  if (c.load) j["load"] = to_json(*c.load);
  if (c.timing) j["timing"] = to_json(*c.timing);
  if (!c.roles.empty()) {
    Json roles = Json::array();
    for (const RoleCost& r : c.roles) {
      roles.push_back({{"role", r.role},
                       {"instructions", to_json(r.instructions)},
                       {"allocations", to_json(r.allocations)}});
    }
    j["roles"] = std::move(roles);
  }
  return j;
}

Json to_json(const ResultsFile& file) {
  Json j = Json::object();
  j["schema"] = std::string(kSchema);
  j["meta"] = to_json(file.meta);
  Json cases = Json::array();
  for (const CaseResult& c : file.cases)
    cases.push_back(to_json(c));
  j["cases"] = std::move(cases);
  return j;
}

Result<ResultsFile> from_json(const Json& doc) {
  if (Status status = validate(doc); !status.ok()) return status.error();
  ResultsFile file;
  file.meta = meta_from_json(doc["meta"]);
  for (const Json& c : doc["cases"])
    file.cases.push_back(case_from_json(c));
  return file;
}

Result<ResultsFile> parse_results(std::string_view text, std::string_view source) {
  Result<Json> doc = parse_json_text(text, source);
  if (!doc.ok()) return doc.error();
  Result<ResultsFile> file = from_json(*doc);
  if (!file.ok()) return Error{std::string(source) + ": " + file.error().message};
  return file;
}

std::string serialize_case_line(const CaseResult& c) {
  return to_json(c).dump();
}

std::string serialize_document(const Meta& meta, const std::vector<std::string>& case_lines) {
  std::string text = "{\n  \"schema\": " + Json(std::string(kSchema)).dump() + ",\n";
  // Meta indented by two more spaces to sit inside the document. dump() escapes newlines inside
  // strings, so every raw newline is structural.
  const std::string meta_text = to_json(meta).dump(2);
  std::string indented;
  for (char c : meta_text) {
    indented.push_back(c);
    if (c == '\n') indented.append("  ");
  }
  text += "  \"meta\": " + indented + ",\n  \"cases\": [";
  for (size_t i = 0; i < case_lines.size(); ++i) {
    text += i == 0 ? "\n    " : ",\n    ";
    text += case_lines[i];
  }
  text += case_lines.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return text;
}

std::string serialize(const ResultsFile& file) {
  std::vector<std::string> lines;
  lines.reserve(file.cases.size());
  for (const CaseResult& c : file.cases)
    lines.push_back(serialize_case_line(c));
  return serialize_document(file.meta, lines);
}

}  // namespace moq::results
