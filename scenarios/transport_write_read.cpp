// transport_write_read: the in-memory transport alone (sim/memory), no session. Each round writes
// `writes` chunks of `chunk_size` bytes, one at a time, on one open uni stream, reading each back
// before the next is written: the transport's steady-state data path (SendStream::write of a
// BufChain holding one chunk, RecvStream::read of it). Chunks pass by reference, so the cost must
// not depend on chunk_size.
//
// path=loopback does the same round without the transport: each chunk is pushed into the
// BufChain and taken straight back out of it, and recorded as delivered. What a round costs
// beyond that is the transport's own write and read, so the transport's budget
// (tests/gate/budgets_test.cpp) is (path=transport - path=loopback) / writes <= 200 instructions,
// with no allocation, as it was when a hand-written driver counted only SendHalf::write and
// RecvHalf::read under callgrind.
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/payloads.h"
#include "harness/runner/registrar.h"
#include "harness/runner/stack_probe.h"
#include "scenarios/bench_util.h"
#include "sim/memory/transport_ops.h"

namespace moq::scenarios {

namespace {

class TransportWriteRead final : public harness::Case {
 public:
  TransportWriteRead(uint64_t chunk_size, uint64_t writes, bool loopback)
      : chunk_size_(chunk_size), writes_(writes), loopback_(loopback), bench_(0) {}

  Status setup() override {
    if (!bench_.pair.client) return Error{0, "make_pair failed"};
    Result<SendStreamPtr> send = bench_.pair.client->open_uni();
    if (!send) return Error{0, "open_uni: " + send.error().message};
    send_ = std::move(*send);
    Result<RecvStreamPtr> recv = bench_.pair.server->accept_uni();
    if (!recv || !*recv) return Error{0, "accept_uni: no stream"};
    recv_ = std::move(*recv);
    // Every chunk of kDistinctRounds rounds sliced once here, so a round takes no slice of its
    // own: what it pays for is the transport.
    const harness::PayloadSource source(chunk_size_, kDistinctRounds * writes_);
    for (uint64_t i = 0; i < kDistinctRounds * writes_; ++i)
      chunks_.push_back(source.payload(i));
    log_.reserve(writes_);
    probe_.set_executor(&bench_.ex);
    probe_.watch(*bench_.pair.client);
    probe_.watch(*bench_.pair.server);
    return settle(bench_.ex, "setup");
  }

  void prepare_round(uint64_t /*round*/) override { log_.clear(); }

  Status run_round(uint64_t round) override {
    const Bytes* chunk = chunks_.data() + first_chunk(round);
    if (loopback_) {
      for (uint64_t i = 0; i < writes_; ++i) {
        chain_.push(chunk[i]);
        read_ = chain_.take_front(chain_.size());
        log_.record(read_);
      }
      return settle(bench_.ex, "transport_write_read round");
    }
    for (uint64_t i = 0; i < writes_; ++i) {
      if (sim::memory::ops::write_read_chunk(*send_, *recv_, chain_, chunk[i], read_) == 0)
        return Error{0,
                     "chunk " + std::to_string(i) + ": the write or the read did not go through"};
      log_.record(read_);
    }
    return settle(bench_.ex, "transport_write_read round");
  }

  harness::RoundCheck check_round(uint64_t round) override {
    harness::DeliveryHasher expected;
    for (uint64_t i = 0; i < writes_; ++i)
      expected.add_frame(chunks_[first_chunk(round) + i]);
    return {log_.delivery(), expected.result(), {}};
  }

  harness::StackCounts stack_counts() const override { return probe_.read(); }

 private:
  static constexpr uint64_t kDistinctRounds = 3;
  uint64_t first_chunk(uint64_t round) const { return (round % kDistinctRounds) * writes_; }

  const uint64_t chunk_size_, writes_;
  const bool loopback_;
  sim::memory::ops::Bench bench_;  // executor and pair; destroyed after the streams below
  std::vector<Bytes> chunks_;
  harness::DeliveryLog log_;
  harness::StackProbe probe_;
  SendStreamPtr send_;
  RecvStreamPtr recv_;
  BufChain chain_;
  Bytes read_;
};

harness::ScenarioDef transport_write_read_scenario() {
  harness::ScenarioDef def;
  def.name = "transport_write_read";
  def.summary =
      "the in-memory transport alone: each round writes `writes` chunks of `chunk_size` bytes on "
      "one open stream, reading each back before writing the next";
  def.axes = {
      // At most the stream window of ops::Bench (1 MiB), so that no write is cut short.
      harness::AxisSpec::integer("chunk_size", "bytes per chunk", 64, 1, 1 << 20, {64, 16384}),
      harness::AxisSpec::integer("writes", "chunks written and read per round", 100, 1, 100000),
      harness::AxisSpec::choice("path", "through the transport, or the same round without it",
                                {"transport", "loopback"}, {"transport", "loopback"}),
  };
  def.make = [](const harness::CaseSpec& spec) -> Result<std::unique_ptr<harness::Case>> {
    return std::unique_ptr<harness::Case>(new TransportWriteRead(
        static_cast<uint64_t>(spec.integer("chunk_size")),
        static_cast<uint64_t>(spec.integer("writes")), spec.text("path") == "loopback"));
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(transport_write_read_scenario);

}  // namespace moq::scenarios
