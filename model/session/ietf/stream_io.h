// Reading and writing one stream without copying payload.
//
// StreamInput hands out the stream's chunks one at a time and decodes items (control messages,
// data headers) from the front of the current chunk. An item split across chunks is assembled in
// a small stash (the rare path); payload is sliced out of the chunks by reference. hold() parks
// chunks unparsed (a subgroup stream whose track alias is not bound yet): they are parsed later
// in order, before anything still in the transport.
//
// Outbox writes a gather list and keeps what flow control did not accept, in order, for the next
// flush().
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/varint.h"
#include "model/transport.h"

namespace moq::session::ietf_session {

class StreamInput {
 public:
  StreamInput() = default;
  explicit StreamInput(RecvStreamPtr stream) : stream_(std::move(stream)) {}

  void attach(RecvStreamPtr stream) { stream_ = std::move(stream); }
  bool attached() const { return stream_ != nullptr; }
  RecvStream& stream() { return *stream_; }
  WaitList& readable() { return stream_->readable(); }
  RecvStreamPtr release() { return std::move(stream_); }

  // Makes the current chunk non-empty: Data, or WouldBlock / Fin / Reset / Error (code()).
  ReadStatus fill() {
    if (!cur_.empty()) return ReadStatus::Data;
    if (!held_.empty()) {
      cur_ = held_.take_front(SIZE_MAX);
      return ReadStatus::Data;
    }
    if (end_) return *end_;
    ReadResult r = stream_->read(cur_);
    if (r.status == ReadStatus::Data) {
      if (cur_.empty()) return ReadStatus::WouldBlock;
      return ReadStatus::Data;
    }
    if (r.status != ReadStatus::WouldBlock) {
      end_ = r.status;
      code_ = r.code;
    }
    return r.status;
  }
  // Reads chunks into the held list without parsing, up to max_bytes held (beyond it the
  // stream keeps its flow-control credit; spec 6 lets a receiver withhold it behind an unknown
  // alias): WouldBlock while more may come, else how the stream ended (a reset is seen even
  // when nothing more is read).
  ReadStatus hold(size_t max_bytes) {
    if (end_) return *end_;
    for (;;) {
      Bytes chunk;
      const size_t room = held_.size() < max_bytes ? max_bytes - held_.size() : 0;
      ReadResult r = stream_->read(chunk, room);
      if (r.status == ReadStatus::Data) {
        if (chunk.empty()) return ReadStatus::WouldBlock;  // full: only watch for the end
        held_.push(std::move(chunk));
        continue;
      }
      if (r.status != ReadStatus::WouldBlock) {
        end_ = r.status;
        code_ = r.code;
      }
      return r.status;
    }
  }

  Bytes& current() { return cur_; }
  // Bytes of a partly decoded item, or of a chunk not consumed yet, remain.
  bool has_partial() const { return !cur_.empty() || !stash_.empty() || !held_.empty(); }
  uint64_t code() const { return code_; }

  // Decodes one item from the front with fn(span) -> {status, consumed, ...}. Ok consumes it;
  // NeedMore keeps the bytes (in the stash) for the next call after fill(); Malformed consumes
  // nothing. Spans inside the result point into the input and are valid until the next call.
  template <class F>
  auto decode(F&& fn) {
    if (stash_.empty()) {
      auto d = fn(cur_.span());
      if (d.status == DecodeStatus::Ok) {
        cur_.advance(d.consumed);
      } else if (d.status == DecodeStatus::NeedMore) {
        stash_.assign(cur_.data(), cur_.data() + cur_.size());
        cur_.reset();
      }
      return d;
    }
    const size_t before = stash_.size();
    stash_.insert(stash_.end(), cur_.data(), cur_.data() + cur_.size());
    auto d = fn(std::span<const uint8_t>(stash_));
    if (d.status == DecodeStatus::Ok) {
      cur_.advance(d.consumed - before);
      stash_.clear();
    } else if (d.status == DecodeStatus::NeedMore) {
      cur_.reset();
    } else {
      stash_.resize(before);
    }
    return d;
  }

 private:
  RecvStreamPtr stream_;
  Bytes cur_;
  BufChain held_;
  std::vector<uint8_t> stash_;
  std::optional<ReadStatus> end_;
  uint64_t code_ = 0;
};

class Outbox {
 public:
  // Writes chain after anything still pending; what is not accepted stays queued. chain is left
  // empty either way.
  Status send(SendStream& s, BufChain& chain) {
    if (pending_.empty()) {
      Result<size_t> r = s.write(chain);
      if (!r) {
        chain.clear();
        return r.error();
      }
      if (!chain.empty()) {
        pending_.append(chain);
        chain.clear();
      }
      return {};
    }
    pending_.append(chain);
    chain.clear();
    return flush(s);
  }
  // Writes what is pending.
  Status flush(SendStream& s) {
    if (pending_.empty()) return {};
    Result<size_t> r = s.write(pending_);
    if (!r) {
      pending_.clear();
      return r.error();
    }
    return {};
  }
  bool idle() const { return pending_.empty(); }

 private:
  BufChain pending_;
};

}  // namespace moq::session::ietf_session
