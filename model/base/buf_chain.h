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
  void push(const Bytes& b) {
    if (b.empty()) return;
    size_ += b.size();
    chunks_.push_back(b);
  }
  void push(Bytes&& b) {
    if (b.empty()) return;
    size_ += b.size();
    chunks_.push_back(std::move(b));
  }
  void append(const BufChain& other) {
    for (const Bytes& b : other.chunks())
      push(b);
  }
  bool empty() const { return size_ == 0; }
  // Total bytes not yet consumed.
  size_t size() const { return size_; }
  size_t chunk_count() const { return chunks_.size() - head_; }
  std::span<const Bytes> chunks() const { return {chunks_.data() + head_, chunks_.size() - head_}; }
  Bytes& front() { return chunks_[head_]; }

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

  // Moves what is left to the front of the storage. A chain that is written while it grows (a
  // stream past its flow-control window) may never drain completely; its owner compacts it after
  // a partial write so that the consumed slots are reused instead of the vector growing.
  void compact() {
    if (head_ == 0) return;
    std::move(chunks_.begin() + static_cast<std::ptrdiff_t>(head_), chunks_.end(), chunks_.begin());
    chunks_.resize(chunks_.size() - head_);
    head_ = 0;
  }

 private:
  void pop() {
    chunks_[head_].reset();
    if (++head_ == chunks_.size()) {
      chunks_.clear();  // keeps capacity
      head_ = 0;
    }
  }
  std::vector<Bytes> chunks_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace moq
