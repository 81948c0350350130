#include "model/session/lite/frames.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "model/wire/lite/error_codes.h"

namespace moq::session::lite {

using wire::lite::LiteVersion;

Result<size_t> FrameEncoder::append(GroupConsumer& group, size_t end, LiteVersion v,
                                    ByteArena& arena, BufChain& out) {
  const size_t start = group.index();
  size_t i = start;
  for (; i < end; ++i) {
    const FrameView f = group.frame(i);
    // Wrapping subtraction: a timestamp below the previous one gives a negative delta.
    const auto delta = static_cast<int64_t>(f.timestamp - last_ts_);
    uint8_t* p = arena.reserve(wire::lite::kMaxFrameHeaderSize);
    const size_t n = wire::lite::encode_frame_header(delta, f.size, v, p);
    if (n == 0) [[unlikely]] {
      group.seek(i);
      return Error{wire::lite::stream_code::kInternalError,
                   "FRAME " + std::to_string(i) + " of group " + std::to_string(group.sequence()) +
                       " cannot be encoded: timestamp delta " + std::to_string(delta) +
                       " or payload size " + std::to_string(f.size) + " is out of range"};
    }
    out.push(arena.commit(n));
    f.append_to(out);
    last_ts_ = f.timestamp;
  }
  group.seek(i);
  return i - start;
}

void FrameParser::reset() {
  ts_ = 0;
  header_len_ = 0;
  in_payload_ = false;
  frame_ts_ = 0;
  payload_left_ = 0;
  parts_.clear();
  frames_ = 0;
}

Status FrameParser::write(GroupProducer& group, Bytes payload) {
  in_payload_ = false;
  ++frames_;
  return group.write_frame(frame_ts_, std::move(payload));
}

Status FrameParser::feed(Bytes chunk, GroupProducer& group, LiteVersion v) {
  while (!chunk.empty()) {
    if (!in_payload_) {
      wire::lite::FrameHeader h;
      if (header_len_ == 0) {
        auto r = wire::lite::decode_frame_header(chunk.span(), v);
        if (r.ok()) [[likely]] {
          h = r.value;
          chunk.advance(r.consumed);
        } else if (r.malformed()) {
          return std::move(r.error);
        } else {
          // A header split over chunks (NeedMore means fewer bytes than a header's maximum).
          std::memcpy(header_, chunk.data(), chunk.size());
          header_len_ = static_cast<uint8_t>(chunk.size());
          return {};
        }
      } else {
        const size_t take = std::min(chunk.size(), sizeof(header_) - header_len_);
        std::memcpy(header_ + header_len_, chunk.data(), take);
        auto r = wire::lite::decode_frame_header({header_, header_len_ + take}, v);
        if (r.malformed()) return std::move(r.error);
        if (!r.ok()) {
          header_len_ = static_cast<uint8_t>(header_len_ + take);
          return {};  // take was the whole chunk
        }
        chunk.advance(r.consumed - header_len_);
        header_len_ = 0;
        h = r.value;
      }
      ts_ += static_cast<uint64_t>(h.timestamp_delta);
      frame_ts_ = ts_;
      payload_left_ = h.payload_size;
      in_payload_ = true;
      if (payload_left_ == 0) {
        if (Status st = write(group, Bytes()); !st) return st;
        continue;
      }
      if (chunk.empty()) break;
    }
    if (parts_.empty() && chunk.size() == payload_left_) {
      // The usual case: the chunk is exactly the payload (the sender wrote it as one Bytes).
      return write(group, std::move(chunk));
    }
    const size_t n = std::min<uint64_t>(chunk.size(), payload_left_);
    if (parts_.empty() && n == payload_left_) {
      if (Status st = write(group, chunk.slice(0, n)); !st) return st;
      chunk.advance(n);
      continue;
    }
    parts_.push(chunk.slice(0, n));
    chunk.advance(n);
    payload_left_ -= n;
    if (payload_left_ == 0) {
      in_payload_ = false;
      ++frames_;
      if (Status st = group.write_frame(frame_ts_, parts_); !st) return st;
    }
  }
  return {};
}

}  // namespace moq::session::lite
