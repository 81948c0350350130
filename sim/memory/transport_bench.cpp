// Google Benchmark of the in-memory transport's steady-state operations (tools/bench runs it
// with no arguments). Each benchmark also reports heap allocations per iteration, counted by
// harness/counters, which this binary links.
#include <benchmark/benchmark.h>

#include "harness/counters/alloc_counter.h"
#include "sim/memory/transport_ops.h"

namespace moq::sim::memory {
namespace {

void report_allocs(benchmark::State& state, const counters::AllocScope& scope) {
  if (!counters::alloc_counting_active()) return;
  state.counters["allocs_per_iter"] = benchmark::Counter(static_cast<double>(scope.delta().allocs),
                                                         benchmark::Counter::kAvgIterations);
}

// Write one chunk of state.range(0) bytes on an open stream and read it back.
void BM_WriteReadChunk(benchmark::State& state) {
  ops::Bench b(static_cast<size_t>(state.range(0)));
  if (!b.pair.client) {
    state.SkipWithError("make_pair failed");
    return;
  }
  SendStreamPtr s = std::move(b.pair.client->open_uni().value());
  RecvStreamPtr r = std::move(b.pair.server->accept_uni().value());
  BufChain chain;
  Bytes out;
  // Warm up: the queue and the gather list reach their steady capacity.
  for (int i = 0; i < 16; ++i)
    ops::write_read_chunk(*s, *r, chain, b.payload, out);
  counters::AllocScope allocs;
  for (auto _ : state) {
    if (ops::write_read_chunk(*s, *r, chain, b.payload, out) == 0) {
      state.SkipWithError("write/read did not go through");
      break;
    }
    benchmark::DoNotOptimize(out);
  }
  report_allocs(state, allocs);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_WriteReadChunk)->Arg(64)->Arg(16 << 10);

// Open a uni stream, accept it, finish it, read the FIN, drop both handles.
void BM_UniStreamOpenAcceptFinishFin(benchmark::State& state) {
  ops::Bench b(0);
  if (!b.pair.client) {
    state.SkipWithError("make_pair failed");
    return;
  }
  for (int i = 0; i < 16; ++i)
    ops::uni_stream_life(*b.pair.client, *b.pair.server);
  counters::AllocScope allocs;
  for (auto _ : state) {
    if (!ops::uni_stream_life(*b.pair.client, *b.pair.server)) {
      state.SkipWithError("stream life did not go through");
      break;
    }
  }
  report_allocs(state, allocs);
}
BENCHMARK(BM_UniStreamOpenAcceptFinishFin);

}  // namespace
}  // namespace moq::sim::memory

BENCHMARK_MAIN();
