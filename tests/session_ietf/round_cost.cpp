// The cost of one steady-state round, for callgrind, on any implemented version (so moq-transport
// is measured against moq-lite with the same program). One publisher session and one viewer
// session over sim/memory, 64-byte frames:
//   fetch:     the publisher writes one group of F frames, the viewer FETCHes it and reads every
//              frame (the benchmark case model/fetch_frames/<version>/publishers=1/viewers=1/
//              frames=F);
//   subscribe: the publisher writes one group of F frames to a live subscription, the viewer
//              reads every frame.
// After a warm-up it runs N rounds with callgrind collection on (off everywhere else), dumps one
// profile labelled "<mode> <version> frames=<F> rounds=<N>", and prints the allocations per
// round (harness/counters):
//
//   valgrind --tool=callgrind --collect-atstart=no -q --callgrind-out-file=cg.out
//       build/<dir>/tests/session_ietf/session_ietf_round_cost fetch moq-transport-22 256 50
//
// Output: "<label> allocs_per_round=<a>" (a: "n/a" when the counting layer is inactive). Exit
// status 1 when a round did not deliver the group intact.
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "harness/counters/alloc_counter.h"
#include "model/data/data.h"
#include "model/session/session.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"

namespace moq {
namespace {

struct World {
  explicit World(session::Version v) {
    sim::memory::PairConfig cfg;
    cfg.alpn = std::string(session::version_alpn(v));
    conns = std::move(sim::memory::make_pair(executor, cfg).value());
    broadcast = BroadcastProducer::create(clock);
    track = std::move(broadcast.create_track("video").value());
    (void)origin.publish(Path("bench/pub0"), broadcast.consume());
    session::SessionConfig pub;
    pub.publish = origin.consume();
    publisher = std::move(session::create_session(*conns.server, v, pub).value());
    viewer = std::move(session::create_session(*conns.client, v).value());
    uint8_t bytes[64];
    for (size_t i = 0; i < sizeof bytes; ++i)
      bytes[i] = static_cast<uint8_t>(i * 7 + 1);
    payload = Bytes::copy(std::span<const uint8_t>(bytes, sizeof bytes));
    executor.run_until_idle();
  }

  // Publishes one group; its sequence, or nothing on failure.
  std::optional<uint64_t> publish(size_t frames) {
    Result<GroupProducer> g = track.append_group();
    if (!g) return std::nullopt;
    for (size_t f = 0; f < frames; ++f)
      if (!g->write_frame(f, payload)) return std::nullopt;
    if (!g->finish()) return std::nullopt;
    return g->sequence();
  }

  template <class Reader>
  static bool read_all(Reader& r, size_t frames) {
    size_t got = 0;
    FrameView f;
    Next n;
    while ((n = r.next(f)) == Next::Ready)
      got += f.size == 64;
    return n == Next::End && got == frames;
  }

  bool fetch_round(size_t frames) {
    std::optional<uint64_t> seq = publish(frames);
    if (!seq) return false;
    Result<session::FetchConsumer> f = viewer->fetch(Path("bench/pub0"), "video", *seq);
    if (!f || executor.run_until_idle().budget_exhausted) return false;
    return read_all(*f, frames);
  }

  bool subscribe_round(size_t frames) {
    if (!sub) {
      sub = std::move(viewer->subscribe(Path("bench/pub0"), "video").value());
      executor.run_until_idle();
    }
    if (!publish(frames) || executor.run_until_idle().budget_exhausted) return false;
    GroupConsumer g;
    return sub.next(g) == Next::Ready && read_all(g, frames);
  }

  sim::VirtualClock clock;
  Executor executor{clock};
  OriginProducer origin = OriginProducer::create();
  sim::memory::ConnectionPair conns;
  BroadcastProducer broadcast;
  TrackProducer track;
  std::unique_ptr<session::Session> publisher;
  std::unique_ptr<session::Session> viewer;
  TrackConsumer sub;
  Bytes payload;
};

}  // namespace
}  // namespace moq

int main(int argc, char** argv) {
  using namespace moq;
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s fetch|subscribe <version> <frames> <rounds>\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  std::optional<session::Version> v = session::parse_version(argv[2]);
  const long frames = std::strtol(argv[3], nullptr, 10);
  const long rounds = std::strtol(argv[4], nullptr, 10);
  if ((mode != "fetch" && mode != "subscribe") || !v || !session::is_implemented(*v) ||
      frames <= 0 || rounds <= 0) {
    std::fprintf(stderr, "bad arguments: mode '%s', version '%s', frames '%s', rounds '%s'\n",
                 argv[1], argv[2], argv[3], argv[4]);
    return 2;
  }
  World w(*v);
  auto round = [&] {
    return mode == "fetch" ? w.fetch_round(static_cast<size_t>(frames))
                           : w.subscribe_round(static_cast<size_t>(frames));
  };
  bool ok = true;
  // Warm-up: past the publisher track's cache (16 groups), so that group storage recycles.
  for (int i = 0; i < 24; ++i)
    ok &= round();
  counters::AllocScope allocs;
  CALLGRIND_TOGGLE_COLLECT;
  for (long i = 0; i < rounds; ++i)
    ok &= round();
  CALLGRIND_TOGGLE_COLLECT;
  const uint64_t count = allocs.delta().allocs;
  const std::string label = mode + " " + argv[2] + " frames=" + std::to_string(frames) +
                            " rounds=" + std::to_string(rounds);
  CALLGRIND_DUMP_STATS_AT(label.c_str());
  if (counters::alloc_counting_active()) {
    std::printf("%s allocs_per_round=%.2f\n", label.c_str(),
                static_cast<double>(count) / static_cast<double>(rounds));
  } else {
    std::printf("%s allocs_per_round=n/a\n", label.c_str());
  }
  if (!ok) std::fprintf(stderr, "a round did not deliver the group intact\n");
  return ok ? 0 : 1;
}
