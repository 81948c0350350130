// Frames are plain values inside their group: a timestamp and a payload made of one or more
// Bytes chunks (one in the common case; several when a frame arrived split across transport
// chunks and was stored without copying). There is no object per frame.
#pragma once

#include <cstdint>
#include <span>

#include "model/base/buf_chain.h"
#include "model/base/bytes.h"

namespace moq {

// A frame with one contiguous payload, as a producer usually writes it.
struct Frame {
  uint64_t timestamp = 0;  // in the track's timescale
  Bytes payload;
};

// A frame as a consumer reads it. The chunk span points into the group's storage and stays valid
// until that group is written again; copy the Bytes (a refcount increment) to keep them longer.
struct FrameView {
  uint64_t timestamp = 0;
  uint64_t size = 0;              // payload bytes over all chunks
  std::span<const Bytes> chunks;  // empty for a zero-length frame

  bool contiguous() const { return chunks.size() <= 1; }
  // The payload of a contiguous frame (empty Bytes for a zero-length one). For a frame of several
  // chunks use chunks or append_to().
  Bytes payload() const { return chunks.empty() ? Bytes() : chunks[0]; }
  // Appends payload references to a gather list (no copy).
  void append_to(BufChain& out) const {
    for (const Bytes& c : chunks)
      out.push(c);
  }
};

}  // namespace moq
