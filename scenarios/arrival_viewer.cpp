#include "scenarios/arrival_viewer.h"

namespace moq::scenarios {

ArrivalViewer::ArrivalViewer(Executor& executor, TrackConsumer track, ArrivalSink& sink)
    : Task(executor, "arrival viewer"),
      track_(std::move(track)),
      sink_(&sink),
      track_waiter_(*this),
      waiters_{Waiter(*this), Waiter(*this), Waiter(*this), Waiter(*this),
               Waiter(*this), Waiter(*this), Waiter(*this), Waiter(*this)} {}

Poll ArrivalViewer::poll() {
  if (!take_groups()) return Poll::Done;
  for (size_t i = 0; i < kSlots; ++i)
    if (slots_[i].open) read(i);
  return Poll::Pending;
}

bool ArrivalViewer::take_groups() {
  for (;;) {
    GroupConsumer g;
    const Next next = track_.next(g);
    switch (next) {
      case Next::Ready:
        break;
      case Next::Pending:
        track_waiter_.wait(track_.groups());
        return true;
      case Next::End:
      case Next::Aborted: {
        // The groups still open are read to where they are, then leave.
        for (size_t i = 0; i < kSlots; ++i)
          if (slots_[i].open) read(i);
        for (size_t i = 0; i < kSlots; ++i)
          if (slots_[i].open) close(i, GroupEnd::LetGo);
        ended_ = true;
        sink_->track_ended(next, track_.error());
        return false;
      }
    }
    const uint64_t seq = g.sequence();
    if (seen_any_ && seq <= newest_) {
      sink_->broken("group " + std::to_string(seq) + " arrived after group " +
                    std::to_string(newest_));
      continue;
    }
    if (seen_any_ && seq > newest_ + 1) sink_->skipped(seq - newest_ - 1);
    seen_any_ = true;
    newest_ = seq;
    size_t free = kSlots;
    for (size_t i = 0; i < kSlots && free == kSlots; ++i)
      if (!slots_[i].open) free = i;
    if (free == kSlots) {  // every slot holds an older group: let the oldest go
      free = 0;
      for (size_t i = 1; i < kSlots; ++i)
        if (slots_[i].group.sequence() < slots_[free].group.sequence()) free = i;
      close(free, GroupEnd::LetGo);
    }
    slots_[free] = Slot{std::move(g), 0, 0, true};
  }
}

void ArrivalViewer::read(size_t i) {
  Slot& s = slots_[i];
  FrameView frame;
  for (;;) {
    switch (s.group.next(frame)) {
      case Next::Ready: {
        const uint64_t now = executor().now_ns();
        sink_->frame(s.group.sequence(), s.read, frame, now);
        s.last_read_ns = now;
        ++s.read;
        continue;
      }
      case Next::Pending:
        waiters_[i].wait(s.group.readable());
        return;
      case Next::End:
        close(i, GroupEnd::Finished);
        return;
      case Next::Aborted:
        close(i, GroupEnd::Aborted);
        return;
    }
  }
}

void ArrivalViewer::close(size_t i, GroupEnd how) {
  Slot& s = slots_[i];
  sink_->group_ended(s.group.sequence(), how, s.read, s.last_read_ns);
  waiters_[i].cancel();
  s = Slot{};
}

}  // namespace moq::scenarios
