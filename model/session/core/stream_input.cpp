#include "model/session/core/stream_input.h"

namespace moq::session::core {

void StreamInput::clear() {
  stream_.reset();
  cur_.reset();
  held_.clear();
  stash_.clear();
  end_.reset();
  code_ = 0;
  error_ = Error{};
}

ReadStatus StreamInput::hold(size_t max_bytes) {
  if (end_) return *end_;
  for (;;) {
    Bytes chunk;
    const size_t room = held_.size() < max_bytes ? max_bytes - held_.size() : 0;
    const ReadResult r = stream_->read(chunk, room);
    if (r.status == ReadStatus::Data) {
      if (chunk.empty()) return ReadStatus::WouldBlock;  // full: only watch for the end
      held_.push(std::move(chunk));
      continue;
    }
    return ended(r);
  }
}

void StreamInput::ended_inside(const char* name) {
  const size_t left = cur_.size() + stash_.size() + held_.size();
  error_ =
      Error{Reader::kMalformedCode, std::string(name) + ": the stream ended inside the message (" +
                                        std::to_string(left) + " bytes left)"};
}

bool StreamInput::drain(Waiter& waiter, uint64_t& resets_received) {
  for (;;) {
    switch (fill()) {
      case ReadStatus::Data:
        cur_.reset();  // nothing more is expected; extra bytes are ignored
        stash_.clear();
        continue;
      case ReadStatus::WouldBlock:
        waiter.wait(readable());
        return false;
      case ReadStatus::Reset:
        ++resets_received;
        return true;
      case ReadStatus::Fin:
      case ReadStatus::Error:
        return true;
    }
  }
}

}  // namespace moq::session::core
