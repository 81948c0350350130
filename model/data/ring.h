// Ring<T>: a growable circular FIFO with indexed access. Unlike std::deque it keeps its storage
// when elements cycle through (push_back / pop_front), so a steady-state cache allocates nothing.
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
  // i-th element from the front, i < size().
  T& operator[](size_t i) { return slots_[(head_ + i) & (slots_.size() - 1)]; }
  const T& operator[](size_t i) const { return slots_[(head_ + i) & (slots_.size() - 1)]; }
  T& front() { return (*this)[0]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void push_back(T value) {
    if (size_ == slots_.size()) grow();
    (*this)[size_] = std::move(value);
    ++size_;
  }
  // Removes the front element, leaving a default-constructed T in its slot (releases what it
  // held now, not when the slot is reused).
  void pop_front() {
    slots_[head_] = T();
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
  }
  void clear() {
    while (size_ > 0)
      pop_front();
    head_ = 0;
  }

 private:
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 8 : slots_.size() * 2);
    for (size_t i = 0; i < size_; ++i)
      bigger[i] = std::move((*this)[i]);
    slots_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;  // size is zero or a power of two
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace moq
