#include "model/base/bytes.h"

#include <new>

namespace moq {

Block* Block::allocate(size_t capacity, BlockPool* pool) {
  void* mem = ::operator new(sizeof(Block) + capacity);
  return new (mem) Block{0, static_cast<uint32_t>(capacity), pool};
}

void Block::release() {
  if (pool) {
    pool->give_back(this);
  } else {
    ::operator delete(this);
  }
}

Bytes Bytes::copy(std::span<const uint8_t> data) {
  if (data.empty()) return Bytes();
  Block* b = Block::allocate(data.size(), nullptr);
  std::memcpy(b->data(), data.data(), data.size());
  return Bytes(b, b->data(), data.size());
}

Block* BlockPool::take() {
  if (!free_) [[unlikely]] {
    // Dry: grow geometrically (as many new blocks as are out, at least kFirstBlocks), so that
    // the pool is sized by the first rounds that need it, not by a later round that happens to
    // straddle one more block boundary.
    const uint32_t grow = outstanding_ > kFirstBlocks ? outstanding_ : kFirstBlocks;
    for (uint32_t i = 0; i < grow; ++i)
      put_idle(Block::allocate(block_size_, this));
  }
  Block* b = free_;
  free_ = reinterpret_cast<Block*>(b->pool);
  b->pool = this;
  --idle_;
  ++outstanding_;
  return b;
}

void BlockPool::put_idle(Block* b) {
  b->pool = reinterpret_cast<BlockPool*>(free_);
  free_ = b;
  ++idle_;
}

void BlockPool::give_back(Block* b) {
  --outstanding_;
  if (closed_) {
    ::operator delete(b);
    if (outstanding_ == 0) delete this;
    return;
  }
  put_idle(b);
}

void BlockPool::close() {
  closed_ = true;
  idle_ = 0;
  while (free_) {
    Block* next = reinterpret_cast<Block*>(free_->pool);
    ::operator delete(free_);
    free_ = next;
  }
  if (outstanding_ == 0) delete this;
}

ByteArena::~ByteArena() {
  if (current_) current_->unref();
  if (oversize_) oversize_->unref();
  pool_->close();
}

uint8_t* ByteArena::reserve(size_t max) {
  if (max > pool_->block_size()) {
    if (oversize_) oversize_->unref();
    oversize_ = Block::allocate(max, nullptr);
    ref_count_probe::count();
    oversize_->refs = 1;
    return oversize_->data();
  }
  // A current block that only the arena still holds is rewound: every slice of it is gone, so
  // a round that follows one whose bytes were all consumed starts at the same place, and the
  // blocks it needs do not depend on where the rounds before it left off.
  if (current_ && current_->refs == 1) used_ = 0;
  if (!current_ || current_->capacity - used_ < max) {
    if (current_) current_->unref();
    current_ = pool_->take();
    ref_count_probe::count();
    current_->refs = 1;
    used_ = 0;
  }
  return current_->data() + used_;
}

Bytes ByteArena::commit(size_t n) {
  if (oversize_) {
    Bytes out(oversize_, oversize_->data(), n);
    oversize_->unref();
    oversize_ = nullptr;
    return out;
  }
  Bytes out(current_, current_->data() + used_, n);
  used_ += static_cast<uint32_t>(n);
  return out;
}

}  // namespace moq
