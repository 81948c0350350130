// The checking side of the fault scenarios (faults.h): the payload a frame must carry, what the
// publisher wrote, and a viewer's record of what it saw, checked against both.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "harness/runner/delivery.h"
#include "model/data/data.h"
#include "scenarios/arrival_viewer.h"

namespace moq::scenarios {

// Frame k of group g, `size` bytes (at least 16): g and k little-endian, then a filler that
// depends on both, so a frame in the wrong place or a byte out of place is seen.
Bytes fault_payload(uint64_t g, uint64_t k, size_t size);

// What the publisher wrote: per group, its frames and whether it was finished.
struct WrittenGroup {
  uint64_t frames = 0;
  bool finished = false;
  uint64_t finished_ns = 0;  // when, on the world's clock
};
using Written = std::map<uint64_t, WrittenGroup>;

// One subscription's view, fed by an ArrivalViewer. Every event goes into the trace digest with
// the time it happened.
class FaultViewer final : public ArrivalSink {
 public:
  FaultViewer(std::string name, size_t frame_size, harness::Fnv64& trace)
      : name_(std::move(name)), frame_size_(frame_size), trace_(&trace) {}

  void frame(uint64_t sequence, uint64_t index, const FrameView& frame, uint64_t now_ns) override;
  void group_ended(uint64_t sequence, GroupEnd how, uint64_t frames_read,
                   uint64_t last_read_ns) override;
  void skipped(uint64_t count) override;
  void track_ended(Next how, const Error& error) override;
  void broken(std::string why) override;

  bool track_over() const { return track_over_; }
  // Checks what this viewer saw against what was written: each group it saw ended whole, or
  // early after no more than was written; each group of `expected_whole` (those the fault did
  // not touch, from the first group it saw on) arrived whole. Counts whole() and ended_early()
  // whatever it finds. Empty: fine; otherwise the first broken promise.
  std::string check(const Written& written, const std::set<uint64_t>& expected_whole);
  uint64_t whole() const { return whole_; }
  uint64_t ended_early() const { return ended_early_; }
  uint64_t frames() const { return frames_; }

 private:
  struct Seen {
    GroupEnd how = GroupEnd::LetGo;
    uint64_t read = 0;
    bool ended = false;
  };

  void fail(std::string why);

  std::string name_;
  size_t frame_size_;
  harness::Fnv64* trace_;
  std::map<uint64_t, Seen> seen_;
  bool track_over_ = false;
  std::string failure_;
  uint64_t whole_ = 0;
  uint64_t ended_early_ = 0;
  uint64_t frames_ = 0;
};

}  // namespace moq::scenarios
