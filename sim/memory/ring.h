// A FIFO ring buffer that keeps its capacity: once it has grown to the steady-state depth, pushing
// and popping never allocate (std::deque frees and reallocates blocks as it moves).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace moq::sim::memory {

template <class T>
class Ring {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool full() const { return size_ == capacity_; }

  T& front() { return slots_[head_]; }
  void push_back(T&& value) {
    if (full()) [[unlikely]]
      grow();
    T& slot = slots_[(head_ + size_) & mask_];
    // The slot holds a default (empty) value: swapping it in is the cheapest move for types
    // with a member swap, and value leaves holding the empty one.
    if constexpr (requires { slot.swap(value); }) {
      slot.swap(value);
    } else {
      slot = std::move(value);
    }
    ++size_;
  }
  void push_back(const T& value) { push_back(T(value)); }
  // Moves the front element out.
  T pop_front() {
    T out = std::move(slots_[head_]);
    advance();
    return out;
  }
  // Drops the front element, which the caller already moved from (it holds nothing to release).
  void skip_moved_front() { advance(); }
  // Destroys every element's contents; keeps the capacity.
  void clear() {
    while (size_ > 0) {
      slots_[head_] = T();
      advance();
    }
    head_ = 0;
  }

 private:
  void advance() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }
  [[gnu::noinline]] void grow() {
    std::vector<T> bigger(slots_.empty() ? 8 : slots_.size() * 2);
    for (size_t i = 0; i < size_; ++i)
      bigger[i] = std::move(slots_[(head_ + i) & mask_]);
    slots_.swap(bigger);
    capacity_ = slots_.size();
    mask_ = capacity_ - 1;
    head_ = 0;
  }

  std::vector<T> slots_;  // size is zero or a power of two; every slot not in use is empty
  size_t capacity_ = 0;
  size_t mask_ = 0;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace moq::sim::memory
