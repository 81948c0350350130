#include "model/session/lite/frames.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "model/wire/lite/error_codes.h"

namespace moq::session::lite {

using wire::lite::LiteVersion;

namespace {

// Frames encoded per arena reservation: their headers share one slice of pooled memory.
constexpr size_t kHeaderBatch = 64;

// Pass 1 of a batch: the FRAME headers of frames [first, first + count) back to back from *out
// (which moves past them), each one's length in lengths[]. Timestamps delta from *ts, which ends
// as the last encoded frame's. Returns the frames encoded: fewer than count at a frame the wire
// cannot carry. A function of its own, compiled per version: the codec's inline encoder then
// tests no version per frame, and the loop keeps its state in registers.
template <class Version>
[[gnu::noinline]] size_t encode_headers(GroupConsumer& group, size_t first, size_t count,
                                        Version version, uint64_t* ts, uint8_t** out,
                                        uint8_t* lengths) {
  uint64_t last = *ts;
  uint8_t* p = *out;
  size_t k = 0;
  for (; k < count; ++k) {
    const FrameView f = group.frame(first + k);
    // Wrapping subtraction: a timestamp below the previous one gives a negative delta.
    const auto delta = static_cast<int64_t>(f.timestamp - last);
    const size_t n = wire::lite::encode_frame_header(delta, f.size, version, p);
    if (n == 0) [[unlikely]] {
      break;
    }
    lengths[k] = static_cast<uint8_t>(n);
    p += n;
    last = f.timestamp;
  }
  *ts = last;
  *out = p;
  return k;
}

// The frame at the group's index, whose header the wire cannot carry (a timestamp jump beyond
// 2^61 or a payload above 64 MiB); ts is the previous frame's timestamp.
[[gnu::cold]] Error unencodable(GroupConsumer& group, uint64_t ts) {
  const FrameView f = group.frame(group.index());
  return Error{wire::lite::stream_code::kInternalError,
               "FRAME " + std::to_string(group.index()) + " of group " +
                   std::to_string(group.sequence()) + " cannot be encoded: timestamp delta " +
                   std::to_string(static_cast<int64_t>(f.timestamp - ts)) + " or payload size " +
                   std::to_string(f.size) + " is out of range"};
}

}  // namespace

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
    const size_t encoded = wire::lite::with_version(v, [&](auto version) {
      return encode_headers(group, i, batch, version, &ts, &p, lengths);
    });
    if (encoded < batch) [[unlikely]] {
      group.seek(i + encoded);
      return unencodable(group, ts);
    }
    const Bytes headers = arena.commit(static_cast<size_t>(p - base));
    // Pass 2: header slice, then payload references, per frame.
    SliceCutter cut(headers, static_cast<uint32_t>(batch));
    for (size_t k = 0; k < batch; ++k) {
      out.push(cut.next(lengths[k]));
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
  payload_left_ = 0;
  parts_.clear();
  frames_ = 0;
}

Status FrameParser::write(GroupProducer& group, Bytes&& payload) {
  in_payload_ = false;
  ++frames_;
  return group.write_frame(ts_, std::move(payload));
}

Status FrameParser::feed(std::span<Bytes> chunks, GroupProducer& group, LiteVersion v) {
  ReleaseRun read;  // the chunks that held only headers, given back per sender's block
  for (Bytes& chunk : chunks) {
    while (!chunk.empty()) {
      if (!in_payload_) {
        wire::lite::FrameHeader h;
        if (header_len_ == 0) [[likely]] {
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
            break;
          }
        } else {
          const size_t take = std::min(chunk.size(), sizeof(header_) - header_len_);
          std::memcpy(header_ + header_len_, chunk.data(), take);
          auto r = wire::lite::decode_frame_header({header_, header_len_ + take}, v);
          if (r.malformed()) return std::move(r.error);
          if (!r.ok()) {
            header_len_ = static_cast<uint8_t>(header_len_ + take);
            break;  // take was the whole chunk
          }
          chunk.advance(r.consumed - header_len_);
          header_len_ = 0;
          h = r.value;
        }
        ts_ += static_cast<uint64_t>(h.timestamp_delta);
        payload_left_ = h.payload_size;
        in_payload_ = true;
        if (payload_left_ == 0) {
          if (Status st = write(group, Bytes()); !st) return st;
          continue;
        }
        if (chunk.empty()) {
          read.take(chunk);
          break;
        }
      }
      if (parts_.empty() && chunk.size() == payload_left_) {
        // The usual case: the chunk is exactly the payload (the sender wrote it as one Bytes),
        // and it moves into the group.
        if (!group.append(ts_, std::move(chunk))) [[unlikely]]
          // append() leaves a refused chunk whole, and write() returns the group's reason.
          return write(group, std::move(chunk));  // NOLINT(bugprone-use-after-move)
        in_payload_ = false;
        ++frames_;
        break;
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
        if (Status st = group.write_frame(ts_, parts_); !st) return st;
      }
    }
  }
  return {};
}

}  // namespace moq::session::lite
