#include "tests/reports/synthetic.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "reports/schema/results_file.h"

namespace moq::results::testing {

Meta synthetic_meta(CounterBackend backend, const std::string& commit, bool dirty) {
  Meta meta;
  meta.tool_version = "0.1.0";
  meta.git_commit = commit;
  meta.git_dirty = dirty;
  meta.compiler = "GNU 12.2.0";
  meta.compiler_flags = "-O2 -g";
  meta.build_type = "Release";
  meta.cpu_model = "Synthetic CPU @ 1.00GHz";
  meta.kernel = "Linux 6.1.0";
  meta.counter_backend = backend;
  if (backend == CounterBackend::kCallgrind) meta.counter_event = "Ir";
  if (backend == CounterBackend::kPerf) meta.counter_event = "instructions:u";
  meta.pinned_cpu = std::nullopt;
  meta.command_line = {"moqbench", "run", "--backend", std::string(to_string(backend))};
  meta.start_time = "2026-11-29T18:30:01Z";
  return meta;
}

namespace {

// Samples whose lower median is exactly `median`: sorted they are m, m, m+1, m+3.
std::vector<uint64_t> around(uint64_t median) {
  return {median + 3, median, median + 1, median};
}

}  // namespace

CaseResult synthetic_case(const std::string& scenario, const std::string& version,
                          const std::vector<Param>& params, uint64_t instructions,
                          uint64_t allocations, CounterBackend backend) {
  CaseResult c;
  c.bench = "model";
  c.scenario = scenario;
  c.version = version;
  c.params = params;
  c.id = make_case_id(c);
  c.rounds = {2, 4};
  if (backend != CounterBackend::kNone)
    c.metrics.instructions = compute_stats(around(instructions));
  c.metrics.allocations = compute_stats(around(allocations));
  c.metrics.allocation_bytes = compute_stats(around(allocations * 64));
  c.metrics.wall_ns = compute_stats(around(instructions / 3 + 1000));
  c.metrics.streams_opened = compute_stats({1, 1, 1, 1});
  c.metrics.wire_bytes = compute_stats({4096, 4096, 4096, 4096});
  c.metrics.tasks_run = compute_stats({12, 12, 12, 12});
  c.delivered = {256, 256 * 1024, "00ff10ab"};
  return c;
}

TempDir::TempDir() {
  const char* base = getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/moq_reports_XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + pattern);
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string write_synthetic(const TempDir& dir, const std::string& name, const ResultsFile& file) {
  std::string path = dir.file(name);
  Status status = write_results_file(path, file);
  if (!status.ok()) throw std::runtime_error(status.error().message);
  return path;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace moq::results::testing
