// Two QUIC endpoints over simulated links on the virtual clock (sim/quic/memnet.h): a client and
// a server with a self-signed certificate the client trusts, and helpers to run the executor.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "sim/clock.h"
#include "sim/quic/endpoint.h"
#include "sim/quic/memnet.h"

namespace moq::sim::quic::testing {

inline Bytes pattern(size_t n, uint8_t seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i)
    s[i] = static_cast<char>((i * 131 + seed * 7) & 0xff);
  return Bytes::copy(s);
}

template <class T>
T ok(Result<T> r) {
  EXPECT_TRUE(r.ok()) << r.error().message;
  if (!r.ok()) return T{};
  return std::move(r.value());
}

// Counts how often a wait list woke it; re-arms after each wake.
class WakeCounter final : public Task {
 public:
  WakeCounter(Executor& ex, WaitList& list)
      : Task(ex, "wake counter"), waiter_(*this), list_(&list) {
    waiter_.wait(list);
  }
  Poll poll() override {
    ++wakes;
    waiter_.wait(*list_);
    return Poll::Pending;
  }
  int wakes = 0;

 private:
  Waiter waiter_;
  WaitList* list_;
};

class QuicTest : public ::testing::Test {
 protected:
  static constexpr const char* kAlpn = "moq-lite-06";

  QuicTest() : executor_(clock_) {}

  // Builds the network and both endpoints; call before connect().
  void build(QuicSettings server_settings = {}, QuicSettings client_settings = {},
             const MemnetConfig& net = {}) {
    client_.reset();
    server_.reset();
    client_ep_.reset();
    server_ep_.reset();
    net_ = std::make_unique<Memnet>(executor_, net);
    identity_ = ok(TlsIdentity::self_signed());
    server_ep_ =
        std::make_unique<QuicEndpoint>(executor_, net_->socket(), server_entropy_, server_settings);
    server_ep_->listen(identity_, {"moq-transport-18", kAlpn});
    client_ep_ =
        std::make_unique<QuicEndpoint>(executor_, net_->socket(), client_entropy_, client_settings);
  }

  std::shared_ptr<TlsTrust> trust_server() {
    return ok(TlsTrust::of_pem(identity_->certificate_pem()));
  }

  // A client connection and the server's accepted side, both established.
  void connect(const std::string& alpn = kAlpn) {
    client_ = ok(client_ep_->connect(server_address(), alpn, trust_server()));
    ASSERT_TRUE(client_);
    run([&] {
      if (!server_) server_ = server_ep_->accept();
      return (client_->established() && server_) || client_->close_error();
    });
    ASSERT_FALSE(client_->close_error()) << client_->close_error()->message;
    ASSERT_TRUE(server_);
  }

  const Address& server_address() { return server_ep_->socket().local_address(); }

  template <class Pred>
  void run(Pred&& done) {
    Status st = executor_.run_until(done, 5'000'000);
    ASSERT_TRUE(st.ok()) << st.error().message;
  }
  // Lets the exchange settle for a virtual duration.
  void run_for(uint64_t ns) { executor_.advance_to(clock_.now_ns() + ns); }

  // The next uni stream the peer opened on c, running the executor until one comes.
  RecvStreamPtr next_uni(QuicConnection& c) {
    RecvStreamPtr r;
    run([&] { return (r = ok(c.accept_uni())) != nullptr; });
    return r;
  }

  // Reads the stream to its end (or error) while running the executor.
  std::string read_all(RecvStream& r, ReadResult* end = nullptr) {
    std::string out;
    ReadResult last{ReadStatus::WouldBlock};
    run([&] {
      for (;;) {
        Bytes chunk;
        last = r.read(chunk);
        if (last.status == ReadStatus::Data) {
          out.append(chunk.view());
          continue;
        }
        return last.status != ReadStatus::WouldBlock;
      }
    });
    if (end) *end = last;
    return out;
  }

  // Writes all of data (waiting for credit) and, if fin, finishes.
  void write_all(SendStream& s, const Bytes& data, bool fin = true) {
    BufChain chain;
    chain.push(data);
    run([&] {
      Result<size_t> n = s.write(chain);
      EXPECT_TRUE(n.ok()) << n.error().message;
      return !n.ok() || chain.empty();
    });
    if (fin) {
      ASSERT_TRUE(s.finish().ok());
    }
  }

  VirtualClock clock_;
  Executor executor_;
  SeededEntropy client_entropy_{1}, server_entropy_{2};
  std::unique_ptr<Memnet> net_;
  std::shared_ptr<TlsIdentity> identity_;
  std::unique_ptr<QuicEndpoint> server_ep_, client_ep_;
  std::unique_ptr<QuicConnection> client_, server_;
};

}  // namespace moq::sim::quic::testing
