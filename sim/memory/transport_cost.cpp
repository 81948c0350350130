// Measures one transport budget: runs one steady-state operation N times after a warm-up and
// prints its heap allocations. Under callgrind it zeroes the counters after the warm-up and dumps
// them after the N iterations, so the dump holds exactly N iterations of whatever the callgrind
// options collect. tests/transport/transport_cost_test runs it this way:
//
//   write + read, the transport's own cost (SendStream::write and RecvStream::read inclusive):
//     valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=cg.out
//       --toggle-collect='moq::sim::memory::detail::SendHalf::write(*'
//       --toggle-collect='moq::sim::memory::detail::RecvHalf::read(*'
//       build/<dir>/sim/memory/transport_cost write_read_64 10000
//   write + read with the caller's part (pushing the chunk into the BufChain, checking results):
//       --toggle-collect='moq::sim::memory::ops::write_read_chunk(*'
//   a uni stream's life (open, accept, finish, FIN seen, both handles dropped):
//       --toggle-collect='moq::sim::memory::ops::uni_stream_life(*' ... uni_stream_life 10000
//
// The dump of the measured loop is cg.out.1; its "totals:" line divided by N is the figure.
// Output: "<op> iterations=<n> allocs=<count>" (allocs "n/a" when the counter is inactive).
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "harness/counters/alloc_counter.h"
#include "sim/memory/transport_ops.h"

namespace moq::sim::memory {
namespace {

constexpr int kWarmUp = 16;

template <class Op>
int measure(const char* name, long n, Op&& op) {
  for (int i = 0; i < kWarmUp; ++i)
    op();
  CALLGRIND_ZERO_STATS;
  counters::AllocScope allocs;
  bool ok = true;
  for (long i = 0; i < n; ++i)
    ok &= op();
  uint64_t count = allocs.delta().allocs;
  CALLGRIND_DUMP_STATS_AT(name);
  if (counters::alloc_counting_active()) {
    std::printf("%s iterations=%ld allocs=%llu\n", name, n, static_cast<unsigned long long>(count));
  } else {
    std::printf("%s iterations=%ld allocs=n/a\n", name, n);
  }
  if (!ok) {
    std::fprintf(stderr, "%s: an iteration did not go through\n", name);
    return 1;
  }
  return 0;
}

int write_read(const char* name, size_t size, long n) {
  ops::Bench b(size);
  if (!b.pair.client) return 1;
  SendStreamPtr s = std::move(b.pair.client->open_uni().value());
  RecvStreamPtr r = std::move(b.pair.server->accept_uni().value());
  BufChain chain;
  Bytes out;
  return measure(name, n,
                 [&] { return ops::write_read_chunk(*s, *r, chain, b.payload, out) != 0; });
}

int uni_stream(const char* name, long n) {
  ops::Bench b(0);
  if (!b.pair.client) return 1;
  return measure(name, n, [&] { return ops::uni_stream_life(*b.pair.client, *b.pair.server); });
}

}  // namespace
}  // namespace moq::sim::memory

int main(int argc, char** argv) {
  const char* usage = "usage: %s write_read_64|write_read_16k|uni_stream_life [iterations > 0]\n";
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, usage, argv[0]);
    return 2;
  }
  long n = 10000;
  if (argc == 3) {
    char* end = nullptr;
    n = std::strtol(argv[2], &end, 10);
    if (*end != '\0' || n <= 0) {
      std::fprintf(stderr, "iterations must be a positive integer; got '%s'\n", argv[2]);
      std::fprintf(stderr, usage, argv[0]);
      return 2;
    }
  }
  using namespace moq::sim::memory;
  const char* op = argv[1];
  if (std::strcmp(op, "write_read_64") == 0) return write_read(op, 64, n);
  if (std::strcmp(op, "write_read_16k") == 0) return write_read(op, 16 << 10, n);
  if (std::strcmp(op, "uni_stream_life") == 0) return uni_stream(op, n);
  std::fprintf(stderr, "unknown operation '%s'\n", op);
  std::fprintf(stderr, usage, argv[0]);
  return 2;
}
