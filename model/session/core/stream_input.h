// StreamInput: the receiving half of one stream, as both session engines read it.
//
// It hands out the stream's chunks one at a time and decodes items (control messages, stream
// and data headers) from the front of the current chunk without copying it. An item split
// across chunks is assembled in a small stash (the rare path, control plane only); payload is
// sliced out of the chunks by reference. hold() parks chunks unparsed (a moq-transport subgroup
// stream whose track alias is not bound yet): they are parsed later, in order, before anything
// still in the transport.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/transport.h"

namespace moq::session::core {

// What next() found.
enum class In : uint8_t {
  Message,    // out holds the next item
  Pending,    // nothing complete yet; the waiter is armed on the stream
  Fin,        // the peer finished the stream at an item boundary
  Reset,      // the peer reset the stream: code()
  Closed,     // the connection closed or the stream was stopped locally: code()
  Malformed,  // error() names the message and field (the session closes with error().code)
};

class StreamInput {
 public:
  StreamInput() = default;
  explicit StreamInput(RecvStreamPtr stream) : stream_(std::move(stream)) {}

  void attach(RecvStreamPtr stream) { stream_ = std::move(stream); }
  bool attached() const { return stream_ != nullptr; }
  RecvStream& stream() { return *stream_; }
  WaitList& readable() { return stream_->readable(); }
  // Drops the stream and every byte read, keeping the buffers' capacity.
  void clear();

  // Makes the current chunk non-empty: Data, or WouldBlock / Fin / Reset / Error (code()).
  // Control messages and headers read one chunk per read, which is what their streams carry (a
  // vectored read costs more for a single chunk); chunks a data stream's vectored read left
  // unparsed (chunks()) come first.
  ReadStatus fill() {
    if (!cur_.empty()) return ReadStatus::Data;
    if (!held_.empty()) {
      held_.pop_front(cur_);
      return ReadStatus::Data;
    }
    if (end_) return *end_;
    const ReadResult r = stream_->read(cur_);
    if (r.status == ReadStatus::Data) [[likely]]
      return cur_.empty() ? ReadStatus::WouldBlock : r.status;
    return ended(r);
  }
  // The chunks read and not parsed yet, in order, for a data stream's per-frame path, which
  // parses them in place and then clear()s them: filled by one vectored read when empty. Data
  // when it holds chunks, else how the stream stands (WouldBlock, or how it ended). What is left
  // of the current chunk comes first: take it with take_current() before.
  ReadStatus chunks(BufChain*& out) {
    out = &held_;
    if (!held_.empty()) return ReadStatus::Data;
    if (end_) return *end_;
    const ReadResult r = read_more();
    return r.status == ReadStatus::Data ? r.status : ended(r);
  }
  // Moves what is left of the current chunk into out (a data stream's first payload bytes,
  // which arrived with its header); false when nothing is left. A data stream then reads its
  // chunks with chunks(), the per-frame path.
  bool take_current(Bytes& out) {
    if (cur_.empty()) return false;
    out = std::move(cur_);
    return true;
  }
  // Reads chunks into the held list without parsing, up to max_bytes held (beyond it the
  // stream keeps its flow-control credit): WouldBlock while more may come, else how the stream
  // ended (a reset is seen even when nothing more is read).
  ReadStatus hold(size_t max_bytes);

  Bytes& current() { return cur_; }
  // An item is being decoded one chunk at a time: the current chunk or the stash holds bytes.
  // A parser of chunks() in place must let next()/decode() finish it first.
  bool decoding_partial() const { return !cur_.empty() || !stash_.empty(); }
  // Bytes of a partly decoded item, or of a chunk not consumed yet, remain.
  bool has_partial() const { return !cur_.empty() || !stash_.empty() || !held_.empty(); }
  uint64_t code() const { return code_; }
  Error& error() { return error_; }

  // Decodes one item from the front with fn(span) -> Decoded<T>. Ok consumes it; NeedMore keeps
  // the bytes (in the stash) for the next call after fill(); Malformed consumes nothing. Spans
  // inside the result point into the input and are valid until the next call.
  template <class F>
  auto decode(F&& fn) {
    if (stash_.empty()) [[likely]] {
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

  // Decodes the next item with decode(span) -> Decoded<T>, reading chunks as needed; waiter is
  // armed when Pending. name is the item expected, for the error when the stream ends inside it.
  template <class T, class Decode>
  In next(Waiter& waiter, const char* name, Decode&& decode_fn, T& out) {
    return next_in_place(waiter, name, [&](std::span<const uint8_t> bytes) {
      auto d = decode_fn(bytes);
      if (d.status == DecodeStatus::Ok) out = std::move(d.value);
      return d;
    });
  }
  // The same with a decoder that writes the item into its own target (decode(span) ->
  // Decoded<X>, X unused): a target kept between items keeps its storage.
  template <class Decode>
  In next_in_place(Waiter& waiter, const char* name, Decode&& decode_fn) {
    for (;;) {
      switch (fill()) {
        case ReadStatus::Data: {
          auto d = decode(decode_fn);
          if (d.status == DecodeStatus::Ok) return In::Message;
          if (d.status == DecodeStatus::Malformed) {
            error_ = std::move(d.error);
            return In::Malformed;
          }
          continue;  // NeedMore: the rest is in a later chunk
        }
        case ReadStatus::WouldBlock:
          waiter.wait(readable());
          return In::Pending;
        case ReadStatus::Fin:
          if (has_partial()) {
            ended_inside(name);
            return In::Malformed;
          }
          return In::Fin;
        case ReadStatus::Reset:
          return In::Reset;
        case ReadStatus::Error:
          return In::Closed;
      }
    }
  }

  // Reads and discards until the peer ends its half (FIN, reset or error): true then, counting
  // a reset in resets_received; false while it has not (waiter armed).
  bool drain(Waiter& waiter, uint64_t& resets_received);

 private:
  ReadStatus ended(const ReadResult& r) {
    if (r.status != ReadStatus::WouldBlock) {
      end_ = r.status;
      code_ = r.code;
      // A spent chunk goes with the stream's end: a task that outlives its stream (a fetch
      // until its consumer is done) would keep one of the peer's arena blocks out of its pool.
      // (Not one with bytes left: hold() reads on while the current chunk waits unparsed.)
      if (cur_.empty()) cur_.reset();
    }
    return r.status;
  }
  void ended_inside(const char* name);
  // One vectored read into held_ (empty): Data when it holds chunks now.
  ReadResult read_more() {
    const ReadResult r = stream_->read_all(held_);
    if (r.status == ReadStatus::Data && held_.empty()) [[unlikely]]
      return {ReadStatus::WouldBlock};
    return r;
  }

  RecvStreamPtr stream_;
  Bytes cur_;
  BufChain held_;
  std::vector<uint8_t> stash_;
  std::optional<ReadStatus> end_;
  uint64_t code_ = 0;
  Error error_;
};

}  // namespace moq::session::core
