#include "model/session/lite/frames.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "model/wire/lite/error_codes.h"

namespace moq::session::lite {

using wire::lite::LiteVersion;

namespace {

// Frames whose header fields fit two-byte varints (timestamp deltas within +-8191 units and
// payloads below 16 KiB: the usual media frame) take an inline path; anything else goes through
// the wire codec. Both varint forms write values below 2^14 as one byte (below 64 in QUIC form,
// below 128 in leading-ones form) or as two bytes holding 6 + 8 value bits behind a prefix
// (QUIC 0b01, leading-ones 0b10), so one routine serves both.
constexpr uint64_t kSmall = uint64_t{1} << 14;

inline size_t put_small(uint64_t value, bool quic, uint8_t* out) {
  if (value < (quic ? 64u : 128u)) {
    out[0] = static_cast<uint8_t>(value);
    return 1;
  }
  out[0] = static_cast<uint8_t>((quic ? 0x40 : 0x80) | (value >> 8));
  out[1] = static_cast<uint8_t>(value);
  return 2;
}

// Reads a one- or two-byte varint from p (n bytes available). 0: longer form or too few bytes.
inline size_t get_small(const uint8_t* p, size_t n, bool quic, uint64_t& value) {
  if (n == 0) return 0;
  const uint8_t b = p[0];
  if (quic ? b < 0x40 : b < 0x80) {
    value = b;
    return 1;
  }
  if ((b & 0xC0) != (quic ? 0x40 : 0x80) || n < 2) return 0;
  value = (uint64_t{b & 0x3Fu} << 8) | p[1];
  return 2;
}

// Frames encoded per arena reservation: their headers share one slice of pooled memory.
constexpr size_t kHeaderBatch = 64;

}  // namespace

size_t encode_frame_header_fast(int64_t timestamp_delta, uint64_t payload_size, LiteVersion v,
                                uint8_t* out) {
  const uint64_t zz = wire::lite::zigzag_encode(timestamp_delta);
  if (zz < kSmall && payload_size < kSmall) {
    const bool quic = v == LiteVersion::Lite06;
    const size_t n = put_small(zz, quic, out);
    return n + put_small(payload_size, quic, out + n);
  }
  return wire::lite::encode_frame_header(timestamp_delta, payload_size, v, out);
}

Result<size_t> FrameEncoder::append(GroupConsumer& group, size_t end, LiteVersion v,
                                    ByteArena& arena, BufChain& out) {
  const size_t start = group.index();
  uint8_t lengths[kHeaderBatch];
  for (size_t i = start; i < end;) {
    // Pass 1: the batch's headers, back to back in one reservation.
    const size_t batch = std::min(end - i, kHeaderBatch);
    uint8_t* base = arena.reserve(batch * wire::lite::kMaxFrameHeaderSize);
    uint8_t* p = base;
    uint64_t ts = last_ts_;
    for (size_t k = 0; k < batch; ++k) {
      const FrameView f = group.frame(i + k);
      // Wrapping subtraction: a timestamp below the previous one gives a negative delta.
      const auto delta = static_cast<int64_t>(f.timestamp - ts);
      const size_t n = encode_frame_header_fast(delta, f.size, v, p);
      if (n == 0) [[unlikely]] {
        group.seek(i + k);
        return Error{wire::lite::stream_code::kInternalError,
                     "FRAME " + std::to_string(i + k) + " of group " +
                         std::to_string(group.sequence()) + " cannot be encoded: timestamp delta " +
                         std::to_string(delta) + " or payload size " + std::to_string(f.size) +
                         " is out of range"};
      }
      lengths[k] = static_cast<uint8_t>(n);
      p += n;
      ts = f.timestamp;
    }
    const Bytes headers = arena.commit(static_cast<size_t>(p - base));
    // Pass 2: header slice, then payload references, per frame.
    size_t offset = 0;
    for (size_t k = 0; k < batch; ++k) {
      out.push(headers.slice(offset, lengths[k]));
      offset += lengths[k];
      group.frame(i + k).append_to(out);
    }
    last_ts_ = ts;
    i += batch;
  }
  group.seek(end);
  return end - start;
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

Status FrameParser::write(GroupProducer& group, Bytes&& payload) {
  in_payload_ = false;
  ++frames_;
  return group.write_frame(frame_ts_, std::move(payload));
}

Status FrameParser::feed(Bytes&& chunk, GroupProducer& group, LiteVersion v) {
  while (!chunk.empty()) {
    if (!in_payload_) {
      wire::lite::FrameHeader h;
      uint64_t zz = 0;
      uint64_t size = 0;
      size_t a = 0;
      size_t b = 0;
      const bool quic = v == LiteVersion::Lite06;
      if (header_len_ == 0 && (a = get_small(chunk.data(), chunk.size(), quic, zz)) != 0 &&
          (b = get_small(chunk.data() + a, chunk.size() - a, quic, size)) != 0) [[likely]] {
        h.timestamp_delta = wire::lite::zigzag_decode(zz);
        h.payload_size = size;
        chunk.advance(a + b);
      } else if (header_len_ == 0) {
        auto r = wire::lite::decode_frame_header(chunk.span(), v);
        if (r.ok()) {
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
