// Every generated block of figures in the READMEs, in one place: which README, which results
// files, which rows and columns. The results files are the gate's baseline and the extra sweeps
// of tests/gate/figures-*-args (figure_source_path); tools/update-baseline measures them all and
// then runs `moqbench figures`. Rows follow the versions a results file holds, so a new version
// appears in every table once the baseline measures it.
#include <algorithm>
#include <string>
#include <vector>

#include "reports/figures.h"

namespace moq::reports {
namespace {

using results::Metric;

// The versions of a bench's scenario in a results file, in the file's order.
std::vector<std::string> versions_of(FigureData& data, std::string_view source,
                                     std::string_view bench, std::string_view scenario) {
  std::vector<std::string> versions;
  for (const results::CaseResult& c : data.file(source).cases)
    if (c.bench == bench && c.scenario == scenario &&
        std::find(versions.begin(), versions.end(), c.version) == versions.end())
      versions.push_back(c.version);
  if (versions.empty())
    data.missing("a " + std::string(bench) + "/" + std::string(scenario) + " case in " +
                 figure_source_path(source));
  return versions;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string n(uint64_t value) {
  return format_count(value);
}

double ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0.0 : double(a) / double(b);
}

// A session scenario's case with one publisher, on the model bench or the relay bench.
std::string model_case(std::string_view scenario, std::string_view version, int viewers,
                       std::string_view last) {
  return "model/" + std::string(scenario) + "/" + std::string(version) +
         "/publishers=1/viewers=" + std::to_string(viewers) + "/" + std::string(last);
}
std::string relay_case(std::string_view scenario, std::string_view version, int relays, int viewers,
                       std::string_view last) {
  return "relay/" + std::string(scenario) + "/" + std::string(version) +
         "/relays=" + std::to_string(relays) + "/publishers=1/viewers=" + std::to_string(viewers) +
         "/" + std::string(last);
}

constexpr int kViewers[] = {1, 16};
// One-letter column alignments, so that each table's row of them reads at a glance.
constexpr Align R = Align::kRight;  // NOLINT(readability-identifier-naming)
constexpr Align L = Align::kLeft;   // NOLINT(readability-identifier-naming)

// README.md, "The relay bench": the model round against one and two relays.
Table relay_table(FigureData& d) {
  Table t{{"version", "viewers", "model", "relays=1", "× model", "relays=2", "× model"},
          {L, R, R, R, R, R, R},
          {}};
  for (const std::string& v : versions_of(d, "baseline", "model", "fetch_frames"))
    for (int viewers : kViewers) {
      const uint64_t model =
          d.instructions("baseline", model_case("fetch_frames", v, viewers, "frames=256"));
      const uint64_t r1 =
          d.instructions("baseline", relay_case("fetch_frames", v, 1, viewers, "frames=256"));
      const uint64_t r2 =
          d.instructions("baseline", relay_case("fetch_frames", v, 2, viewers, "frames=256"));
      t.rows.push_back({v, std::to_string(viewers), n(model), n(r1), format_ratio(ratio(r1, model)),
                        n(r2), format_ratio(ratio(r2, model))});
    }
  return t;
}

// README.md, "Over real QUIC": the memory round against the quic-sim round.
Table quic_table(FigureData& d) {
  Table t{{"version", "viewers", "memory", "quic-sim", "×", "per frame delivered", "allocations",
           "packets", "UDP bytes"},
          {L, R, R, R, R, R, R, R, R},
          {}};
  for (const std::string& v : versions_of(d, "quic", "model", "fetch_frames"))
    for (int viewers : kViewers) {
      const std::string memory = model_case("fetch_frames", v, viewers, "frames=256");
      const std::string quic = memory + "/transport=quic-sim";
      const uint64_t a = d.instructions("quic", memory);
      const uint64_t b = d.instructions("quic", quic);
      t.rows.push_back(
          {v, std::to_string(viewers), n(a), n(b), format_ratio(ratio(b, a)),
           format_per(a, d.frames_per_round("quic", memory)) + " → " +
               format_per(b, d.frames_per_round("quic", quic)),
           n(d.allocations_max("quic", memory)) + " → " + n(d.allocations_max("quic", quic)),
           n(d.metric_median("quic", quic, Metric::kPackets)),
           n(d.metric_median("quic", quic, Metric::kUdpBytes))});
    }
  return t;
}

std::string ms(uint64_t ns) {
  return format_ratio(double(ns) / 1e6);
}

// README.md, "Over real QUIC": a live load through the in-process relay.
Table load_table(FigureData& d) {
  Table t{{"version", "publishers", "viewers", "frame bytes", "frames/s", "seconds",
           "frames expected", "delivered", "lost", "frame latency p50 / p99 / max (ms)",
           "group latency p50 / p99 (ms)", "relay allocations per frame"},
          {L, R, R, R, R, R, R, R, R, R, R, R},
          {}};
  for (const results::CaseResult& c : d.file("load").cases) {
    if (!c.load) continue;
    const results::LoadSummary& l = *c.load;
    auto axis = [&](std::string_view name) { return n(uint64_t(d.param("load", c.id, name))); };
    std::string frame = "n/a", group = "n/a", allocs = "n/a";
    if (l.frame_latency_ns)
      frame = ms(l.frame_latency_ns->p50) + " / " + ms(l.frame_latency_ns->p99) + " / " +
              ms(l.frame_latency_ns->max);
    if (l.group_latency_ns)
      group = ms(l.group_latency_ns->p50) + " / " + ms(l.group_latency_ns->p99);
    if (l.relay_allocations_per_frame) allocs = format_ratio(*l.relay_allocations_per_frame);
    t.rows.push_back({c.version, axis("publishers"), axis("viewers"), axis("frame_size"),
                      axis("fps"), axis("duration_s"), n(l.frames_expected), n(l.frames_delivered),
                      n(l.frames_lost), frame, group, allocs});
  }
  if (t.rows.empty()) d.missing("a case with a load summary in " + figure_source_path("load"));
  return t;
}

// model/session/README.md: each delivered frame's instructions by role.
Table roles_table(FigureData& d) {
  Table t{{"scenario", "version", "frames", "publisher", "transport", "viewer", "harness", "total"},
          {L, L, R, R, R, R, R, R},
          {}};
  for (const results::CaseResult& c : d.file("roles").cases) {
    const uint64_t frames = d.frames_per_round("roles", c.id);
    auto role = [&](std::string_view r) {
      return format_per(d.role_instructions("roles", c.id, r), frames);
    };
    t.rows.push_back({c.scenario, c.version, n(uint64_t(d.param("roles", c.id, "frames"))),
                      role("publisher"), role("transport"), role("viewer"), role("harness"),
                      format_per(d.instructions("roles", c.id), frames)});
  }
  return t;
}

// model/session/README.md: what one request costs besides its frames, each measured by difference
// between two cases (tests/gate/figures-fixed-args). A FETCH: the second viewer of fetch_frames
// adds one FETCH and its frames, D(F) = viewers=2 − viewers=1, linear in F, so 2·D(4) − D(8) is the
// FETCH with no frame. A subscription: a churn round (one subscription opened and cancelled, with
// both settled) minus the empty round (the harness alone).
Table fixed_costs_table(FigureData& d) {
  Table t{{"version", "one FETCH", "one subscription, opened and cancelled",
           "allocations per subscription"},
          {L, R, R, R},
          {}};
  const uint64_t empty = d.instructions("fixed", "model/empty_round/none");
  for (const std::string& v : versions_of(d, "fixed", "model", "fetch_frames")) {
    auto fetches = [&](int viewers, std::string_view frames) {
      return int64_t(d.instructions("fixed", model_case("fetch_frames", v, viewers, frames)));
    };
    const int64_t d4 = fetches(2, "frames=4") - fetches(1, "frames=4");
    const int64_t d8 = fetches(2, "frames=8") - fetches(1, "frames=8");
    const std::string churn = "model/churn/" + v + "/sessions=1/held=1";
    const uint64_t sub = d.instructions("fixed", churn);
    t.rows.push_back({v, n(uint64_t(std::max<int64_t>(0, 2 * d4 - d8))),
                      n(sub - std::min(sub, empty)), n(d.allocations_max("fixed", churn))});
  }
  return t;
}

// model/session/lite/README.md: the moq-lite rounds of the baseline.
Table lite_table(FigureData& d) {
  Table t{{"version", "scenario", "F=4", "F=256", "allocations (max over the rounds)"},
          {L, L, R, R, R},
          {}};
  for (std::string_view scenario : {"fetch_frames", "subscribe_frames"})
    for (const std::string& v : versions_of(d, "baseline", "model", scenario)) {
      if (!starts_with(v, "moq-lite")) continue;
      const std::string f4 = model_case(scenario, v, 1, "frames=4");
      const std::string f256 = model_case(scenario, v, 1, "frames=256");
      t.rows.push_back(
          {v, std::string(scenario), n(d.instructions("baseline", f4)),
           n(d.instructions("baseline", f256)),
           n(std::max(d.allocations_max("baseline", f4), d.allocations_max("baseline", f256)))});
    }
  return t;
}

// model/session/ietf/README.md: the moq-transport rounds of the baseline, moq-lite-06 beside.
Table ietf_table(FigureData& d) {
  Table t{{"version", "fetch_frames F=4", "F=256", "subscribe_frames F=4", "F=256",
           "fetch_range burst=4", "allocations (max)"},
          {L, R, R, R, R, R, R},
          {}};
  std::vector<std::string> versions;
  for (const std::string& v : versions_of(d, "baseline", "model", "fetch_frames"))
    if (starts_with(v, "moq-transport")) versions.push_back(v);
  versions.push_back("moq-lite-06");
  for (const std::string& v : versions) {
    const std::vector<std::string> ids = {model_case("fetch_frames", v, 1, "frames=4"),
                                          model_case("fetch_frames", v, 1, "frames=256"),
                                          model_case("subscribe_frames", v, 1, "frames=4"),
                                          model_case("subscribe_frames", v, 1, "frames=256"),
                                          model_case("fetch_range", v, 1, "burst=4")};
    std::vector<std::string> row = {starts_with(v, "moq-lite") ? v + ", for comparison" : v};
    uint64_t allocations = 0;
    for (const std::string& id : ids) {
      row.push_back(n(d.instructions("baseline", id)));
      allocations = std::max(allocations, d.allocations_max("baseline", id));
    }
    row.push_back(n(allocations));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// harness/README.md, "Figures": the harness's own cost and a frame's, end to end.
Table harness_table(FigureData& d) {
  Table t{{"what", "case", "instructions per round", "per delivered frame", "allocations (max)"},
          {L, L, R, R, R},
          {}};
  const std::string empty = "model/empty_round/none";
  t.rows.push_back({"harness overhead", empty, n(d.instructions("baseline", empty)), "",
                    n(d.allocations_max("baseline", empty))});
  for (const std::string& v : versions_of(d, "baseline", "model", "fetch_frames")) {
    const std::string id = model_case("fetch_frames", v, 1, "frames=256");
    const uint64_t round = d.instructions("baseline", id);
    t.rows.push_back({"a frame end to end, " + v, id, n(round),
                      format_per(round, d.frames_per_round("baseline", id)),
                      n(d.allocations_max("baseline", id))});
  }
  for (const results::CaseResult& c : d.file("data").cases) {
    const uint64_t round = d.instructions("data", c.id);
    t.rows.push_back({"the data model alone (write, read, record)", c.id, n(round),
                      format_per(round, uint64_t(d.param("data", c.id, "frames"))),
                      n(d.allocations_max("data", c.id))});
  }
  return t;
}

// harness/README.md, "Budgets": what the baseline measures against each budget.
Table budgets_table(FigureData& d) {
  Table t{{"budget", "measured on the baseline"}, {L, L}, {}};
  const results::ResultsFile& file = d.file("baseline");
  std::vector<std::string> chunks;
  for (const results::CaseResult& c : file.cases)
    if (c.scenario == "transport_write_read" && c.id.find("/path=transport") != std::string::npos)
      chunks.push_back(c.id);
  for (const std::string& id : chunks) {
    const std::string loopback = id.substr(0, id.rfind("/path=")) + "/path=loopback";
    const uint64_t writes = uint64_t(d.param("baseline", id, "writes"));
    const uint64_t own =
        d.instructions("baseline", id) -
        std::min(d.instructions("baseline", id), d.instructions("baseline", loopback));
    t.rows.push_back({"the transport's write + read of one " +
                          n(uint64_t(d.param("baseline", id, "chunk_size"))) + "-byte chunk",
                      format_per(own, writes) + " instructions per write; " +
                          n(d.allocations_max("baseline", id)) + " allocations in a round"});
  }
  const std::string life = "model/transport_stream_life/none/streams=100";
  const std::string empty = "model/empty_round/none";
  const uint64_t streams = uint64_t(d.param("baseline", life, "streams"));
  t.rows.push_back(
      {"a uni stream's life",
       format_per(d.instructions("baseline", life) -
                      std::min(d.instructions("baseline", life), d.instructions("baseline", empty)),
                  streams) +
           " instructions, " + format_per(d.allocations_max("baseline", life), streams) +
           " allocations per stream"});

  uint64_t lite_max = 0;
  std::string lite_case;
  double ietf_ratio = 0;
  uint64_t session_allocations = 0;
  const uint64_t lite06 =
      d.instructions("baseline", model_case("fetch_frames", "moq-lite-06", 1, "frames=256"));
  for (std::string_view scenario : {"fetch_frames", "subscribe_frames"})
    for (const std::string& v : versions_of(d, "baseline", "model", scenario))
      for (std::string_view frames : {"frames=4", "frames=256"}) {
        const std::string id = model_case(scenario, v, 1, frames);
        const uint64_t round = d.instructions("baseline", id);
        session_allocations = std::max(session_allocations, d.allocations_max("baseline", id));
        if (frames != "frames=256") continue;
        if (starts_with(v, "moq-lite") && round > lite_max) {
          lite_max = round;
          lite_case = std::string(scenario) + " on " + v;
        }
        if (starts_with(v, "moq-transport") && scenario == "fetch_frames")
          ietf_ratio = std::max(ietf_ratio, ratio(round, lite06));
      }
  t.rows.push_back({"a 256-frame round on moq-lite (the dearest)",
                    n(lite_max) + " instructions (" + lite_case + ")"});
  t.rows.push_back({"moq-transport's 256-frame fetch round against moq-lite-06's (the dearest)",
                    format_ratio(ietf_ratio) + "×"});
  t.rows.push_back(
      {"allocations in a 4- or 256-frame session round (the most)", n(session_allocations)});

  for (int viewers : kViewers) {
    double low = 1e300, high = 0;
    for (const std::string& v : versions_of(d, "baseline", "model", "fetch_frames")) {
      const double r =
          ratio(d.instructions("baseline", relay_case("fetch_frames", v, 1, viewers, "frames=256")),
                d.instructions("baseline", model_case("fetch_frames", v, viewers, "frames=256")));
      low = std::min(low, r);
      high = std::max(high, r);
    }
    t.rows.push_back({"relay/fetch_frames at relays=1, " + std::to_string(viewers) + " viewer" +
                          (viewers == 1 ? "" : "s") + ", against the model case",
                      format_ratio_range(low, high) + "× (every version)"});
  }
  uint64_t relay_allocations = 0;
  for (const results::CaseResult& c : file.cases)
    if (c.bench == "relay")
      relay_allocations = std::max(relay_allocations, d.allocations_max("baseline", c.id));
  t.rows.push_back(
      {"allocations in a relay round (the most, every relay case)", n(relay_allocations)});
  return t;
}

}  // namespace

const std::vector<FigureBlock>& figure_blocks() {
  static const std::vector<FigureBlock> blocks = {
      {"README.md", "relay", {"baseline"}, relay_table},
      {"README.md", "quic", {"quic"}, quic_table},
      {"README.md", "load", {"load"}, load_table},
      {"model/session/README.md", "roles", {"roles"}, roles_table},
      {"model/session/README.md", "fixed", {"fixed"}, fixed_costs_table},
      {"model/session/lite/README.md", "lite", {"baseline"}, lite_table},
      {"model/session/ietf/README.md", "ietf", {"baseline"}, ietf_table},
      {"harness/README.md", "harness", {"baseline", "data"}, harness_table},
      {"harness/README.md", "budgets", {"baseline"}, budgets_table},
  };
  return blocks;
}

}  // namespace moq::reports
