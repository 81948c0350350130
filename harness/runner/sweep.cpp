#include "harness/runner/sweep.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace moq::harness {

namespace {

std::string seconds_text(std::chrono::steady_clock::duration d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", std::chrono::duration<double>(d).count());
  return buf;
}

// "3m12s", "1h02m", "45s": an estimate needs no tenths.
std::string eta_text(std::chrono::steady_clock::duration d) {
  const long long s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  char buf[48];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, s % 3600 / 60);
  } else if (s >= 60) {
    std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%llds", s);
  }
  return buf;
}

}  // namespace

Result<SweepResult> run_sweep(const std::vector<CaseSpec>& cases, const RunOptions& options,
                              counters::InstructionCounter* counter, results::ResultsWriter* writer,
                              const SweepProgress& progress) {
  return run_sweep(
      cases, [&](const CaseSpec& spec) { return run_case(spec, options, counter); }, writer,
      progress);
}

Result<SweepResult> run_sweep(const std::vector<CaseSpec>& cases, const CaseMeasurer& measure,
                              results::ResultsWriter* writer, const SweepProgress& progress) {
  SweepResult out;
  out.cases.reserve(cases.size());
  const auto start = std::chrono::steady_clock::now();
  const std::string n = std::to_string(cases.size());
  auto stopped = [&] { return progress.stop != nullptr && *progress.stop != 0; };
  for (size_t i = 0; i < cases.size(); ++i) {
    if (stopped()) break;
    if (progress.out) {
      const auto elapsed = std::chrono::steady_clock::now() - start;
      std::string line = "[" + std::to_string(i + 1) + "/" + n + "] " + cases[i].id() +
                         "  (elapsed " + seconds_text(elapsed);
      // An estimate from one or two cases says little, and a short sweep needs none: the ETA
      // shows from the fourth case on, as the mean time per case so far times the cases left.
      if (i >= kEtaAfterCases) {
        const auto per_case = elapsed / static_cast<int64_t>(i);
        line += ", ETA " + eta_text(per_case * static_cast<int64_t>(cases.size() - i));
      }
      line += ")";
      if (progress.overwrite) {
        *progress.out << "\r\033[K" << line << std::flush;
      } else {
        *progress.out << line << '\n' << std::flush;
      }
    }
    results::CaseResult result = measure(cases[i]);
    if (result.flags.failed && stopped()) break;
    if (result.flags.failed) {
      ++out.failed;
      if (progress.out) {
        if (progress.overwrite) *progress.out << '\n';
        *progress.out << "FAILED " << result.id << ": " << result.flags.reason.value_or("") << '\n'
                      << std::flush;
      }
    }
    if (writer) {
      if (results::Status st = writer->add(result); !st)
        return Error{0, "writing " + writer->path() + ": " + st.error().message};
    }
    out.cases.push_back(std::move(result));
  }
  if (stopped() && out.cases.size() < cases.size()) {
    out.stopped_by = static_cast<int>(*progress.stop);
    if (progress.out) {
      if (progress.overwrite) *progress.out << '\n';
      *progress.out << "stopped by signal " << out.stopped_by << " after " << out.cases.size()
                    << " of " << cases.size() << " cases\n"
                    << std::flush;
    }
    return out;
  }
  if (progress.out) {
    std::string line = "done: " + std::to_string(cases.size()) + " cases, " +
                       std::to_string(out.failed) + " failed, in " +
                       seconds_text(std::chrono::steady_clock::now() - start);
    if (progress.overwrite) *progress.out << "\r\033[K";
    *progress.out << line << '\n' << std::flush;
  }
  return out;
}

}  // namespace moq::harness
