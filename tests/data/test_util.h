// Helpers for the data-model tests: tasks that read groups and tracks the way a session would
// (drain what is available, then park on a wait list), and payload helpers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/async/executor.h"
#include "model/data/data.h"
#include "sim/clock.h"

namespace moq::test {

inline Bytes text_bytes(std::string_view s) {
  return Bytes::copy(s);
}

// The payload of a frame as text, joining its chunks.
inline std::string text(const FrameView& f) {
  std::string out;
  for (const Bytes& c : f.chunks)
    out.append(c.view());
  return out;
}

// A world: a virtual clock and an executor on it.
struct World {
  sim::VirtualClock clock;
  Executor executor{clock};
};

// Reads a group to its end, recording payloads. Counts its polls so tests can check it is woken
// exactly when there is something new.
class GroupReaderTask : public Task {
 public:
  GroupReaderTask(Executor& ex, GroupConsumer group)
      : Task(ex, "group reader"), group_(std::move(group)), waiter_(*this) {
    wake();
  }
  Poll poll() override {
    ++polls;
    FrameView f;
    for (;;) {
      switch (group_.next(f)) {
        case Next::Ready:
          frames.push_back(text(f));
          continue;
        case Next::Pending:
          waiter_.wait(group_.readable());
          return Poll::Pending;
        case Next::End:
          ended = true;
          return Poll::Done;
        case Next::Aborted:
          aborted = true;
          error = group_.error();
          return Poll::Done;
      }
    }
  }

  int polls = 0;
  std::vector<std::string> frames;
  bool ended = false;
  bool aborted = false;
  Error error;

 private:
  GroupConsumer group_;
  Waiter waiter_;
};

// Waits on one wait list and counts how often it is woken.
class WakeCounterTask : public Task {
 public:
  WakeCounterTask(Executor& ex, WaitList& list)
      : Task(ex, "wake counter"), list_(&list), waiter_(*this) {
    wake();
  }
  Poll poll() override {
    ++polls;
    waiter_.wait(*list_);
    return Poll::Pending;
  }
  int polls = 0;

 private:
  WaitList* list_;
  Waiter waiter_;
};

// Follows a track: takes each group the consumer yields and records its sequence.
class TrackFollowerTask : public Task {
 public:
  TrackFollowerTask(Executor& ex, TrackConsumer track)
      : Task(ex, "track follower"), track_(std::move(track)), waiter_(*this) {
    wake();
  }
  Poll poll() override {
    ++polls;
    GroupConsumer g;
    for (;;) {
      switch (track_.next(g)) {
        case Next::Ready:
          sequences.push_back(g.sequence());
          continue;
        case Next::Pending:
          waiter_.wait(track_.groups());
          return Poll::Pending;
        case Next::End:
          ended = true;
          return Poll::Done;
        case Next::Aborted:
          aborted = true;
          error = track_.error();
          return Poll::Done;
      }
    }
  }

  int polls = 0;
  std::vector<uint64_t> sequences;
  bool ended = false;
  bool aborted = false;
  Error error;

 private:
  TrackConsumer track_;
  Waiter waiter_;
};

}  // namespace moq::test
