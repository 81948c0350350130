#include "harness/cli/case_process.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/counters/alloc_counter.h"
#include "harness/counters/callgrind_counter.h"
#include "harness/counters/callgrind_launch.h"
#include "harness/counters/callgrind_profile.h"
#include "harness/counters/cpu_pin.h"
#include "harness/runner/case_builder.h"
#include "harness/runner/meta.h"
#include "reports/schema/json_io.h"

namespace moq::cli {

namespace {

constexpr const char* kSubcommand = "measure-case";
constexpr const char* kRequestFile = "case-request";
constexpr const char* kResultFile = "case-result.json";
constexpr const char* kProfileFile = "profile.callgrind";
constexpr const char* kMarkerFile = "allocation-marker";

// The request's numbers have fixed widths, so that the child's reading of it allocates the same
// whatever the round counts: only the case id's length varies, and it is the case's own.
std::string request_text(const harness::CaseSpec& spec, const harness::RunOptions& options,
                         std::optional<int> cpu, bool keep_profile, bool read_marker) {
  char numbers[64];
  std::snprintf(numbers, sizeof numbers, "%010" PRIu32 "\n%010" PRIu32 "\n%+011d\n%d\n%d\n",
                options.warmup, options.rounds, cpu.value_or(-1), keep_profile ? 1 : 0,
                read_marker ? 1 : 0);
  return spec.id() + "\n" + numbers;
}

struct Request {
  std::string id;
  harness::RunOptions options;
  std::optional<int> cpu;
  bool keep_profile = false;
  bool read_marker = false;
};

Result<Request> read_request(std::istream& in) {
  Request r;
  std::string warmup, rounds, cpu, keep, count;
  if (!std::getline(in, r.id) || !std::getline(in, warmup) || !std::getline(in, rounds) ||
      !std::getline(in, cpu) || !std::getline(in, keep) || !std::getline(in, count))
    return Error{0, std::string(kRequestFile) +
                        ": expected 6 lines (id, warm-up, rounds, cpu, keep profile, read "
                        "allocation marker)"};
  r.keep_profile = keep == "1";
  r.read_marker = count == "1";
  try {
    r.options.warmup = static_cast<uint32_t>(std::stoul(warmup));
    r.options.rounds = static_cast<uint32_t>(std::stoul(rounds));
    const int c = std::stoi(cpu);
    if (c >= 0) r.cpu = c;
  } catch (const std::exception&) {
    return Error{0, std::string(kRequestFile) + ": a number line is not a number"};
  }
  return r;
}

// The allocation marker of each measured round: the last `rounds` region dumps of this directory
// (one per round, numbered in order), written one round a line as "<cost> <calls>".
Result<std::string> allocation_marker_per_round(uint32_t rounds) {
  std::vector<std::pair<uint64_t, std::string>> dumps;
  const std::string prefix = "callgrind.out.";
  for (const auto& entry : std::filesystem::directory_iterator(".")) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string number = name.substr(prefix.size());
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) continue;
    dumps.emplace_back(std::stoull(number), name);
  }
  std::sort(dumps.begin(), dumps.end());
  if (dumps.size() < rounds)
    return Error{0, std::to_string(dumps.size()) + " region dumps for " + std::to_string(rounds) +
                        " measured rounds"};
  std::string out;
  for (size_t i = dumps.size() - rounds; i < dumps.size(); ++i) {
    std::ifstream in(dumps[i].second, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    Result<counters::CallgrindProfile> profile =
        counters::parse_callgrind_profile(text.str(), dumps[i].second);
    if (!profile) return profile.error();
    counters::FunctionCost marker;
    for (const counters::FunctionCost& f : profile->functions)
      if (f.name == counters::kAllocationMarker) marker = f;
    out += std::to_string(marker.self) + " " + std::to_string(marker.calls) + "\n";
  }
  return out;
}

Status write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) return Error{0, "cannot write " + path};
  return {};
}

}  // namespace

results::CaseResult measure_case_in_callgrind_process(
    const harness::CaseSpec& spec, const harness::RunOptions& options, std::optional<int> cpu,
    const std::string& profile, const CollectPass& pass, std::vector<AllocationMarker>* marker) {
  std::optional<results::CaseResult> got;
  counters::CallgrindChild child;
  child.args = {kSubcommand};
  child.callgrind_args = pass.callgrind_args;
  child.canonical = true;
  child.before = [&](const std::string& dir) {
    return write_file(dir + "/" + kRequestFile, request_text(spec, options, cpu, !profile.empty(),
                                                             pass.read_allocation_marker));
  };
  child.after = [&](const std::string& dir) -> Status {
    std::ifstream in(dir + "/" + kResultFile, std::ios::binary);
    if (!in) return {};  // no result: said below, with the exit status
    std::ostringstream text;
    text << in.rdbuf();
    results::Result<results::ResultsFile> file =
        results::parse_results(text.str(), "the case process's result");
    if (!file) return Error{0, file.error().message};
    if (file->cases.size() != 1 || file->cases[0].id != spec.id())
      return Error{0, "the case process's result holds another case"};
    got = std::move(file->cases[0]);
    if (marker && pass.read_allocation_marker && !got->flags.failed) {
      std::ifstream lines(dir + "/" + kMarkerFile);
      AllocationMarker m;
      while (lines >> m.ir >> m.calls)
        marker->push_back(m);
      if (marker->size() != got->rounds.measured)
        return Error{0, "the case process's allocation marker has " +
                            std::to_string(marker->size()) + " rounds, not " +
                            std::to_string(got->rounds.measured)};
    }
    if (profile.empty()) return {};
    std::error_code ec;
    std::filesystem::copy_file(dir + "/" + kProfileFile, profile,
                               std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) return Error{0, "--profile " + profile + ": " + ec.message()};
    return {};
  };
  Result<int> status = counters::run_callgrind_child(child);
  if (!status)
    return harness::failed_case(
        spec, options, "measuring in its own process under callgrind: " + status.error().message);
  if (got && *status == kExitOk) return std::move(*got);
  return harness::failed_case(spec, options,
                              "its process under callgrind ended with " +
                                  (*status >= 128 ? "signal " + std::to_string(*status - 128)
                                                  : "exit status " + std::to_string(*status)) +
                                  (got ? std::string() : " and no result"));
}

Action add_measure_case_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      kSubcommand, "(internal) measure the case of ./case-request under callgrind, by itself");
  sub->group("");  // not for users: `run` and `sweep` start it
  return [ctx]() {
    std::ostream& err = ctx.io->err;
    std::ifstream in(kRequestFile);
    Result<Request> request = read_request(in);
    if (!request) return bad_input(ctx, kSubcommand, request.error().message);
    Result<harness::CaseSpec> spec = harness::parse_case_id(*ctx.registry, request->id);
    if (!spec) return bad_input(ctx, kSubcommand, spec.error().message);
    if (request->cpu) {
      if (Status st = counters::pin_current_thread_to_cpu(*request->cpu); !st)
        return bad_input(ctx, kSubcommand, "--cpu: " + st.error().message);
    }
    // Opened the same way whether the profile is kept or not (only the flag differs), so a kept
    // profile's round is the round a run without one measures.
    Result<std::unique_ptr<counters::CallgrindCounter>> counter = counters::CallgrindCounter::open(
        {.keep_dumps = request->keep_profile || request->read_marker});
    if (!counter) return bad_input(ctx, kSubcommand, counter.error().message);
    results::ResultsFile file;
    file.cases.push_back(harness::run_case(*spec, request->options, counter->get()));
    const results::CaseResult& measured = file.cases.back();
    if (request->read_marker && !measured.flags.failed) {
      Result<std::string> marker = allocation_marker_per_round(measured.rounds.measured);
      if (!marker) {
        err << "moqbench " << kSubcommand
            << ": reading the allocation marker: " << marker.error().message << '\n';
        return kExitFailed;
      }
      if (Status st = write_file(kMarkerFile, *marker); !st) {
        err << "moqbench " << kSubcommand << ": " << st.error().message << '\n';
        return kExitFailed;
      }
    }
    if (request->keep_profile && !(*counter)->last_dump_file().empty()) {
      std::error_code ec;
      std::filesystem::rename((*counter)->last_dump_file(), kProfileFile, ec);
      if (ec) {
        err << "moqbench " << kSubcommand << ": keeping the profile: " << ec.message() << '\n';
        return kExitFailed;
      }
    }
    file.meta = harness::make_meta(results::CounterBackend::kCallgrind, "Ir", request->cpu,
                                   {"moqbench", kSubcommand});
    if (Status st = write_file(kResultFile, results::serialize(file)); !st) {
      err << "moqbench " << kSubcommand << ": " << st.error().message << '\n';
      return kExitFailed;
    }
    return kExitOk;
  };
}

}  // namespace moq::cli
