// `moqbench load`: a live load against a relay over real QUIC (load.h), its result written as a
// results file with one case.
#include "harness/cli/commands.h"
#include "harness/cli/load.h"
#include "harness/runner/meta.h"
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
                "--connect: accept any certificate");
  sub->add_option("--version", *version, "protocol version")->capture_default_str();
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
    std::optional<session::Version> v = session::parse_version(*version);
    if (!v || !session::is_implemented(*v))
      return bad_input(ctx, "load", "--version '" + *version + "' has no session engine");
    config->version = *v;
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
      return kExitFailed;
    }
    const results::LoadSummary& l = *r->load;
    char line[400];
    std::snprintf(line, sizeof line,
                  "%s\n  delivered %llu of %llu frames (lost %llu), %llu bytes in %u s: %.0f "
                  "frames/s, %.2f MB/s\n  latency per frame p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, "
                  "max %.2f ms; per group p50 %.2f ms, p99 %.2f ms\n",
                  r->id.c_str(), static_cast<unsigned long long>(l.frames_delivered),
                  static_cast<unsigned long long>(l.frames_expected),
                  static_cast<unsigned long long>(l.frames_lost),
                  static_cast<unsigned long long>(l.bytes_delivered), config->duration_s,
                  static_cast<double>(l.frames_delivered) / config->duration_s,
                  static_cast<double>(l.bytes_delivered) / config->duration_s / 1e6,
                  l.frame_latency_ns.p50 / 1e6, l.frame_latency_ns.p90 / 1e6,
                  l.frame_latency_ns.p99 / 1e6, l.frame_latency_ns.max / 1e6,
                  l.group_latency_ns.p50 / 1e6, l.group_latency_ns.p99 / 1e6);
    ctx.io->out << line;
    if (l.relay_allocations_per_frame)
      ctx.io->out << "  in-process relay: " << *l.relay_allocations_per_frame
                  << " allocations per delivered frame (instructions: need the perf counter)\n";
    if (writer) {
      if (results::Status st = writer->add(*r); !st) {
        ctx.io->err << "moqbench load: " << st.error().message << '\n';
        return kExitFailed;
      }
      ctx.io->err << "moqbench load: results written to " << *out << '\n';
    }
    if (r->flags.failed) {
      ctx.io->err << "moqbench load: FAILED: " << *r->flags.reason << '\n';
      return kExitFailed;
    }
    return kExitOk;
  };
}

}  // namespace moq::cli
