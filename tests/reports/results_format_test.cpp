// The results format: stats, ids, JSON round trip, strict validation naming the bad field's path,
// unknown schema versions, file reading, and the crash-safe ResultsWriter.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/schema/json_io.h"
#include "reports/schema/results.h"
#include "reports/schema/results_file.h"
#include "reports/schema/validate.h"
#include "tests/reports/synthetic.h"

namespace moq::results {
namespace {

using testing::synthetic_case;
using testing::synthetic_meta;
using testing::TempDir;

ResultsFile sample_file(CounterBackend backend = CounterBackend::kCallgrind) {
  ResultsFile file;
  file.meta = synthetic_meta(backend);
  file.meta.pinned_cpu = 3;
  file.meta.executable = "/build/harness/cli/moqbench";
  file.meta.build_id = "512703aaa67d58b1dbec91fe4eac438959588fa8";
  file.cases.push_back(synthetic_case("fetch_frames", "moq-lite-06",
                                      {{"publishers", 1}, {"viewers", 1}, {"frames", 256}}, 120000,
                                      3, backend));
  for (const char* role : {"harness", "relay", "viewer"}) {
    file.cases.back().roles.push_back(
        {role, *compute_stats({40000, 40000, 40001, 40000}), *compute_stats({1, 1, 1, 0})});
  }
  file.cases.push_back(synthetic_case("fetch_frames", "moq-transport-18",
                                      {{"mode", std::string("paced")}, {"viewers", 10}}, 450000, 0,
                                      backend));
  CaseResult failed = synthetic_case("fanout", "moq-lite-06", {{"viewers", 100}}, 999, 1, backend);
  failed.flags.failed = true;
  failed.flags.reason = "deadlock: viewer 3 waits on group 7";
  failed.metrics.wall_ns = compute_stats({5, 6});  // two rounds completed
  failed.metrics.tasks_run = std::nullopt;         // no sample of it
  file.cases.push_back(failed);
  return file;
}

TEST(ResultsStats, OddCountMedianIsMiddle) {
  const auto stats = compute_stats({9, 1, 5});
  ASSERT_TRUE(stats.has_value());
  EXPECT_EQ(stats->median, 5u);
  EXPECT_EQ(stats->min, 1u);
  EXPECT_EQ(stats->max, 9u);
  EXPECT_DOUBLE_EQ(stats->mean, 5.0);
  EXPECT_EQ(stats->samples, (std::vector<uint64_t>{9, 1, 5})) << "samples keep round order";
}

TEST(ResultsStats, EvenCountMedianIsLowerMiddle) {
  const auto stats = compute_stats({10, 40, 20, 30});
  ASSERT_TRUE(stats.has_value());
  EXPECT_EQ(stats->median, 20u);
  EXPECT_DOUBLE_EQ(stats->mean, 25.0);
  EXPECT_EQ(compute_stats({7, 8})->median, 7u);
  EXPECT_EQ(compute_stats({4})->median, 4u);
  EXPECT_FALSE(compute_stats({}).has_value());
}

TEST(ResultsIds, CaseIdJoinsPartsAndParamsInOrder) {
  EXPECT_EQ(make_case_id("model", "fetch_frames", "moq-lite-06",
                         {{"publishers", 1}, {"viewers", 1}, {"frames", 256}}),
            "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=256");
  EXPECT_EQ(make_case_id("relay", "s", "v", {{"mode", std::string("paced")}, {"n", -2}}),
            "relay/s/v/mode=paced/n=-2");
}

TEST(ResultsTime, Iso8601Utc) {
  EXPECT_EQ(iso8601_utc(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(iso8601_utc(1700000000), "2023-11-14T22:13:20Z");
  EXPECT_EQ(iso8601_utc(951782400), "2000-02-29T00:00:00Z");
}

TEST(ResultsJson, RoundTripThroughJsonAndText) {
  for (CounterBackend backend :
       {CounterBackend::kCallgrind, CounterBackend::kPerf, CounterBackend::kNone}) {
    const ResultsFile file = sample_file(backend);
    Result<ResultsFile> back = from_json(to_json(file));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, file);
    const std::string text = serialize(file);
    Result<ResultsFile> parsed = parse_results(text, "mem.json");
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(*parsed, file);
    EXPECT_EQ(serialize(*parsed), text) << "serializing is deterministic";
  }
}

TEST(ResultsJson, EachCaseIsOneLineAndParamsKeepTheirOrder) {
  const std::string text = serialize(sample_file());
  size_t case_lines = 0;
  size_t pos = 0;
  while ((pos = text.find("\n    {\"id\":", pos)) != std::string::npos) {
    ++case_lines;
    ++pos;
  }
  EXPECT_EQ(case_lines, 3u);
  EXPECT_NE(text.find(R"("params":{"publishers":1,"viewers":1,"frames":256})"), std::string::npos);
  EXPECT_NE(text.find(R"("instructions":{"median":120000,)"), std::string::npos);
}

// One mutation of a valid document and the path its error must name.
struct Mutation {
  const char* pointer;
  Json value;  // the new value; discarded when remove
  bool remove;
  const char* expected;  // substring of the error message
};

TEST(ResultsValidate, RejectsBadFieldsNamingTheirPath) {
  const Json good = to_json(sample_file());
  ASSERT_TRUE(validate(good).ok()) << validate(good).error().message;
  const std::vector<Mutation> mutations = {
      {"/meta/kernel", nullptr, true, "meta.kernel: missing"},
      {"/meta/git_dirty", "no", false, "meta.git_dirty: expected true or false"},
      {"/meta/git_commit", "abc", false, "meta.git_commit: expected null or a 40- or 64-digit"},
      {"/meta/counter_backend", "papi", false,
       "meta.counter_backend: expected one of \"none\", \"perf\", \"callgrind\""},
      {"/meta/counter_event", nullptr, false, "meta.counter_event: expected a string"},
      {"/meta/pinned_cpu", -1, false, "meta.pinned_cpu: expected null or a CPU number"},
      {"/meta/command_line/1", 7, false, "meta.command_line[1]: expected a string"},
      {"/meta/start_time", "2026-11-29 18:30:01", false, "meta.start_time: expected an ISO 8601"},
      {"/meta/extra", 1, false, "meta.extra: unknown field"},
      {"/meta/build_id", "512703AA", false, "meta.build_id: expected a non-empty lowercase hex"},
      {"/meta/executable", "", false, "meta.executable: expected a non-empty string"},
      {"/cases/0/roles/0/role", "relay", false,
       "cases[0].roles[1].role: expected a role of harness, publisher, relay, viewer, transport"},
      {"/cases/0/roles/2/role", "chef", false, "cases[0].roles[2].role: expected a role of"},
      {"/cases/0/roles/1/instructions/samples", Json::array({1}), false,
       "cases[0].roles[1].instructions.samples: 1 samples, but rounds.measured is 4"},
      {"/cases", Json::object(), false, "cases: expected an array"},
      {"/cases/0/id", nullptr, true, "cases[0].id: missing"},
      {"/cases/1/id", "model/fetch_frames/moq-transport-18/viewers=10/mode=paced", false,
       "cases[1].id: is \"model/fetch_frames/moq-transport-18/viewers=10/mode=paced\" but"},
      {"/cases/0/bench", "sim", false, "cases[0].bench: expected \"model\" or \"relay\""},
      {"/cases/0/scenario", "a/b", false, "cases[0].scenario: expected a non-empty string"},
      {"/cases/0/params/frames", 2.5, false, "cases[0].params.frames: expected an integer"},
      {"/cases/0/rounds/measured", 0, false, "cases[0].rounds.measured: expected a positive"},
      {"/cases/0/rounds/warmup", "2", false, "cases[0].rounds.warmup: expected a non-negative"},
      {"/cases/0/metrics/allocations/median", "3", false,
       "cases[0].metrics.allocations.median: expected a non-negative integer, got \"3\""},
      {"/cases/0/metrics/allocations/median", 4, false,
       "cases[0].metrics.allocations.median: is 4 but the samples give 3"},
      {"/cases/0/metrics/allocations/mean", 9.0, false,
       "cases[0].metrics.allocations.mean: is 9.0 but the samples give"},
      {"/cases/0/metrics/wall_ns/samples/2", -1, false,
       "cases[0].metrics.wall_ns.samples[2]: expected a non-negative integer, got -1"},
      {"/cases/0/metrics/wire_bytes/samples", Json::array({1, 2}), false,
       "cases[0].metrics.wire_bytes.samples: 2 samples, but rounds.measured is 4"},
      {"/cases/0/metrics/instructions", nullptr, false,
       "cases[0].metrics.instructions: expected an object"},
      {"/cases/0/metrics/tasks_run", nullptr, true, "cases[0].metrics.tasks_run: missing"},
      {"/cases/0/delivered/hash", "00FF", false, "cases[0].delivered.hash: expected a lowercase"},
      {"/cases/0/delivered/frames", true, false, "cases[0].delivered.frames: expected a non-neg"},
      {"/cases/0/flags/failed", true, false, "cases[0].flags.reason: expected a non-empty string"},
      {"/cases/2/flags/reason", "", false, "cases[2].flags.reason: expected a non-empty string"},
      {"/cases/0/flags/extra", false, false, "cases[0].flags.extra: unknown field"},
      {"/cases/1/id", "model/fetch_frames/moq-lite-06/publishers=1/viewers=1/frames=256", false,
       "cases[1].id: is \"model/fetch_frames/moq-lite-06/"},
  };
  for (const Mutation& m : mutations) {
    Json doc = good;
    const Json::json_pointer pointer(m.pointer);
    if (m.remove) {
      doc[pointer.parent_pointer()].erase(pointer.back());
    } else {
      doc[pointer] = m.value;
    }
    const Status status = validate(doc);
    ASSERT_FALSE(status.ok()) << "accepted mutation at " << m.pointer;
    EXPECT_NE(status.error().message.find(m.expected), std::string::npos)
        << "mutation at " << m.pointer << " gave: " << status.error().message;
    EXPECT_FALSE(from_json(doc).ok());
  }
}

TEST(ResultsValidate, DuplicateIdsAreNamed) {
  Json doc = to_json(sample_file());
  doc["cases"].push_back(doc["cases"][0]);
  const Status status = validate(doc);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("cases[3].id"), std::string::npos);
  EXPECT_NE(status.error().message.find("duplicates cases[0].id"), std::string::npos);
}

TEST(ResultsValidate, InstructionsMustBeNullUnderBackendNone) {
  Json doc = to_json(sample_file(CounterBackend::kNone));
  ASSERT_TRUE(validate(doc).ok());
  doc["cases"][1]["metrics"]["instructions"] = doc["cases"][1]["metrics"]["allocations"];
  const Status status = validate(doc);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("cases[1].metrics.instructions: expected null"),
            std::string::npos)
      << status.error().message;
}

// packets and udp_bytes (a case over QUIC) are optional keys: absent in memory cases, checked as
// stats when present, kept through the round trip.
TEST(ResultsValidate, WireMetricsAreOptionalAndCheckedWhenPresent) {
  ResultsFile file = sample_file();
  CaseResult& quic = file.cases[0];
  quic.params.push_back({"transport", std::string("quic-sim")});
  quic.id = make_case_id(quic);
  quic.metrics.packets = compute_stats({14, 15, 14, 14});
  quic.metrics.udp_bytes = compute_stats({18000, 18100, 18000, 18000});
  Json doc = to_json(file);
  ASSERT_TRUE(validate(doc).ok()) << validate(doc).error().message;
  EXPECT_FALSE(doc["cases"][1]["metrics"].contains("packets")) << "a memory case has none";
  Result<ResultsFile> back = from_json(doc);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, file);
  doc["cases"][0]["metrics"]["packets"]["samples"] = Json::array({14, 15});  // 2 of 4 rounds
  const Status status = validate(doc);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("cases[0].metrics.packets"), std::string::npos)
      << status.error().message;
}

// `moqbench load` results carry a load object: kept through the round trip, checked for the
// arithmetic of its counts and the order of its percentiles.
TEST(ResultsValidate, LoadSummaryIsCheckedWhenPresent) {
  ResultsFile file = sample_file();
  LoadSummary load;
  load.frames_expected = 100;
  load.frames_delivered = 98;
  load.frames_lost = 2;
  load.bytes_delivered = 98 * 1024;
  load.frame_latency_ns = LatencyStats{1000, 2000, 3000, 4000};
  load.group_latency_ns = LatencyStats{2000, 3000, 4000, 5000};
  load.relay_in_process = true;
  load.relay_allocations_per_frame = 0.5;
  file.cases[0].load = load;
  Json doc = to_json(file);
  ASSERT_TRUE(validate(doc).ok()) << validate(doc).error().message;
  Result<ResultsFile> back = from_json(doc);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, file);
  Json wrong = doc;
  wrong["cases"][0]["load"]["frames_lost"] = 0;
  EXPECT_NE(validate(wrong).error().message.find("cases[0].load.frames_lost"), std::string::npos);
  wrong = doc;
  wrong["cases"][0]["load"]["frame_latency_ns"]["p99"] = 10;
  EXPECT_NE(validate(wrong).error().message.find("cases[0].load.frame_latency_ns.p99"),
            std::string::npos);
  wrong = doc;
  wrong["cases"][0]["load"]["relay_instructions_per_frame"] = "many";
  EXPECT_NE(validate(wrong).error().message.find("relay_instructions_per_frame"),
            std::string::npos);
  // Frames delivered: their latency cannot be missing.
  wrong = doc;
  wrong["cases"][0]["load"]["frame_latency_ns"] = nullptr;
  EXPECT_NE(validate(wrong).error().message.find("cases[0].load.frame_latency_ns"),
            std::string::npos);
}

// A load run in which nothing arrived has no latency: null in the file, absent when read back.
TEST(ResultsValidate, LoadLatencyIsNullWhenNothingArrived) {
  ResultsFile file = sample_file();
  LoadSummary load;
  load.frames_expected = 100;
  load.frames_lost = 100;
  file.cases[0].load = load;
  Json doc = to_json(file);
  EXPECT_TRUE(doc["cases"][0]["load"]["frame_latency_ns"].is_null());
  EXPECT_TRUE(doc["cases"][0]["load"]["group_latency_ns"].is_null());
  ASSERT_TRUE(validate(doc).ok()) << validate(doc).error().message;
  Result<ResultsFile> back = from_json(doc);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back->cases[0].load->frame_latency_ns);
  EXPECT_FALSE(back->cases[0].load->group_latency_ns);
  EXPECT_EQ(*back, file);
}

// Cases that measure delivery in virtual time carry a timing object: absent unless set, kept
// through the round trip, and checked strictly (types, percentile order, unknown keys).
TEST(ResultsValidate, DeliveryTimingIsOptionalAndCheckedWhenPresent) {
  ResultsFile file = sample_file();
  Json plain = to_json(file);
  EXPECT_FALSE(plain["cases"][0].contains("timing"));
  Result<ResultsFile> plain_back = from_json(plain);
  ASSERT_TRUE(plain_back.ok()) << plain_back.error().message;
  EXPECT_FALSE(plain_back->cases[0].timing.has_value());

  DeliveryTiming timing;
  timing.frame_latency_ns = {1000, 2000, 3000, 4000};
  timing.group_latency_ns = {5000, 6000, 7000, 8000};
  timing.group_duration_ns = 33'000'000;
  timing.viewers = {{10, 0, 0}, {7, 2, 1}};
  file.cases[1].timing = timing;
  Json doc = to_json(file);
  ASSERT_TRUE(validate(doc).ok()) << validate(doc).error().message;
  EXPECT_EQ(doc["cases"][1]["timing"],
            Json::parse(R"({"frame_latency_ns": {"p50": 1000, "p90": 2000, "p99": 3000,
                                                 "max": 4000},
                            "group_latency_ns": {"p50": 5000, "p90": 6000, "p99": 7000,
                                                 "max": 8000},
                            "group_duration_ns": 33000000,
                            "viewers": [{"whole": 10, "reset": 0, "skipped": 0},
                                        {"whole": 7, "reset": 2, "skipped": 1}]})"));
  EXPECT_FALSE(doc["cases"][0].contains("timing"));
  Result<ResultsFile> back = from_json(doc);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, file);
  Result<ResultsFile> text_back = parse_results(serialize(file), "timing.json");
  ASSERT_TRUE(text_back.ok()) << text_back.error().message;
  EXPECT_EQ(*text_back, file);

  // No viewers is still a valid object.
  file.cases[1].timing->viewers.clear();
  EXPECT_TRUE(validate(to_json(file)).ok());

  auto refused = [&](const char* what, auto&& edit, const std::string& path) {
    Json wrong = doc;
    edit(wrong["cases"][1]["timing"]);
    const Status status = validate(wrong);
    ASSERT_FALSE(status.ok()) << what;
    EXPECT_NE(status.error().message.find(path), std::string::npos)
        << what << ": " << status.error().message;
  };
  refused(
      "percentile below the one before", [](Json& t) { t["group_latency_ns"]["p90"] = 10; },
      "cases[1].timing.group_latency_ns.p90");
  refused(
      "negative pace", [](Json& t) { t["group_duration_ns"] = -1; },
      "cases[1].timing.group_duration_ns");
  refused(
      "pace as a string", [](Json& t) { t["group_duration_ns"] = "fast"; },
      "cases[1].timing.group_duration_ns");
  refused(
      "missing key", [](Json& t) { t.erase("frame_latency_ns"); },
      "cases[1].timing.frame_latency_ns: missing");
  refused(
      "unknown key", [](Json& t) { t["jitter_ns"] = 5; },
      "cases[1].timing.jitter_ns: unknown field");
  refused(
      "viewers not an array", [](Json& t) { t["viewers"] = Json::object(); },
      "cases[1].timing.viewers");
  refused(
      "viewer count not an integer", [](Json& t) { t["viewers"][1]["reset"] = 1.5; },
      "cases[1].timing.viewers[1].reset");
  refused(
      "viewer missing a count", [](Json& t) { t["viewers"][0].erase("skipped"); },
      "cases[1].timing.viewers[0].skipped: missing");
  refused(
      "viewer with an unknown key", [](Json& t) { t["viewers"][0]["late"] = 0; },
      "cases[1].timing.viewers[0].late: unknown field");
  refused(
      "timing not an object", [](Json& t) { t = Json::array(); }, "cases[1].timing");
}

TEST(ResultsStats, LatencyPercentilesAreNearestRank) {
  std::vector<uint64_t> samples;
  for (uint64_t i = 100; i >= 1; --i)
    samples.push_back(i * 10);
  const LatencyStats s = latency_stats(samples);
  EXPECT_EQ(s.p50, 500u);
  EXPECT_EQ(s.p90, 900u);
  EXPECT_EQ(s.p99, 990u);
  EXPECT_EQ(s.max, 1000u);
  std::vector<uint64_t> none;
  EXPECT_EQ(latency_stats(none), LatencyStats{});
}

TEST(ResultsValidate, FailedCaseMayHavePartialMetricsButNotMoreThanMeasured) {
  Json doc = to_json(sample_file());
  ASSERT_TRUE(validate(doc).ok());
  doc["cases"][2]["metrics"]["wall_ns"]["samples"] = Json::array({1, 2, 3, 4, 5});
  doc["cases"][2]["metrics"]["wall_ns"]["median"] = 3;
  doc["cases"][2]["metrics"]["wall_ns"]["min"] = 1;
  doc["cases"][2]["metrics"]["wall_ns"]["max"] = 5;
  doc["cases"][2]["metrics"]["wall_ns"]["mean"] = 3.0;
  const Status status = validate(doc);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("cases[2].metrics.wall_ns.samples: 5 samples"),
            std::string::npos)
      << status.error().message;
}

TEST(ResultsValidate, UnknownSchemaVersionIsAClearError) {
  Json doc = to_json(sample_file());
  doc["schema"] = "moqbench.results/4";
  doc["meta"] = "whatever a later version has";
  Result<ResultsFile> file = parse_results(doc.dump(), "future.json");
  ASSERT_FALSE(file.ok());
  const std::string& message = file.error().message;
  EXPECT_NE(message.find("future.json: schema: unsupported results schema "
                         "\"moqbench.results/4\"; this moqbench reads \"moqbench.results/3\" "
                         "and \"moqbench.results/2\" and \"moqbench.results/1\""),
            std::string::npos)
      << message;

  Json no_schema = to_json(sample_file());
  no_schema.erase("schema");
  EXPECT_NE(validate(no_schema).error().message.find("schema: missing"), std::string::npos);
  EXPECT_NE(validate(Json::array()).error().message.find("(document): expected an object"),
            std::string::npos);
}

TEST(ResultsFileIo, SyntaxErrorsAndMissingFilesNameTheFile) {
  Result<ResultsFile> bad = parse_results("{\"schema\": ", "broken.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("broken.json: not valid JSON"), std::string::npos);

  TempDir dir;
  Result<ResultsFile> missing = read_results_file(dir.file("absent.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot read " + dir.file("absent.json")),
            std::string::npos)
      << missing.error().message;
}

TEST(ResultsFileIo, WriteRefusesAnInvalidFile) {
  TempDir dir;
  ResultsFile file = sample_file();
  file.cases[0].id = "wrong";
  const Status status = write_results_file(dir.file("r.json"), file);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("cases[0].id"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.json")));
}

TEST(ResultsWriterTest, FileIsValidAndCompleteAfterEveryCase) {
  TempDir dir;
  const std::string path = dir.file("run.json");
  const ResultsFile expected = sample_file();
  Result<ResultsWriter> writer = ResultsWriter::create(path, expected.meta);
  ASSERT_TRUE(writer.ok()) << writer.error().message;

  Result<ResultsFile> empty = read_results_file(path);
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  EXPECT_TRUE(empty->cases.empty());
  EXPECT_EQ(empty->meta, expected.meta);

  for (size_t i = 0; i < expected.cases.size(); ++i) {
    ASSERT_TRUE(writer->add(expected.cases[i]).ok());
    // What a crash right now would leave: every case so far, nothing torn.
    Result<ResultsFile> on_disk = read_results_file(path);
    ASSERT_TRUE(on_disk.ok()) << on_disk.error().message;
    ASSERT_EQ(on_disk->cases.size(), i + 1);
    EXPECT_EQ(on_disk->cases.back(), expected.cases[i]);
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  }
  EXPECT_EQ(*read_results_file(path), expected);
  EXPECT_EQ(writer->results(), expected);
}

TEST(ResultsWriterTest, RefusesInvalidAndDuplicateCasesLeavingTheFileAsItWas) {
  TempDir dir;
  const std::string path = dir.file("run.json");
  const ResultsFile sample = sample_file();
  Result<ResultsWriter> writer = ResultsWriter::create(path, sample.meta);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer->add(sample.cases[0]).ok());
  const std::string before = testing::read_text(path);

  const Status duplicate = writer->add(sample.cases[0]);
  ASSERT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.error().message.find("already written"), std::string::npos);

  CaseResult no_instructions = sample.cases[1];
  no_instructions.metrics.instructions = std::nullopt;
  const Status invalid = writer->add(no_instructions);
  ASSERT_FALSE(invalid.ok());
  EXPECT_NE(invalid.error().message.find("metrics.instructions"), std::string::npos)
      << invalid.error().message;

  EXPECT_EQ(testing::read_text(path), before);
  EXPECT_EQ(writer->results().cases.size(), 1u);
}

TEST(ResultsWriterTest, RefusesInvalidMetaAndUnwritablePaths) {
  TempDir dir;
  Meta meta = synthetic_meta();
  meta.start_time = "yesterday";
  Result<ResultsWriter> bad_meta = ResultsWriter::create(dir.file("a.json"), meta);
  ASSERT_FALSE(bad_meta.ok());
  EXPECT_NE(bad_meta.error().message.find("meta.start_time"), std::string::npos);

  Result<ResultsWriter> bad_path =
      ResultsWriter::create(dir.file("no/such/dir/a.json"), synthetic_meta());
  ASSERT_FALSE(bad_path.ok());
  EXPECT_NE(bad_path.error().message.find("does not exist"), std::string::npos);
}

// Version 1 files (no plan, no run end) are still read: they say nothing of how their run ended,
// and a version 2 file carries both through a round trip.
// Takes the spread figures (schema 3) out of every stats object, as versions 1 and 2 wrote them.
void strip_spread(Json& j) {
  if (j.is_object()) {
    if (j.contains("samples")) {
      for (const char* key : {"stddev", "cv", "outliers"})
        j.erase(key);
    }
    for (auto& item : j.items())
      strip_spread(item.value());
  } else if (j.is_array()) {
    for (Json& e : j)
      strip_spread(e);
  }
}

TEST(ResultsValidate, VersionOneFilesStillReadAndVersionTwoKeepsPlanAndRunEnd) {
  Json v1 = to_json(sample_file());
  strip_spread(v1);
  v1["schema"] = "moqbench.results/1";
  v1["meta"].erase("plan");
  v1["meta"].erase("run");
  Result<ResultsFile> old = parse_results(v1.dump(), "v1.json");
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_FALSE(old->meta.plan.has_value());
  EXPECT_FALSE(old->meta.run.has_value());

  ResultsFile file = sample_file();
  file.meta.plan =
      PlanInfo{{file.cases[0].id, "model/never/measured"}, "0123456789abcdef", "sweep --frames 4"};
  file.meta.run = RunEnd{RunState::kInterrupted, 2, 1, {}};
  Result<ResultsFile> back = parse_results(serialize(file), "v2.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->meta.plan, file.meta.plan);
  EXPECT_EQ(back->meta.run, file.meta.run);

  // An interrupted run names its signal; a complete one has none.
  Json bad = to_json(file);
  bad["meta"]["run"]["signal"] = nullptr;
  EXPECT_FALSE(validate(bad).ok());
  bad["meta"]["run"]["state"] = "complete";
  bad["meta"]["run"]["signal"] = 2;
  EXPECT_FALSE(validate(bad).ok());
  bad["meta"]["run"]["state"] = "paused";
  EXPECT_FALSE(validate(bad).ok());
}

// Schema 3's spread figures: computed from the samples (sample standard deviation, its ratio to
// the mean, rounds outside Tukey's fences), checked against them on reading, absent from older
// versions, which get them from their samples.
TEST(ResultsValidate, SpreadFiguresAgreeWithTheSamplesAndOlderFilesGetThemOnReading) {
  // 10, 11, 12, 13, 100: quartiles 11 and 13, fences 8 and 16, so 100 is the one outlier.
  const MetricStats s = *compute_stats({10, 11, 12, 13, 100});
  EXPECT_EQ(s.outliers, 1u);
  EXPECT_NEAR(s.stddev, 39.5941915, 1e-6);
  EXPECT_NEAR(s.cv, s.stddev / 29.2, 1e-12);
  const MetricStats exact = *compute_stats({7, 7, 7});
  EXPECT_EQ(exact.stddev, 0.0);
  EXPECT_EQ(exact.cv, 0.0);
  EXPECT_EQ(exact.outliers, 0u);
  EXPECT_EQ(compute_stats({0, 0})->cv, 0.0) << "no variation of nothing";

  ResultsFile file = sample_file();
  file.cases[0].metrics.wall_ns = compute_stats({10, 11, 12, 13, 100, 12});
  file.cases[0].rounds.measured = 6;
  for (Metric m : kAllMetrics) {
    std::optional<MetricStats>& stats = file.cases[0].metrics.get(m);
    if (stats && m != Metric::kWallNs) {
      std::vector<uint64_t> samples = stats->samples;
      samples.resize(6, samples.back());
      stats = compute_stats(samples);
    }
  }
  // The role split has a sample per measured round too, the last round repeated as above.
  auto six_rounds = [](MetricStats& stats) {
    std::vector<uint64_t> samples = stats.samples;
    samples.resize(6, samples.back());
    stats = *compute_stats(samples);
  };
  for (RoleCost& role : file.cases[0].roles) {
    six_rounds(role.instructions);
    six_rounds(role.allocations);
  }
  Result<ResultsFile> back = parse_results(serialize(file), "v3.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cases[0].metrics.wall_ns, file.cases[0].metrics.wall_ns);

  Json wrong = to_json(file);
  wrong["cases"][0]["metrics"]["wall_ns"]["outliers"] = 0;
  Result<ResultsFile> refused = parse_results(wrong.dump(), "v3.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("cases[0].metrics.wall_ns.outliers: is 0 but the samples "
                                         "give 1"),
            std::string::npos)
      << refused.error().message;
  wrong = to_json(file);
  wrong["cases"][0]["metrics"]["wall_ns"]["cv"] = 0.5;
  EXPECT_FALSE(validate(wrong).ok());
  wrong["cases"][0]["metrics"]["wall_ns"].erase("cv");
  EXPECT_FALSE(validate(wrong).ok());

  // Version 2 has no spread keys (one is an unknown field there) and reads with the figures its
  // samples give.
  Json v2 = to_json(file);
  v2["schema"] = "moqbench.results/2";
  EXPECT_FALSE(validate(v2).ok());
  strip_spread(v2);
  Result<ResultsFile> old = parse_results(v2.dump(), "v2.json");
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_EQ(old->cases[0].metrics.wall_ns, file.cases[0].metrics.wall_ns);
}

}  // namespace
}  // namespace moq::results
