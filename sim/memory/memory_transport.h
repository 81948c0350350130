// The deterministic in-memory transport: two Connection endpoints joined back to back in one
// process. It models what QUIC promises the application (ARCHITECTURE.md, "The transport
// interface and its worlds") and nothing of the wire: a write puts Bytes slices straight into
// the peer's receive queue (no copy, no task hop) as far as flow control allows, and the
// executor is used only to wake waiters.
//
// Semantics beyond transport.h that callers may rely on:
// - Flow control: a stream's sender may have at most stream_window bytes unread by the peer, and
//   one endpoint at most conn_window bytes unread over all its streams. Reading returns credit.
// - Strict priority: when connection credit is short, a writer that got less than it asked for
//   is owed that shortfall before any stream of lower send order (or of equal order that blocked
//   later) may use the credit; returning credit wakes the owed streams in that order.
// - Stream limits: an endpoint may have max_uni / max_bidi streams of its own open at once. A
//   stream gives its credit back once every receiving half is done: it read the FIN or the
//   reset, stopped, or dropped its handle.
// - reset(code) discards every byte the peer has not read yet: the reader sees the bytes it read
//   before, then Reset with the code. reset() after finish() fails (kStreamFinished).
// - stop(code) discards unread bytes; the sender's write() and finish() then fail with the code.
//   reset() after a stop succeeds and does nothing.
// - close(code, reason) fails everything on both endpoints. On the endpoint that closed, errors
//   carry transport_error::kConnectionClosed; on the peer they carry the peer's code. Queued
//   data, unaccepted streams and queued datagrams are discarded. Destroying a MemoryConnection
//   closes it with code 0 ("connection dropped") if it is still open.
// - read(chunk, 0) on a stream with data returns Data with an empty chunk.
// - Stream handles may outlive their connection objects; the shared state lives until the last
//   handle and both connections are gone. Stream state objects and their queues are pooled, so
//   a steady state of opening and finishing streams allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "model/async/executor.h"
#include "model/base/result.h"
#include "model/transport.h"

namespace moq::sim::net {
class Network;
}

namespace moq::sim::memory {

struct PairConfig {
  std::string alpn;                  // what alpn() reports on both endpoints
  uint64_t stream_window = 1 << 20;  // bytes one stream may have unread by the peer
  uint64_t conn_window = 16 << 20;   // bytes one endpoint may have unread over all its streams
  uint32_t max_uni = 1024;           // concurrent uni streams each endpoint may open
  uint32_t max_bidi = 128;           // concurrent bidi streams each endpoint may open
  size_t datagram_queue = 256;       // datagrams an endpoint holds unread before it drops
  size_t max_datagram_size = 1200;   // larger payloads fail with kDatagramTooLarge
  // The network model between the endpoints (sim/net/network.h); null, or an ideal link: none,
  // bytes are readable as soon as written. On a shaped link a write's bytes (and a datagram)
  // become readable at the arrival the link gives them, waking the reader then; datagrams may be
  // lost (counted in datagrams_dropped). Stream opening, FIN, resets, STOP_SENDING, credit and
  // close still take effect at once. The network must outlive both connections and every stream
  // handle of the pair.
  net::Network* network = nullptr;
};

namespace detail {
struct Core;
}

// One endpoint. Everything it shares with its peer lives in a detail::Core.
class MemoryConnection final : public Connection {
 public:
  MemoryConnection(detail::Core* core, uint8_t side) : core_(core), side_(side) {}
  MemoryConnection(const MemoryConnection&) = delete;
  MemoryConnection& operator=(const MemoryConnection&) = delete;
  ~MemoryConnection() override;

  Executor& executor() override;
  std::string_view alpn() const override;
  bool is_client() const override { return side_ == 0; }

  Result<SendStreamPtr> open_uni() override;
  Result<BidiStream> open_bidi() override;
  WaitList& can_open() override;

  Result<RecvStreamPtr> accept_uni() override;
  Result<BidiStream> accept_bidi() override;
  WaitList& incoming() override;

  Status send_datagram(Bytes payload) override;
  std::optional<Bytes> recv_datagram() override;
  WaitList& datagrams() override;

  void close(uint64_t code, std::string_view reason) override;
  const std::optional<Error>& close_error() const override;
  WaitList& closed() override;

  const ConnectionStats& stats() const override;

  // Stream state objects of this pair in use (not back in the pool): for leak checks.
  size_t live_streams() const;
  // Stream state objects ever created for this pair (in use plus pooled).
  size_t pooled_capacity() const;

 private:
  detail::Core* core_;
  uint8_t side_;  // 0: client, 1: server
};

struct ConnectionPair {
  std::unique_ptr<MemoryConnection> client;
  std::unique_ptr<MemoryConnection> server;
};

// Two connected endpoints using executor to wake waiters. Fails, naming the field, when the
// configuration cannot carry data (a zero window) or exceeds what QUIC can express.
Result<ConnectionPair> make_pair(Executor& executor, const PairConfig& config = {});

}  // namespace moq::sim::memory
