// Outbox: the sending half of one stream, as both session engines write it. Everything a task
// sends (control messages, header bytes from the arena, payload references) is pushed into one
// gather list and written with one write(); what flow control does not take stays queued, in
// order, for the next flush, in the same list (no copy, and the list keeps its capacity).
#pragma once

#include <cstdint>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/result.h"
#include "model/transport.h"

namespace moq::session::core {

enum class Flush : uint8_t {
  Done,     // everything queued was written
  Pending,  // the rest waits for credit; the waiter is armed on writable()
  Failed,   // the peer stopped the stream or the connection closed: error()
};

class Outbox {
 public:
  void push(const Bytes& b) { chain_.push(b); }
  void push(Bytes&& b) { chain_.push(std::move(b)); }
  BufChain& chain() { return chain_; }
  bool idle() const { return chain_.empty(); }
  void clear() { chain_.clear(); }

  Flush flush(SendStream& stream, Waiter& waiter) {
    if (chain_.empty()) return Flush::Done;
    Result<size_t> r = stream.write(chain_);
    if (!r.ok()) [[unlikely]] {
      chain_.clear();
      error_ = r.error();
      return Flush::Failed;
    }
    if (chain_.empty()) [[likely]]
      return Flush::Done;
    // What waits stays where it is: moving it to the front on every partial write would cost
    // the whole queue once per credit return (quadratic in a group larger than the window).
    // The chain reuses its written slots itself when it fills (BufChain::push_into_full).
    waiter.wait(stream.writable());
    return Flush::Pending;
  }
  const Error& error() const { return error_; }

 private:
  BufChain chain_;
  Error error_;
};

}  // namespace moq::session::core
