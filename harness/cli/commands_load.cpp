// `moqbench load`: a live load against a relay over real QUIC (load.h), its result written as a
// results file with one case. Exit 0: the frames arrived within --max-loss; 1: the run could not
// finish (relay unreachable, refused, or gone mid-run) or nothing arrived; 2: bad input; 3: more
// frames lost than --max-loss allows.
#include <cstdio>

#include "harness/cli/commands.h"
#include "harness/cli/load.h"
#include "harness/runner/meta.h"
#include "model/session/create_session.h"
#include "reports/schema/results_file.h"

namespace moq::cli {

Action add_load_command(CLI::App& app, const CliContext& ctx) {
  auto config = std::make_shared<LoadConfig>();
  auto version = std::make_shared<std::string>("moq-lite-06");
  auto out = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "load", "live load against a relay over QUIC (default: one started in this process)");
  sub->add_option("--connect", config->connect, "HOST:PORT of a relay (default: in-process)");
  sub->add_flag("--tls-disable-verify", config->tls_disable_verify,
                "--connect: accept any certificate (a self-signed test relay)");
  sub->add_option("--ca-file", config->ca_file,
                  "--connect: trust the certificates in this PEM file (default: the system's)");
  sub->add_option("--version", *version,
                  "protocol version: its name, its ALPN, or draft-N for moq-transport")
      ->capture_default_str();
  sub->add_option("--max-loss", config->max_loss,
                  "fraction of frames that may be lost, 0..1; more is exit 3")
      ->capture_default_str();
  sub->add_option("--publishers", config->publishers, "publisher connections")
      ->capture_default_str();
  sub->add_option("--broadcasts", config->broadcasts, "broadcasts per publisher")
      ->capture_default_str();
  sub->add_option("--viewers", config->viewers,
                  "viewer connections; viewer v watches broadcast v mod all")
      ->capture_default_str();
  sub->add_option("--frame-size", config->frame_size, "bytes per frame")->capture_default_str();
  sub->add_option("--fps", config->fps, "frames per second per broadcast")->capture_default_str();
  sub->add_option("--duration", config->duration_s, "seconds measured")->capture_default_str();
  sub->add_option("--group-frames", config->group_frames, "frames per group (default: --fps)");
  sub->add_option("--out", *out, "results file (JSON)");
  return [config, version, out, &ctx = ctx]() {
    std::optional<session::Version> v = parse_version_spelling(*version);
    if (!v) {
      std::vector<std::string> names;
      for (session::Version i : session::implemented_versions())
        names.emplace_back(session::version_name(i));
      return bad_input(ctx, "load",
                       "--version '" + *version + "' has no session engine (implemented: " +
                           join(names) + "; each also by its ALPN, moq-transport by draft-N)");
    }
    config->version = *v;
    if (Status st = check_load_config(*config); !st)
      return bad_input(ctx, "load", st.error().message);
    std::optional<results::ResultsWriter> writer;
    std::vector<std::string> command_line(ctx.argv, ctx.argv + ctx.argc);
    if (!out->empty()) {
      results::Result<results::ResultsWriter> w = results::ResultsWriter::create(
          *out, harness::make_meta(results::CounterBackend::kNone, "", std::nullopt, command_line));
      if (!w) return bad_input(ctx, "load", w.error().message);
      writer.emplace(std::move(*w));
    }
    Result<results::CaseResult> r = run_load(*config, ctx.io->err, ctx.io->err_is_terminal);
    if (!r) {
      ctx.io->err << "moqbench load: " << r.error().message << '\n';
      // Stdout or a FIFO still gets its (empty, valid) document: a reader waiting on it ends.
      if (writer) (void)writer->finish();
      return kExitFailed;
    }
    const results::LoadSummary& l = *r->load;
    char line[400];
    std::snprintf(line, sizeof line,
                  "%s\n  delivered %llu of %llu frames (lost %llu, %.2f%%), %llu bytes in %u s: "
                  "%.0f frames/s, %.2f MB/s\n",
                  r->id.c_str(), static_cast<unsigned long long>(l.frames_delivered),
                  static_cast<unsigned long long>(l.frames_expected),
                  static_cast<unsigned long long>(l.frames_lost), 100.0 * loss_fraction(l),
                  static_cast<unsigned long long>(l.bytes_delivered), config->duration_s,
                  static_cast<double>(l.frames_delivered) / config->duration_s,
                  static_cast<double>(l.bytes_delivered) / config->duration_s / 1e6);
    // With --out - the results document owns stdout: the summary goes to stderr.
    std::ostream& table = *out == "-" ? ctx.io->err : ctx.io->out;
    table << line;
    // A percentile of no sample is not a time: "n/a" (null in the results file).
    char frame[160] = "n/a (no frame arrived)", group[120] = "n/a (no group arrived whole)";
    if (l.frame_latency_ns)
      std::snprintf(frame, sizeof frame, "p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
                    l.frame_latency_ns->p50 / 1e6, l.frame_latency_ns->p90 / 1e6,
                    l.frame_latency_ns->p99 / 1e6, l.frame_latency_ns->max / 1e6);
    if (l.group_latency_ns)
      std::snprintf(group, sizeof group, "p50 %.2f ms, p99 %.2f ms", l.group_latency_ns->p50 / 1e6,
                    l.group_latency_ns->p99 / 1e6);
    table << "  latency per frame " << frame << "; per group " << group << '\n';
    if (l.relay_allocations_per_frame)
      table << "  in-process relay: " << *l.relay_allocations_per_frame
            << " allocations per delivered frame (instructions: need the perf counter)\n";
    if (writer) {
      if (results::Status st = writer->add(*r); !st) {
        ctx.io->err << "moqbench load: " << st.error().message << '\n';
        return kExitFailed;
      }
      if (results::Status st = writer->finish(); !st) {
        ctx.io->err << "moqbench load: " << st.error().message << '\n';
        return kExitFailed;
      }
      ctx.io->err << "moqbench load: results written to " << *out << '\n';
    }
    if (r->flags.failed) {
      ctx.io->err << "moqbench load: FAILED: " << *r->flags.reason << '\n';
      // Something arrived but too little: a measured loss, told apart from a run that broke.
      return l.frames_delivered > 0 ? kExitLoadLoss : kExitFailed;
    }
    return kExitOk;
  };
}

}  // namespace moq::cli
