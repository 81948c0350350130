// Bytes: a refcounted, shareable, sliceable view of an immutable byte block. Copying a Bytes or
// slicing it never copies payload. Refcounts are not atomic: the stack is single-threaded.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "model/base/ref_count_probe.h"

namespace moq {

class BlockPool;

// A heap block with its bytes stored right after the header.
struct Block {
  uint32_t refs;
  uint32_t capacity;
  BlockPool* pool;  // where the block returns when the last reference drops; null: freed
  uint8_t* data() { return reinterpret_cast<uint8_t*>(this + 1); }

  static Block* allocate(size_t capacity, BlockPool* pool);
  // Inline: every Bytes destructor runs it, and only the last reference has work to do.
  void unref() { unref(1); }
  // Gives back n references at once: one count operation.
  void unref(uint32_t n) {
    ref_count_probe::count();
    refs -= n;
    if (refs == 0) [[unlikely]]
      release();
  }

 private:
  // The last reference went: back to the pool, or freed.
  void release();
};

class Bytes {
 public:
  Bytes() = default;
  // Takes one reference on block (the caller's reference is shared, not stolen).
  Bytes(Block* block, const uint8_t* data, size_t size) : block_(block), data_(data), size_(size) {
    if (block_) {
      ref_count_probe::count();
      ++block_->refs;
    }
  }
  Bytes(const Bytes& o) : Bytes(o.block_, o.data_, o.size_) {}
  Bytes(Bytes&& o) noexcept : block_(o.block_), data_(o.data_), size_(o.size_) {
    o.block_ = nullptr;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  Bytes& operator=(const Bytes& o) {
    if (this != &o) {
      Bytes tmp(o);
      swap(tmp);
    }
    return *this;
  }
  Bytes& operator=(Bytes&& o) noexcept {
    if (this != &o) {
      if (block_) block_->unref();
      block_ = o.block_;
      data_ = o.data_;
      size_ = o.size_;
      o.block_ = nullptr;
      o.data_ = nullptr;
      o.size_ = 0;
    }
    return *this;
  }
  ~Bytes() {
    if (block_) block_->unref();
  }

  // One allocation holding a copy of data.
  static Bytes copy(std::span<const uint8_t> data);
  static Bytes copy(std::string_view text) {
    return copy({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
  }

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<const uint8_t> span() const { return {data_, size_}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), size_}; }
  uint8_t operator[](size_t i) const { return data_[i]; }

  // A view of [offset, offset + length) sharing the same block. Clamped to the valid range.
  // Inline: the encoders slice one header per frame.
  Bytes slice(size_t offset, size_t length) const {
    if (offset > size_) offset = size_;
    if (length > size_ - offset) length = size_ - offset;
    return Bytes(block_, data_ + offset, length);
  }
  Bytes slice(size_t offset) const { return slice(offset, size_ > offset ? size_ - offset : 0); }
  // slice() of a range the caller knows lies within this view (a chain splitting a chunk at a
  // write's cut, a payload set cutting its frames): no clamping; checked in debug builds. A
  // batch of slices cut one after another takes SliceCutter, which counts once for them all.
  Bytes sub(size_t offset, size_t length) const {
    assert(offset <= size_ && length <= size_ - offset);
    return Bytes(block_, data_ + offset, length);
  }
  // Drops the first n bytes of this view (clamped).
  void advance(size_t n) {
    if (n > size_) n = size_;
    data_ += n;
    size_ -= n;
  }
  void reset() { *this = Bytes(); }

  bool operator==(const Bytes& o) const {
    return size_ == o.size_ && (size_ == 0 || std::memcmp(data_, o.data_, size_) == 0);
  }
  void swap(Bytes& o) noexcept {
    std::swap(block_, o.block_);
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }
  // Number of Bytes sharing this block (for tests of zero-copy behaviour).
  uint32_t share_count() const { return block_ ? block_->refs : 0; }

 private:
  friend class SliceCutter;
  friend class ReleaseRun;
  struct Adopt {};
  // Takes over a reference the caller already holds on block.
  Bytes(Adopt, Block* block, const uint8_t* data, size_t size)
      : block_(block), data_(data), size_(size) {}

  Block* block_ = nullptr;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// Cuts consecutive slices from the front of a view with one reference-count operation for all
// of them: the references are taken together up front and each slice adopts one; those not cut
// are given back together. An encoder that wrote many headers into one arena reservation hands
// them out this way, so a frame's header costs its block no count of its own.
class SliceCutter {
 public:
  SliceCutter(const Bytes& whole, uint32_t count)
      : block_(whole.block_), at_(whole.data_), left_(count) {
    if (block_ && left_ > 0) {
      ref_count_probe::count();
      block_->refs += left_;
    }
  }
  ~SliceCutter() {
    if (block_ && left_ > 0) block_->unref(left_);
  }
  SliceCutter(const SliceCutter&) = delete;
  SliceCutter& operator=(const SliceCutter&) = delete;

  // The next length bytes of the view (the caller cuts the lengths it wrote), as one of the
  // slices counted at construction. The cutter keeps copies of the view's fields rather than a
  // reference to it, so that an encoder's loop holds them in registers.
  Bytes next(size_t length) {
    assert(left_ > 0);
    --left_;
    Bytes out(Bytes::Adopt{}, block_, at_, length);
    at_ += length;
    return out;
  }

 private:
  Block* block_;
  const uint8_t* at_;
  uint32_t left_;
};

// Gives back the references of views a parser has read through, each run of consecutive ones
// of one block with one count operation, when it goes out of scope or at flush(): a viewer that
// decoded a stream's headers out of a sender's arena block releases them per block read, not
// per header.
class ReleaseRun {
 public:
  ReleaseRun() = default;
  ~ReleaseRun() { flush(); }
  ReleaseRun(const ReleaseRun&) = delete;
  ReleaseRun& operator=(const ReleaseRun&) = delete;

  // Takes over the reference of v, which is consumed (empty); v holds none after this.
  void take(Bytes& v) {
    assert(v.empty());
    Block* const b = v.block_;
    v.block_ = nullptr;
    if (b != run_) [[unlikely]] {
      flush();
      run_ = b;
    }
    ++refs_;
  }
  void flush() {
    if (run_) run_->unref(refs_);
    run_ = nullptr;
    refs_ = 0;
  }

 private:
  Block* run_ = nullptr;
  uint32_t refs_ = 0;
};

// Recycles fixed-size blocks so that steady-state encoding allocates nothing. It starts empty and,
// whenever it runs dry, doubles (as many new blocks as are out, kFirstBlocks at first): an arena
// that rolls over mid-round needs one block more than the round fills, and doubling leaves that
// spare from the first rounds on. A pool destroyed while blocks are still referenced lets those
// blocks free themselves when released.
class BlockPool {
 public:
  explicit BlockPool(uint32_t block_size) : block_size_(block_size) {}
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  static BlockPool* create(uint32_t block_size) { return new BlockPool(block_size); }
  // Ends the owner's use: frees idle blocks now, the pool itself once no block is out.
  void close();

  static constexpr uint32_t kFirstBlocks = 2;

  Block* take();
  uint32_t block_size() const { return block_size_; }
  uint32_t outstanding() const { return outstanding_; }
  uint32_t idle() const { return idle_; }

 private:
  friend struct Block;
  void give_back(Block* b);
  void put_idle(Block* b);
  ~BlockPool() = default;

  uint32_t block_size_;
  uint32_t outstanding_ = 0;
  uint32_t idle_ = 0;
  bool closed_ = false;
  Block* free_ = nullptr;  // free list threaded through Block::pool of idle blocks
};

// Appends small encodings (frame headers, control messages) into shared pooled blocks and hands
// out Bytes slices of them: one block serves many headers, and blocks are reused once every
// slice of them is gone. Not for payloads larger than the block size.
class ByteArena {
 public:
  explicit ByteArena(uint32_t block_size = 4096) : pool_(BlockPool::create(block_size)) {}
  ~ByteArena();
  ByteArena(const ByteArena&) = delete;
  ByteArena& operator=(const ByteArena&) = delete;

  // Space for at most max bytes; write into it, then commit(n) with n <= max.
  uint8_t* reserve(size_t max);
  // What a reservation can take from the current block without moving to the next one.
  size_t room() const { return current_ ? current_->capacity - used_ : 0; }
  Bytes commit(size_t n);
  Bytes copy(std::span<const uint8_t> data) {
    uint8_t* p = reserve(data.size());
    if (!data.empty()) std::memcpy(p, data.data(), data.size());
    return commit(data.size());
  }

 private:
  BlockPool* pool_;
  Block* current_ = nullptr;  // holds one reference while current
  uint32_t used_ = 0;
  Block* oversize_ = nullptr;  // a one-off block for a reservation larger than the block size
};

}  // namespace moq
