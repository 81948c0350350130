// `moqbench faults`: the fault scenarios (harness/runner/faults.h) over versions and seeds, one
// line each; a failure prints its reason and the one command that replays it.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "harness/cli/commands.h"
#include "harness/runner/faults.h"
#include "model/wire/version.h"

namespace moq::cli {

namespace {

struct FaultsArgs {
  std::string fault = "all";
  std::string versions;  // comma-separated; empty: every implemented version
  // Read as text: CLI11 reads "-1" into a uint64_t as 2^64 - 1, which then wrapped the seed loop
  // round to no run at all.
  std::string seed = "1";
  uint64_t seeds = 1;  // seeds seed, seed + 1, ...
  bool list = false;
};

// A seed is a decimal number from 0 to 2^64 - 1: no sign, no spaces, nothing after it.
std::optional<uint64_t> parse_seed(const std::string& text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

Action add_faults_command(CLI::App& app, const CliContext& ctx) {
  CLI::App* sub = app.add_subcommand(
      "faults",
      "Run the fault scenarios (a group reset mid-group, a session closed mid-fetch, a publisher "
      "vanishing, tiny flow-control windows, GOAWAY, a relay session dropped and made again), "
      "each seeded and replayable, checking what the protocol promises");
  auto args = std::make_shared<FaultsArgs>();
  sub->add_option("--fault", args->fault, "a fault's name, or all")->capture_default_str();
  sub->add_option("--versions", args->versions,
                  "protocol versions, comma-separated (default: every implemented one but the "
                  "interop-only, which run when named)");
  sub->add_option("--seed", args->seed, "the first seed")->capture_default_str();
  sub->add_option("--seeds", args->seeds, "how many seeds, from --seed on")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000}))
      ->capture_default_str();
  sub->add_flag("--list", args->list, "list the faults and exit");
  return [ctx, args]() {
    std::ostream& out = ctx.io->out;
    const std::vector<harness::FaultDef> all = harness::registered_faults();
    if (args->list) {
      for (const harness::FaultDef& f : all)
        out << f.name << "  " << f.summary << '\n';
      return kExitOk;
    }
    std::vector<const harness::FaultDef*> chosen;
    std::vector<std::string> names;
    for (const harness::FaultDef& f : all) {
      names.push_back(f.name);
      if (args->fault == "all" || args->fault == f.name) chosen.push_back(&f);
    }
    if (chosen.empty())
      return bad_input(ctx, "faults",
                       "no fault '" + args->fault + "' (faults: " + join(names) + ")");
    const std::optional<uint64_t> first_seed = parse_seed(args->seed);
    if (!first_seed)
      return bad_input(ctx, "faults",
                       "--seed '" + args->seed + "' is not a seed (a whole number from 0 to " +
                           std::to_string(UINT64_MAX) + ")");
    // The last seed is first + seeds - 1; past 2^64 - 1 the range would wrap round.
    if (args->seeds - 1 > UINT64_MAX - *first_seed)
      return bad_input(ctx, "faults",
                       "--seed " + args->seed + " with --seeds " + std::to_string(args->seeds) +
                           " runs past the largest seed, " + std::to_string(UINT64_MAX));
    const std::vector<std::string>& implemented = ctx.registry->implemented_versions();
    // By default the swept versions: an interop-only one runs when named.
    std::vector<std::string> versions =
        args->versions.empty() ? ctx.registry->swept_versions() : split_commas(args->versions);
    if (versions.empty())
      return bad_input(ctx, "faults", "--versions '" + args->versions + "' names no version");
    // Every spelling a command takes (an ALPN, draft-N), run by the version's name.
    for (std::string& v : versions)
      if (const std::optional<Version> known = parse_version_spelling(v))
        v = std::string(version_name(*known));
    for (const std::string& v : versions)
      if (std::find(implemented.begin(), implemented.end(), v) == implemented.end())
        return bad_input(
            ctx, "faults",
            "version '" + v + "' is not implemented (implemented: " + join(implemented) + ")");
    uint64_t failed = 0, runs = 0;
    for (const harness::FaultDef* f : chosen) {
      for (const std::string& v : versions) {
        for (uint64_t i = 0; i < args->seeds; ++i) {
          const uint64_t seed = *first_seed + i;
          const harness::FaultOutcome o = f->run(v, seed);
          ++runs;
          out << f->name << ' ' << v << " seed " << seed << ": ";
          if (o.failure.empty()) {
            out << "ok, trace " << o.trace << "; " << o.summary << '\n';
            continue;
          }
          ++failed;
          out << "FAILED: " << o.failure << "\n  (" << o.summary << "; trace " << o.trace
              << ")\n  replay: " << harness::fault_replay_command(f->name, v, seed) << '\n';
        }
      }
    }
    out << runs << " runs, " << failed << " failed\n";
    // A command that ran nothing checked nothing: never report that as a pass.
    if (runs == 0) {
      ctx.io->err << "moqbench faults: no fault run was made\n";
      return kExitFailed;
    }
    return failed == 0 ? kExitOk : kExitFailed;
  };
}

}  // namespace moq::cli
