// Ring<T>: a growable circular FIFO with indexed access that keeps its storage. Unlike
// std::deque it never frees or reallocates while elements cycle through (push_back / pop_front),
// so a queue or cache that has reached its steady-state depth allocates nothing.
//
// Every slot not in use holds an empty T: pop_front() moves the front out, which must leave the
// slot empty (true of Bytes, Ref and the other handles stored in rings; a raw pointer's stale
// value is never read). push_back() swaps the value into that empty slot where T has a member
// swap, the cheapest move for such types, and leaves the argument empty.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace moq {

template <class T>
class Ring {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  bool full() const { return size_ == capacity_; }

  // i-th element from the front, i < size().
  T& operator[](size_t i) { return slots_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return slots_[(head_ + i) & mask_]; }
  T& front() { return slots_[head_]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void push_back(T&& value) {
    if (full()) [[unlikely]]
      grow();
    T& slot = (*this)[size_];
    if constexpr (requires { slot.swap(value); }) {
      slot.swap(value);
    } else {
      slot = std::move(value);
    }
    ++size_;
  }
  void push_back(const T& value) { push_back(T(value)); }
  // Moves the front element out (what it held is released when the result goes).
  T pop_front() {
    T out = std::move(slots_[head_]);
    advance();
    return out;
  }
  // Releases every element; keeps the capacity.
  void clear() {
    while (size_ > 0)
      (void)pop_front();
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
      bigger[i] = std::move((*this)[i]);
    slots_.swap(bigger);
    capacity_ = slots_.size();
    mask_ = capacity_ - 1;
    head_ = 0;
  }

  std::vector<T> slots_;  // size is zero or a power of two
  size_t capacity_ = 0;   // slots_.size(), kept at hand for the per-push check
  size_t mask_ = 0;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace moq
