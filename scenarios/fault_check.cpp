#include "scenarios/fault_check.h"

#include <cstring>
#include <vector>

namespace moq::scenarios {

namespace {

uint8_t filler(uint64_t g, uint64_t k, size_t i) {
  return static_cast<uint8_t>(g * 31 + k * 7 + i);
}

}  // namespace

Bytes fault_payload(uint64_t g, uint64_t k, size_t size) {
  std::vector<uint8_t> b(size);
  for (size_t i = 0; i < 8 && i < size; ++i)
    b[i] = static_cast<uint8_t>(g >> (8 * i));
  for (size_t i = 8; i < 16 && i < size; ++i)
    b[i] = static_cast<uint8_t>(k >> (8 * (i - 8)));
  for (size_t i = 16; i < size; ++i)
    b[i] = filler(g, k, i);
  return Bytes::copy(std::span<const uint8_t>(b));
}

void FaultViewer::frame(uint64_t sequence, uint64_t index, const FrameView& frame,
                        uint64_t now_ns) {
  ++frames_;
  trace_->add_u64(sequence);
  trace_->add_u64(index);
  trace_->add_u64(now_ns);
  Seen& s = seen_[sequence];
  ++s.read;
  const Bytes expected = fault_payload(sequence, index, frame_size_);
  size_t at = 0;
  bool same = true;
  for (const Bytes& c : frame.chunks) {
    if (at + c.size() > expected.size() ||
        std::memcmp(c.data(), expected.data() + at, c.size()) != 0) {
      same = false;
      break;
    }
    at += c.size();
  }
  if (!same || at != expected.size())
    fail("group " + std::to_string(sequence) + ": frame " + std::to_string(index) +
         " is not the frame written there (a repeat, a reordering or damaged bytes)");
}

void FaultViewer::group_ended(uint64_t sequence, GroupEnd how, uint64_t frames_read,
                              uint64_t last_read_ns) {
  trace_->add_u64(sequence);
  trace_->add_u64(static_cast<uint64_t>(how) + 100);
  trace_->add_u64(last_read_ns);
  Seen& s = seen_[sequence];
  s.how = how;
  s.ended = true;
  if (s.read != frames_read) fail("group " + std::to_string(sequence) + ": frame count mismatch");
}

void FaultViewer::skipped(uint64_t count) {
  trace_->add_u64(count + 1000);
}

void FaultViewer::track_ended(Next how, const Error& error) {
  trace_->add_u64(how == Next::End ? 2000 : 2001);
  trace_->add_u64(error.code);
  track_over_ = true;
}

void FaultViewer::broken(std::string why) {
  fail(std::move(why));
}

void FaultViewer::fail(std::string why) {
  if (failure_.empty()) failure_ = name_ + ": " + std::move(why);
}

std::string FaultViewer::check(const Written& written, const std::set<uint64_t>& expected_whole) {
  whole_ = ended_early_ = 0;
  std::string failure = failure_;
  auto fail_once = [&](std::string why) {
    if (failure.empty()) failure = name_ + ": " + std::move(why);
  };
  for (const auto& [seq, s] : seen_) {
    const std::string group = "group " + std::to_string(seq);
    auto w = written.find(seq);
    if (w == written.end()) {
      fail_once(group + " was never written");
      continue;
    }
    if (!s.ended) {
      fail_once(group + " neither ended nor was reset (" + std::to_string(s.read) +
                " frames read)");
      continue;
    }
    if (s.read > w->second.frames)
      fail_once(group + ": " + std::to_string(s.read) + " frames read of " +
                std::to_string(w->second.frames) + " written");
    const bool whole = s.how == GroupEnd::Finished;
    if (whole && (!w->second.finished || s.read != w->second.frames))
      fail_once(group + " ended after " + std::to_string(s.read) + " of its " +
                std::to_string(w->second.frames) + " frames with no reset");
    ++(whole ? whole_ : ended_early_);
  }
  const uint64_t first = seen_.empty() ? UINT64_MAX : seen_.begin()->first;
  for (uint64_t seq : expected_whole) {
    if (seq < first) continue;
    const std::string group = "group " + std::to_string(seq);
    auto s = seen_.find(seq);
    if (s == seen_.end()) {
      fail_once(group + ", untouched by the fault, never arrived");
    } else if (s->second.how != GroupEnd::Finished) {
      fail_once(group + ", untouched by the fault, ended after " + std::to_string(s->second.read) +
                " frames");
    }
  }
  return failure;
}

}  // namespace moq::scenarios
