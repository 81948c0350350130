// The fetch round's cost, for callgrind: one publisher session and one viewer session over
// sim/memory, 64-byte frames; a round = the publisher writes one group of F frames and the viewer
// FETCHes it and reads every frame (mode "fetch", the default), or receives it through a live
// subscription (mode "subscribe"). After a warm-up it runs N rounds with callgrind collection on
// (off everywhere else), dumps one profile labelled "<mode> <version> frames=<F> rounds=<N>", and
// prints the allocations per round (harness/counters).
//
//   valgrind --tool=callgrind --collect-atstart=no -q --callgrind-out-file=cg.out
//       build/<dir>/tests/session_lite/session_lite_fetch_cost moq-lite-06 256 100 [subscribe]
//
// Output: "<mode> <version> frames=<F> rounds=<N> allocs_per_round=<a>" (a: "n/a" when the
// counting layer is not active). Exit status 1 when a round did not deliver the group intact.
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
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
    session::SessionConfig pub;
    pub.publish = origin.consume();
    publisher = std::move(session::create_session(*conns.server, v, pub).value());
    viewer = std::move(session::create_session(*conns.client, v).value());
    broadcast = BroadcastProducer::create(clock);
    track = std::move(broadcast.create_track("video").value());
    (void)origin.publish(Path("bench/pub0"), broadcast.consume());
    uint8_t bytes[64];
    for (size_t i = 0; i < sizeof bytes; ++i)
      bytes[i] = static_cast<uint8_t>(i * 7 + 1);
    payload = Bytes::copy(std::span<const uint8_t>(bytes, sizeof bytes));
    executor.run_until_idle();
  }

  bool round(size_t frames) { return subscribed ? subscribed_round(frames) : fetch_round(frames); }

  bool subscribed_round(size_t frames) {
    if (!subscription) {
      Result<TrackConsumer> t = viewer->subscribe(Path("bench/pub0"), "video");
      if (!t) return false;
      subscription = std::move(*t);
      executor.run_until_idle();
    }
    Result<GroupProducer> made = track.append_group();
    if (!made) return false;
    const uint64_t seq = made->sequence();
    for (size_t f = 0; f < frames; ++f) {
      if (!made->write_frame(seq * 1000 + f, payload)) return false;
    }
    if (!made->finish()) return false;
    if (executor.run_until_idle(10'000'000).budget_exhausted) return false;
    GroupConsumer group;
    if (subscription.next(group) != Next::Ready || group.sequence() != seq) return false;
    size_t got = 0;
    uint64_t sum = 0;
    FrameView frame;
    Next n;
    while ((n = group.next(frame)) == Next::Ready) {
      sum += frame.size;
      ++got;
    }
    return n == Next::End && got == frames && sum == frames * payload.size();
  }

  bool fetch_round(size_t frames) {
    Result<GroupProducer> made = track.append_group();
    if (!made) return false;
    const uint64_t seq = made->sequence();
    for (size_t f = 0; f < frames; ++f) {
      if (!made->write_frame(seq * 1000 + f, payload)) return false;
    }
    if (!made->finish()) return false;
    Result<session::FetchConsumer> fetched = viewer->fetch(Path("bench/pub0"), "video", seq);
    if (!fetched) return false;
    if (executor.run_until_idle(10'000'000).budget_exhausted) return false;
    size_t got = 0;
    uint64_t sum = 0;
    FrameView frame;
    Next n;
    while ((n = fetched->next(frame)) == Next::Ready) {
      sum += frame.size;
      ++got;
    }
    return n == Next::End && got == frames && sum == frames * payload.size();
  }

  sim::VirtualClock clock;
  Executor executor{clock};
  OriginProducer origin = OriginProducer::create();
  sim::memory::ConnectionPair conns;
  std::unique_ptr<session::Session> publisher;
  std::unique_ptr<session::Session> viewer;
  BroadcastProducer broadcast;
  TrackProducer track;
  Bytes payload;
  bool subscribed = false;
  TrackConsumer subscription;
};

}  // namespace
}  // namespace moq

int main(int argc, char** argv) {
  using namespace moq;
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s <version> <frames> <rounds> [fetch|subscribe]\n", argv[0]);
    return 2;
  }
  const std::string mode = argc == 5 ? argv[4] : "fetch";
  if (mode != "fetch" && mode != "subscribe") {
    std::fprintf(stderr, "unknown mode '%s': fetch or subscribe\n", mode.c_str());
    return 2;
  }
  std::optional<session::Version> v = session::parse_version(argv[1]);
  const long frames = std::strtol(argv[2], nullptr, 10);
  const long rounds = std::strtol(argv[3], nullptr, 10);
  if (!v || !session::is_implemented(*v) || frames <= 0 || rounds <= 0) {
    std::fprintf(stderr, "bad arguments: version '%s', frames '%s', rounds '%s'\n", argv[1],
                 argv[2], argv[3]);
    return 2;
  }
  World w(*v);
  w.subscribed = mode == "subscribe";
  bool ok = true;
  // Warm-up: fills the publisher track's cache (16 groups) so that its groups recycle.
  for (int i = 0; i < 20; ++i)
    ok &= w.round(static_cast<size_t>(frames));
  counters::AllocScope allocs;
  CALLGRIND_TOGGLE_COLLECT;
  for (long i = 0; i < rounds; ++i)
    ok &= w.round(static_cast<size_t>(frames));
  CALLGRIND_TOGGLE_COLLECT;
  const uint64_t count = allocs.delta().allocs;
  const std::string label = mode + " " + std::string(argv[1]) +
                            " frames=" + std::to_string(frames) +
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
