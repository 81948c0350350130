// A connected pair over sim/memory and one uni stream between them, for the core tests.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "sim/clock.h"
#include "sim/memory/memory_transport.h"

namespace moq::session::core::testing {

struct StreamPair {
  explicit StreamPair(sim::memory::PairConfig cfg = {}) {
    cfg.alpn = "test";
    conns = std::move(sim::memory::make_pair(executor, cfg).value());
    send = std::move(conns.client->open_uni().value());
    EXPECT_TRUE(send);
    write("");  // nothing yet: the stream exists once the peer accepts it
    recv = std::move(conns.server->accept_uni().value());
    EXPECT_TRUE(recv);
  }
  // Writes text as one chunk (empty: nothing).
  void write(std::string_view text) {
    if (text.empty()) return;
    BufChain c;
    c.push(Bytes::copy(text));
    ASSERT_TRUE(send->write(c).ok());
    ASSERT_TRUE(c.empty());
  }

  sim::VirtualClock clock;
  Executor executor{clock};
  sim::memory::ConnectionPair conns;
  SendStreamPtr send;
  RecvStreamPtr recv;
};

// A task that only owns waiters (the tests poll by hand).
class IdleTask final : public Task {
 public:
  explicit IdleTask(Executor& ex) : Task(ex, "test task") {}
  Poll poll() override { return Poll::Pending; }
};

}  // namespace moq::session::core::testing
