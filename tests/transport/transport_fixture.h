// Shared pieces of the sim/memory transport tests: a pair on a virtual-clock executor, payload
// helpers, and small tasks that write, read, open and accept the way session code will.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/transport.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"

namespace moq::sim::memory::testing {

// The value of a Result that must have succeeded (a test failure, and T{}, otherwise).
template <class T>
T ok(Result<T> r) {
  if (!r.ok()) {
    ADD_FAILURE() << "unexpected error " << r.error().code << ": " << r.error().message;
    return T{};
  }
  return std::move(r.value());
}

// n bytes of a seeded pattern, in one block.
inline Bytes pattern(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (char& c : s)
    c = static_cast<char>(rng());
  return Bytes::copy(s);
}

inline BufChain chain_of(std::initializer_list<Bytes> parts) {
  BufChain c;
  for (const Bytes& b : parts)
    c.push(b);
  return c;
}

// Everything a reader collected from one stream until it ended.
struct ReadLog {
  std::string data;
  std::vector<size_t> chunk_sizes;
  bool ended = false;
  ReadResult end{ReadStatus::WouldBlock};
};

// Reads the stream once, synchronously, until it would block or ends.
inline void drain(RecvStream& s, ReadLog& log, size_t max = SIZE_MAX) {
  for (;;) {
    Bytes chunk;
    ReadResult r = s.read(chunk, max);
    if (r.status == ReadStatus::WouldBlock) return;
    if (r.status != ReadStatus::Data) {
      log.ended = true;
      log.end = r;
      return;
    }
    log.data.append(chunk.view());
    log.chunk_sizes.push_back(chunk.size());
  }
}

class TransportTest : public ::testing::Test {
 protected:
  explicit TransportTest(PairConfig config = {}) : config_(std::move(config)) {
    Result<ConnectionPair> p = make_pair(ex_, config_);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
    if (p.ok()) pair_ = std::move(*p);
  }
  MemoryConnection& client() { return *pair_.client; }
  MemoryConnection& server() { return *pair_.server; }
  // Runs until every task is parked; fails the test if the budget runs out.
  void settle() {
    RunReport r = ex_.run_until_idle(1'000'000);
    EXPECT_FALSE(r.budget_exhausted) << r.detail;
  }

  VirtualClock clock_;
  Executor ex_{clock_};
  PairConfig config_;
  ConnectionPair pair_;
};

// Writes all of data (then FIN if asked), parking on writable() whenever flow control is short.
// Records in `order` its name each time it managed to write something.
class WriterTask : public Task {
 public:
  WriterTask(Executor& ex, const char* name, SendStream& s, Bytes data, bool fin,
             std::vector<std::string>* order = nullptr)
      : Task(ex, name), s_(s), fin_(fin), order_(order), waiter_(*this) {
    data_.push(std::move(data));
  }
  Poll poll() override {
    ++polls;
    while (!data_.empty()) {
      Result<size_t> n = s_.write(data_);
      if (!n.ok()) {
        error = n.error();
        return Poll::Done;
      }
      if (*n == 0) {
        ++parks;
        waiter_.wait(s_.writable());
        return Poll::Pending;
      }
      written += *n;
      if (order_) order_->push_back(name());
    }
    if (fin_) {
      Status st = s_.finish();
      if (!st.ok()) error = st.error();
    }
    finished = true;
    return Poll::Done;
  }

  size_t written = 0;
  size_t parks = 0;
  size_t polls = 0;
  bool finished = false;
  std::optional<Error> error;

 private:
  SendStream& s_;
  BufChain data_;
  bool fin_;
  std::vector<std::string>* order_;
  Waiter waiter_;
};

// Reads a stream to its end, parking on readable(); reads at most `max` bytes per poll when
// max_per_poll is set (a slow consumer).
class ReaderTask : public Task {
 public:
  ReaderTask(Executor& ex, RecvStream& s, size_t max_per_poll = SIZE_MAX)
      : Task(ex, "reader"), s_(s), max_per_poll_(max_per_poll), waiter_(*this) {}
  Poll poll() override {
    size_t budget = max_per_poll_;
    while (budget > 0) {
      Bytes chunk;
      ReadResult r = s_.read(chunk, budget);
      if (r.status == ReadStatus::WouldBlock) break;
      if (r.status != ReadStatus::Data) {
        log.ended = true;
        log.end = r;
        return Poll::Done;
      }
      log.data.append(chunk.view());
      log.chunk_sizes.push_back(chunk.size());
      budget -= chunk.size();
    }
    if (budget == 0) {
      wake();  // a slow consumer: yield, then read on
      return Poll::Pending;
    }
    waiter_.wait(s_.readable());
    return Poll::Pending;
  }

  ReadLog log;

 private:
  RecvStream& s_;
  size_t max_per_poll_;
  Waiter waiter_;
};

// Opens `count` uni streams, parking on can_open() at the stream limit; finishes each at once.
class OpenerTask : public Task {
 public:
  OpenerTask(Executor& ex, Connection& c, size_t count)
      : Task(ex, "opener"), c_(c), count_(count), waiter_(*this) {}
  Poll poll() override {
    while (opened.size() < count_) {
      Result<SendStreamPtr> s = c_.open_uni();
      if (!s.ok()) {
        error = s.error();
        return Poll::Done;
      }
      if (!*s) {
        ++parks;
        waiter_.wait(c_.can_open());
        return Poll::Pending;
      }
      EXPECT_TRUE((*s)->finish().ok());
      opened.push_back(std::move(*s));
    }
    return Poll::Done;
  }

  std::vector<SendStreamPtr> opened;
  size_t parks = 0;
  std::optional<Error> error;

 private:
  Connection& c_;
  size_t count_;
  Waiter waiter_;
};

}  // namespace moq::sim::memory::testing
