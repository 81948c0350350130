// A viewer that reads a subscription as its data arrives: a task woken by its consumers, so each
// frame is read (and can be stamped on the world's clock) when it arrives, not after a round
// settled. It holds up to kSlots groups at once: the newest arrive first under congestion, and an
// older group still open keeps its slot until it ends, or until kSlots newer ones need slots and
// the oldest is let go.
//
// What it reads goes to an ArrivalSink; what the protocol promises that the viewer can see alone
// is checked here: groups come once each, newer than the last (a live consumer skips late ones),
// and a group's frames come in order from its first.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "model/async/executor.h"
#include "model/data/data.h"

namespace moq::scenarios {

enum class GroupEnd : uint8_t {
  Finished,  // the publisher finished it (frames_read says whether it arrived whole)
  Aborted,   // reset or aborted on the way
  LetGo,     // the viewer needed its slot for a newer group
};

class ArrivalSink {
 public:
  virtual ~ArrivalSink() = default;
  // Frame `index` of group `sequence`, read at now_ns.
  virtual void frame(uint64_t sequence, uint64_t index, const FrameView& frame,
                     uint64_t now_ns) = 0;
  // A group left the viewer: how, after frames_read frames, the last read at last_read_ns.
  virtual void group_ended(uint64_t sequence, GroupEnd how, uint64_t frames_read,
                           uint64_t last_read_ns) = 0;
  // Groups the viewer never received (a gap in the sequences it saw).
  virtual void skipped(uint64_t count) = 0;
  // The subscription ended (End) or aborted (Aborted: error); the viewer stops.
  virtual void track_ended(Next how, const Error& error) = 0;
  // A promise the viewer saw broken.
  virtual void broken(std::string why) = 0;
};

class ArrivalViewer final : public Task {
 public:
  static constexpr size_t kSlots = 8;

  ArrivalViewer(Executor& executor, TrackConsumer track, ArrivalSink& sink);
  Poll poll() override;
  bool ended() const { return ended_; }

 private:
  struct Slot {
    GroupConsumer group;
    uint64_t read = 0;  // frames read
    uint64_t last_read_ns = 0;
    bool open = false;
  };

  // Takes the subscription's new groups into slots; false once it ended.
  bool take_groups();
  void read(size_t i);
  void close(size_t i, GroupEnd how);

  TrackConsumer track_;
  ArrivalSink* sink_;
  bool seen_any_ = false;
  bool ended_ = false;
  uint64_t newest_ = 0;
  std::array<Slot, kSlots> slots_;
  Waiter track_waiter_;
  std::array<Waiter, kSlots> waiters_;
};

}  // namespace moq::scenarios
