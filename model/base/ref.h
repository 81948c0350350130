// Ref<T>: an intrusive, non-atomic reference to a shared state object of the data model.
//
// The stack is single-threaded, so counts are plain integers. A state type T provides
// `void add_ref()` and `void release()`; release() decides what the last reference means
// (delete, or return to a pool). Handles (GroupProducer, TrackConsumer, ...) hold a Ref to their
// state; no state holds a Ref to anything above it, so there are no cycles to break.
#pragma once

#include <cstdint>
#include <utility>

#include "model/base/ref_count_probe.h"

namespace moq {

template <class T>
class Ref {
 public:
  Ref() = default;
  // Takes a new reference on p (the caller's reference, if any, is not consumed).
  explicit Ref(T* p) : p_(p) {
    if (p_) {
      ref_count_probe::count();
      p_->add_ref();
    }
  }
  Ref(const Ref& o) : Ref(o.p_) {}
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  // Copy and swap: safe on self-assignment, which clang-tidy 14 does not recognise here.
  Ref& operator=(const Ref& o) {  // NOLINT(bugprone-unhandled-self-assignment)
    Ref tmp(o);
    swap(tmp);
    return *this;
  }
  Ref& operator=(Ref&& o) noexcept {
    Ref tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~Ref() { reset(); }

  void reset() {
    if (T* p = std::exchange(p_, nullptr)) {
      ref_count_probe::count();
      p->release();
    }
  }
  void swap(Ref& o) noexcept { std::swap(p_, o.p_); }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool operator==(const Ref& o) const { return p_ == o.p_; }

 private:
  T* p_ = nullptr;
};

}  // namespace moq
