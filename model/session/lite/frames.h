// The data plane's two halves: turning a group's frames into FRAME bytes (publisher) and FRAME
// bytes back into a group (viewer). Both work on batches and never copy a payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/result.h"
#include "model/data/group.h"
#include "model/wire/lite/group.h"
#include "model/wire/lite/version.h"

namespace moq::session::lite {

// Appends FRAMEs to a gather list: per frame, its header bytes (encoded into the arena, a few
// bytes of a shared pooled block) and its payload Bytes by reference. Timestamps are deltas from
// the previous frame on the stream, from 0 for the first (draft-lcurley-moq-lite-06, FRAME). The
// headers of up to 64 frames share one arena reservation (one slice each).
class FrameEncoder {
 public:
  void reset() { last_ts_ = 0; }
  // Appends frames [group.index(), end) and moves the group's index past them. Returns the
  // number of frames appended, or an Error for a frame the wire cannot carry (a timestamp jump
  // beyond 2^61 or a payload above 64 MiB).
  Result<size_t> append(GroupConsumer& group, size_t end, wire::lite::LiteVersion v,
                        ByteArena& arena, BufChain& out);

 private:
  uint64_t last_ts_ = 0;
};

// Parses FRAMEs from a stream's chunks into a GroupProducer. A payload that arrives whole inside
// a chunk is stored as a slice of that chunk; one split over chunks is stored as several slices;
// only a FRAME header split over chunks is gathered into a few bytes here.
class FrameParser {
 public:
  void reset();
  // Consumes every chunk (payloads are moved out of them into the group; the caller then drops
  // what is left). Fails on a malformed header (the message names the field) or when the group
  // refuses a frame (too large).
  Status feed(std::span<Bytes> chunks, GroupProducer& group, wire::lite::LiteVersion v);
  Status feed(Bytes&& chunk, GroupProducer& group, wire::lite::LiteVersion v) {
    return feed({&chunk, 1}, group, v);
  }
  // True between frames (a FIN here ends the group cleanly; inside a frame it is an error).
  bool at_boundary() const { return !in_payload_ && header_len_ == 0; }
  // Frames completed since the last take_frames().
  uint64_t take_frames() {
    const uint64_t n = frames_;
    frames_ = 0;
    return n;
  }

 private:
  Status write(GroupProducer& group, Bytes&& payload);

  uint64_t ts_ = 0;  // absolute timestamp of the frame being read, else of the last (wrapping)
  uint8_t header_[wire::lite::kMaxFrameHeaderSize];
  uint8_t header_len_ = 0;
  bool in_payload_ = false;
  uint64_t payload_left_ = 0;
  BufChain parts_;  // slices of a payload split over chunks
  uint64_t frames_ = 0;
};

}  // namespace moq::session::lite
