// How many reference-count operations one delivered frame costs the stack, counted by the debug
// build's probe (model/base/ref_count_probe.h) over the measured rounds of real cases: every role
// counts (the publisher's and the viewer's application code too), except the harness's delivery
// log, which keeps a reference to each frame it checks. The publisher's group keeps the
// reference it was written with; each viewer costs one reference taken when the frame enters its
// send path and one release when its copy of the group goes; header bytes are counted per arena
// block, not per frame.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/counters/instruction_counter.h"
#include "harness/runner/case_builder.h"
#include "harness/runner/registrar.h"
#include "harness/runner/runner.h"
#include "model/async/role.h"
#include "model/base/bytes.h"
#include "model/base/ref_count_probe.h"

namespace moq::harness {
namespace {

// Reads the probe's counts as a counter reading: the operations of every bucket but the
// excluded one over a measured round.
class RefOpsCounter : public counters::InstructionCounter {
 public:
  Status start() override {
    at_start_ = ref_count_probe::counts;
    return {};
  }
  Result<counters::InstrReading> stop() override {
    counters::InstrReading r;
    r.backend = backend();
    for (size_t b = 0; b < ref_count_probe::kBuckets; ++b) {
      const uint64_t n = ref_count_probe::counts[b] - at_start_[b];
      by_bucket_[b] += n;
      if (b != ref_count_probe::kExcluded) r.instructions += n;
    }
    return r;
  }
  counters::CounterBackend backend() const override { return counters::CounterBackend::kNone; }
  const std::string& event() const override { return event_; }

  // The operations of one bucket summed over every measured round.
  uint64_t total(size_t bucket) const { return by_bucket_[bucket]; }

 private:
  std::array<uint64_t, ref_count_probe::kBuckets> at_start_{};
  std::array<uint64_t, ref_count_probe::kBuckets> by_bucket_{};
  std::string event_ = "reference-count operations";
};

// Reference-count operations per delivered frame over a case's measured rounds.
struct PerFrame {
  double stack = 0;  // the sessions and the transport (every role but the harness)
  double all = 0;    // and the application around them (the harness role), which writes each
                     // frame once and releases it from the publisher's cache once
};

class RefCounts : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(register_linked_scenarios(registry_)); }

  // Prints the breakdown by role for the reader of a failure.
  PerFrame per_frame(const std::string& id) {
    Result<CaseSpec> spec = parse_case_id(registry_, id);
    EXPECT_TRUE(spec) << spec.error().message;
    if (!spec) return {};
    constexpr uint32_t kRounds = 2;
    RefOpsCounter counter;
    const results::CaseResult c = run_case(*spec, RunOptions{3, kRounds}, &counter);
    EXPECT_FALSE(c.flags.failed) << id << ": " << c.flags.reason.value_or("");
    if (c.delivered.frames == 0) {
      ADD_FAILURE() << id << " delivered nothing";
      return {};
    }
    uint64_t stack = 0;
    std::string roles;
    for (Role role : kAllRoles) {
      const uint64_t n = counter.total(static_cast<size_t>(role));
      if (role != Role::kHarness) stack += n;
      roles += " " + std::string(role_name(role)) + "=" + std::to_string(n / kRounds);
    }
    roles += " delivery-log=" + std::to_string(counter.total(ref_count_probe::kExcluded) / kRounds);
    const auto frames = static_cast<double>(c.delivered.frames);
    const PerFrame out{
        static_cast<double>(stack) / frames,
        static_cast<double>(stack + counter.total(static_cast<size_t>(Role::kHarness))) / frames};
    std::printf("%s: %.2f per frame in the stack, %.2f with the application; per round:%s\n",
                id.c_str(), out.stack, out.all, roles.c_str());
    return out;
  }

  ScenarioRegistry registry_;
};

// The stack takes at most 3 per delivered frame (about 2: the viewer's reference taken and
// given back, plus its share of the header blocks), with one viewer or sixteen. The frame's own
// reference in the publisher's group, written and released once by the application, is shared
// by every viewer: with sixteen, the whole life of a frame stays within 3 per delivery too.
TEST_F(RefCounts, AtMostThreePerDeliveredFrame) {
  if (!ref_count_probe::kEnabled) GTEST_SKIP() << "the probe counts in debug builds only";
  // The swept versions: the interop-only moq-transport-17 is no measured version.
  for (const std::string& version : registry_.swept_versions()) {
    for (const char* scenario : {"subscribe_frames", "fetch_frames"}) {
      for (int viewers : {1, 16}) {
        const std::string id = "model/" + std::string(scenario) + "/" + version +
                               "/publishers=1/viewers=" + std::to_string(viewers) + "/frames=256";
        const PerFrame ops = per_frame(id);
        EXPECT_GT(ops.stack, 0.0) << id;
        EXPECT_LE(ops.stack, 3.0) << id;
        if (viewers == 16) {
          EXPECT_LE(ops.all, 3.0) << id;
        }
      }
    }
  }
}

// The probe sees what it is meant to: a header slice costs its block a count per frame unless
// cut with the others of its batch, and views of one block are released per run.
TEST(RefCountProbe, CutsAndReleasesCountPerBlock) {
  if (!ref_count_probe::kEnabled) GTEST_SKIP() << "the probe counts in debug builds only";
  const Bytes whole = Bytes::copy(std::string_view("abcdefgh"));
  const uint64_t before = ref_count_probe::counts[ref_count_probe::bucket];
  std::vector<Bytes> views;
  {
    SliceCutter cut(whole, 4);
    for (int i = 0; i < 3; ++i)
      views.push_back(cut.next(2));
  }  // one slice not cut: given back with one operation
  EXPECT_EQ(ref_count_probe::counts[ref_count_probe::bucket] - before, 2u);
  EXPECT_EQ(whole.share_count(), 4u);
  EXPECT_EQ(views[2].view(), "ef");
  {
    ReleaseRun read;
    for (Bytes& v : views) {
      v.advance(v.size());  // read through
      read.take(v);
    }
  }  // one run of one block: given back with one operation
  EXPECT_EQ(ref_count_probe::counts[ref_count_probe::bucket] - before, 3u);
  EXPECT_EQ(whole.share_count(), 1u);
  for (const Bytes& v : views)
    EXPECT_EQ(v.share_count(), 0u);
  views.clear();
  EXPECT_EQ(whole.share_count(), 1u);
  // Sliced one at a time, the same views cost a count each.
  const uint64_t one_by_one = ref_count_probe::counts[ref_count_probe::bucket];
  { const Bytes a = whole.slice(0, 2), b = whole.slice(2, 2), c = whole.slice(4, 2); }
  EXPECT_EQ(ref_count_probe::counts[ref_count_probe::bucket] - one_by_one, 6u);
}

}  // namespace
}  // namespace moq::harness
