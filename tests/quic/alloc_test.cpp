// Heap allocations of steady streaming over QUIC (quic-sim links), counted by harness/counters:
// the adapter allocates nothing once its pools are warm (stream objects, receive blocks, the
// links' packet buffers); what a round allocates is ngtcp2's own (counted through its
// ngtcp2_mem, WireStats::library_allocations).
#include <gtest/gtest.h>

#include "harness/counters/alloc_counter.h"
#include "tests/quic/quic_fixture.h"

namespace moq::sim::quic::testing {
namespace {

class QuicAllocs : public QuicTest {
 protected:
  void SetUp() override {
    if (!counters::alloc_counting_active()) GTEST_SKIP() << "allocation counting is inactive";
  }
  // One round: a group's worth of small frames on a new uni stream, read to its end.
  void round(const Bytes& header, const Bytes& payload) {
    SendStreamPtr s = ok(client_->open_uni());
    ASSERT_TRUE(s);
    chain.clear();  // keeps its storage: the test itself allocates nothing per round
    for (int f = 0; f < 64; ++f) {
      chain.push(header);
      chain.push(payload);
    }
    ASSERT_EQ(*s->write(chain), 64 * (header.size() + payload.size()));
    ASSERT_TRUE(s->finish().ok());
    RecvStreamPtr r;
    size_t got = 0;
    run([&] {
      if (!r) r = ok(server_->accept_uni());
      if (!r) return false;
      for (;;) {
        Bytes chunk;
        ReadResult res = r->read(chunk);
        if (res.status == ReadStatus::Data) {
          got += chunk.size();
          continue;
        }
        return res.status == ReadStatus::Fin;
      }
    });
    EXPECT_EQ(got, 64 * (header.size() + payload.size()));
  }
  BufChain chain;
};

TEST_F(QuicAllocs, SteadyStreamingAllocatesOnlyInsideNgtcp2) {
  build();
  connect();
  const Bytes header = pattern(3, 1), payload = pattern(64, 2);
  // Warm-up in the measured pattern (rounds, then a pause in which acknowledgements and stream
  // closes settle), twice: the first pause grows a pool once.
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 100; ++i)
      round(header, payload);
    run_for(100'000'000);
  }
  const uint64_t library_before =
      client_->wire_stats()->library_allocations + server_->wire_stats()->library_allocations;
  counters::AllocScope scope;
  constexpr int kRounds = 200;
  for (int i = 0; i < kRounds; ++i)
    round(header, payload);
  run_for(100'000'000);
  const counters::AllocSnapshot d = scope.delta();
  const uint64_t library = client_->wire_stats()->library_allocations +
                           server_->wire_stats()->library_allocations - library_before;
  // Sanitized builds count operator new only (ASan owns malloc), which ngtcp2 does not use.
  const bool counts_malloc =
      counters::alloc_counting_coverage() == counters::AllocCoverage::NewDeleteAndMalloc;
  EXPECT_EQ(d.allocs, counts_malloc ? library : 0u)
      << d.allocs << " allocations over " << kRounds << " rounds, " << library << " by ngtcp2";
  std::printf(
      "[ figures  ] per round of 64 frames on a new stream: %.1f allocations, all ngtcp2's\n",
      static_cast<double>(library) / kRounds);
}

}  // namespace
}  // namespace moq::sim::quic::testing
