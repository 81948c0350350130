// BufChain: an ordered list of Bytes written as one gather write (header bytes plus payload
// references). Consuming from the front never copies payload; storage is reused after clear().
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "model/base/bytes.h"

namespace moq {

class BufChain {
 public:
  // Two overloads rather than one by-value parameter: a per-chunk path, and the by-value form
  // costs an extra move and destructor call per push.
  // A full chain takes the out-of-line path (make room, or grow): the inline path is then a
  // compare and a store, with no register spills for the growth code.
  void push(const Bytes& b) {
    if (b.empty()) return;
    if (full()) [[unlikely]]
      return push_into_full(Bytes(b));
    size_ += b.size();
    chunks_.push_back(b);
  }
  void push(Bytes&& b) {
    if (b.empty()) return;
    if (full()) [[unlikely]]
      return push_into_full(std::move(b));
    size_ += b.size();
    chunks_.push_back(std::move(b));
  }
  // Moves every chunk of from to the back of this chain and leaves from empty. An empty chain
  // takes from's storage whole and gives its own in exchange, first growing its own to the size
  // of from's if it is smaller: a queue handed along this way costs nothing per chunk, and no
  // chain ever gets back less storage than it had, so chains that exchange storage every round
  // stop allocating once each has grown to the largest (after the first rounds).
  void take_all(BufChain& from) {
    if (from.empty()) return;
    if (empty()) [[likely]] {
      chunks_.clear();
      if (chunks_.capacity() < from.chunks_.capacity()) [[unlikely]]
        chunks_.reserve(from.chunks_.capacity());
      chunks_.swap(from.chunks_);
      std::swap(head_, from.head_);
      size_ = from.size_;
      from.size_ = 0;
      return;
    }
    append_moved(from);
  }
  // Moves the first n bytes (n < size()) to the back of to: the whole chunks among them in
  // one block, the chunk the cut falls in split in two (one reference more). A stream written
  // past its window hands over its queue this way once per credit return; chunk by chunk, each
  // move would pay a push and a pop of its own.
  void move_front_to(BufChain& to, size_t n) {
    Bytes* const first = chunks_.data() + head_;
    Bytes* cut = first;
    size_t whole = 0;
    while (whole + cut->size() <= n)
      whole += (cut++)->size();
    const size_t count = static_cast<size_t>(cut - first);
    to.make_room(count + 1);
    to.chunks_.insert(to.chunks_.end(), std::make_move_iterator(first),
                      std::make_move_iterator(cut));
    head_ += count;  // the slots moved from hold empty views until they are reused
    if (whole < n) {
      to.chunks_.push_back(cut->sub(0, n - whole));
      cut->advance(n - whole);
    }
    to.size_ += n;
    size_ -= n;
  }
  void append(const BufChain& other) {
    for (const Bytes& b : other.chunks())
      push(b);
  }
  bool empty() const { return size_ == 0; }
  // Total bytes not yet consumed.
  size_t size() const { return size_; }
  size_t chunk_count() const { return chunks_.size() - head_; }
  // Chunk slots the storage has (for tests of its growth).
  size_t capacity() const { return chunks_.capacity(); }
  std::span<const Bytes> chunks() const { return {chunks_.data() + head_, chunks_.size() - head_}; }
  Bytes& front() { return chunks_[head_]; }
  // For moving the chunks out; the caller then clear()s the chain.
  std::span<Bytes> mutable_chunks() { return {chunks_.data() + head_, chunks_.size() - head_}; }

  // Removes and returns up to max bytes from the front as one slice (no copy).
  Bytes take_front(size_t max) {
    Bytes& f = chunks_[head_];
    if (f.size() <= max) {
      Bytes out = std::move(f);
      size_ -= out.size();
      pop();
      return out;
    }
    Bytes out = f.slice(0, max);
    f.advance(max);
    size_ -= max;
    return out;
  }
  // Moves the front chunk into out, releasing what out held: one chunk read.
  void pop_front(Bytes& out) {
    Bytes& f = chunks_[head_];
    size_ -= f.size();
    out = std::move(f);
    advance_head();
  }
  // Releases the first n chunks, which a caller parsing mutable_chunks() in place got through,
  // and recounts the bytes of those left.
  void drop_front_chunks(size_t n) {
    for (size_t i = 0; i < n; ++i)
      chunks_[head_ + i].reset();
    head_ += n;
    size_ = 0;
    for (const Bytes& b : chunks())
      size_ += b.size();
    if (head_ == chunks_.size()) clear();
  }
  // Drops n bytes from the front.
  void consume(size_t n) {
    while (n > 0 && head_ < chunks_.size()) {
      Bytes& f = chunks_[head_];
      if (f.size() <= n) {
        n -= f.size();
        size_ -= f.size();
        pop();
      } else {
        f.advance(n);
        size_ -= n;
        n = 0;
      }
    }
  }
  void clear() {
    chunks_.clear();
    head_ = 0;
    size_ = 0;
  }

 private:
  // Moves what is left to the front of the storage.
  void compact() {
    if (head_ == 0) return;
    std::move(chunks_.begin() + static_cast<std::ptrdiff_t>(head_), chunks_.end(), chunks_.begin());
    chunks_.resize(chunks_.size() - head_);
    head_ = 0;
  }
  bool full() const { return chunks_.size() == chunks_.capacity(); }
  // A chain consumed from the front while it is pushed onto (a stream's queue that never
  // drains) would grow for ever: once full, it moves what is left to the front when that frees
  // at least half of it, and grows otherwise.
  [[gnu::noinline]] void push_into_full(Bytes&& b) {
    make_room(1);
    size_ += b.size();
    chunks_.push_back(std::move(b));
  }
  // Before pushing count chunks onto a chain that lacks the slots: compacts when that frees at
  // least half of it, so that the vector grows only when what is queued needs it.
  void make_room(size_t count) {
    if (chunks_.size() + count > chunks_.capacity() && head_ > 0 && 2 * head_ >= chunks_.size())
      compact();
  }
  // take_all() onto chunks: the chunks of from moved in one block.
  [[gnu::noinline]] void append_moved(BufChain& from) {
    const std::span<Bytes> moved = from.mutable_chunks();
    make_room(moved.size());
    chunks_.insert(chunks_.end(), std::make_move_iterator(moved.begin()),
                   std::make_move_iterator(moved.end()));
    size_ += from.size_;
    from.clear();
  }
  void pop() {
    chunks_[head_].reset();
    advance_head();
  }
  // Past the front chunk, which holds nothing now. The last one gone, the storage is reset for
  // reuse (capacity kept); a chain of one chunk, as a control stream's queue mostly is, just
  // drops it. Compared as iterators: the vector's size() would divide by sizeof(Bytes).
  void advance_head() {
    ++head_;
    if (chunks_.begin() + static_cast<std::ptrdiff_t>(head_) != chunks_.end()) return;
    if (head_ == 1) {
      chunks_.pop_back();
    } else {
      chunks_.clear();
    }
    head_ = 0;
  }
  std::vector<Bytes> chunks_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace moq
