// The receiving data plane.
//
// ObjectParser turns a subgroup or fetch stream into frames: it decodes each object header from
// the current chunk (through StreamInput, which assembles a header split across chunks) and
// slices the payload out of the chunks by reference; a payload that spans chunks becomes a frame
// of several chunks. It moves everything available in one call and never copies payload.
//
// UniReader owns one incoming unidirectional stream: it reads the stream type and header, then
//  - control stream (0x2F00): SETUP first, then at most one GOAWAY; anything else, or the stream
//    ending, closes the session with PROTOCOL_VIOLATION;
//  - subgroup stream: finds the subscription by Track Alias (alias_table.h): parks, holding the
//    chunks unparsed, while the alias is unknown; stops the stream for a tombstoned alias; then
//    writes the group's objects into the subscription's track;
//  - fetch stream: hands the stream to the request it answers (FETCH, -18 joining FETCH, -22
//    fill) and ends;
//  - padding stream: discards it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/async/executor.h"
#include "model/data/data.h"
#include "model/session/ietf/session_impl.h"
#include "model/session/ietf/stream_io.h"
#include "model/wire/ietf/data.h"

namespace moq::session::ietf_session {

struct ReceiverTag;

class ObjectParser {
 public:
  enum class Stop : uint8_t { Blocked, Fin, Reset, Closed, Malformed };

  // What decode reports for one object header: the codec's outcome without its value. Trivially
  // copyable, so the per-object path keeps it in registers (the codec's Decoded<T> holds an
  // Error); outcome() keeps a Malformed one's error for error().
  struct Outcome {
    DecodeStatus status;
    size_t consumed;
  };
  template <class T>
  Outcome outcome(Decoded<T>&& d) {
    if (d.malformed()) error_ = std::move(d.error);
    return {d.status, d.consumed};
  }

  // Parses objects until the input blocks or ends. decode(span, uint64_t& payload_length,
  // bool& is_frame) -> Outcome reads one object header; emit(Bytes&&) and
  // emit(std::span<const Bytes>) receive each frame's payload. frames counts emitted frames.
  template <class Decode, class Emit>
  Stop run(StreamInput& in, Decode&& decode, Emit&& emit, uint64_t& frames);
  // A FIN now would cut an object short.
  bool mid_object(const StreamInput& in) const { return in_payload_ || in.has_partial(); }
  const Error& error() const { return error_; }

 private:
  uint64_t left_ = 0;
  bool in_payload_ = false;
  std::vector<Bytes> parts_;  // a payload split across chunks (rare)
  Error error_;
};

template <class Decode, class Emit>
ObjectParser::Stop ObjectParser::run(StreamInput& in, Decode&& decode, Emit&& emit,
                                     uint64_t& frames) {
  for (;;) {
    switch (in.fill()) {
      case ReadStatus::Data:
        break;
      case ReadStatus::WouldBlock:
        return Stop::Blocked;
      case ReadStatus::Fin:
        return Stop::Fin;
      case ReadStatus::Reset:
        return Stop::Reset;
      case ReadStatus::Error:
        return Stop::Closed;
    }
    Bytes& c = in.current();
    if (in_payload_) {
      if (parts_.empty() && c.size() == left_) {
        emit(std::move(c));  // the common case: the chunk is exactly the payload
      } else if (parts_.empty() && c.size() > left_) {
        emit(c.slice(0, left_));
        c.advance(left_);
      } else {
        const size_t take = c.size() < left_ ? c.size() : static_cast<size_t>(left_);
        parts_.push_back(c.slice(0, take));
        c.advance(take);
        left_ -= take;
        if (left_ > 0) continue;
        emit(std::span<const Bytes>(parts_));
        parts_.clear();
      }
      in_payload_ = false;
      ++frames;
      continue;
    }
    uint64_t length = 0;
    bool is_frame = false;
    const Outcome d =
        in.decode([&](std::span<const uint8_t> s) { return decode(s, length, is_frame); });
    if (d.status == DecodeStatus::NeedMore) continue;
    if (d.status == DecodeStatus::Malformed) return Stop::Malformed;
    if (!is_frame) continue;
    if (length == 0) {
      emit(Bytes());
      ++frames;
      continue;
    }
    left_ = length;
    in_payload_ = true;
  }
}

// Takes a new incoming uni stream: a fetch stream whose header arrived with it goes straight to
// its request (no task); anything else gets a UniReader.
void accept_uni_stream(IetfSession& s, RecvStreamPtr stream);

class UniReader final : public Task, public Link<ReceiverTag> {
 public:
  UniReader(IetfSession& s, StreamInput input);
  ~UniReader() override;
  Poll poll() override;
  // The subscription it feeds was cancelled: stop the stream and end.
  void cancel(uint64_t code);

 private:
  friend class SubscribeClient;
  enum class Mode : uint8_t { Classify, Control, Padding, Subgroup, Parked, Objects, Done };
  Poll classify();
  Poll control();
  Poll subgroup();
  Poll objects();
  Poll finish_with_stop(uint64_t code);
  Poll unpark();

  IetfSession& s_;
  StreamInput in_;
  Mode mode_ = Mode::Classify;
  w::UniStreamKind kind_ = w::UniStreamKind::Padding;
  w::SubgroupHeader header_;
  w::SubgroupStreamState state_;
  uint64_t fetch_id_ = 0;
  std::optional<w::ControlMessage> first_;  // the control stream's first message
  ObjectParser parser_;
  SubscribeClient* sub_ = nullptr;
  GroupProducer group_;
  bool parked_ = false;
  bool goaway_seen_ = false;
  Waiter rd_{*this};
  Waiter wait_{*this};
};

}  // namespace moq::session::ietf_session
