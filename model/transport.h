// The transport interface the sessions are written against. Two backends implement it:
// sim/memory (deterministic, in-process) and sim/quic (ngtcp2). Session code never knows
// which one it runs on.
//
// Conventions:
// - Non-blocking. An operation that cannot proceed now returns "nothing yet" (0 bytes written,
//   ReadStatus::WouldBlock, a null stream) and the caller arms a Waiter on the WaitList named
//   next to it, then retries when woken.
// - Misuse (writing a finished or reset stream, reading a stopped one, using a closed
//   connection) returns an Error carrying the code; it is never undefined behaviour.
// - Payloads move by reference: write() takes Bytes slices out of a BufChain, read() hands out
//   Bytes slices; no backend copies payload in between unless the wire forces it (QUIC).
// - One priority convention everywhere: a higher send order is sent first.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/result.h"

namespace moq {

// Error codes the transport itself produces (Error::code) when no peer code applies.
namespace transport_error {
constexpr uint64_t kStreamFinished = 0x1000;    // write/finish/reset after finish()
constexpr uint64_t kStreamReset = 0x1001;       // write/finish after our own reset()
constexpr uint64_t kStreamStopped = 0x1002;     // read after our own stop()
constexpr uint64_t kConnectionClosed = 0x1003;  // any use after the connection closed locally
constexpr uint64_t kDatagramTooLarge = 0x1004;
// Connection endings a real network adds (sim/quic); the message names the cause.
constexpr uint64_t kIdleTimeout = 0x1005;      // nothing heard from the peer for the idle timeout
constexpr uint64_t kHandshakeFailed = 0x1006;  // TLS refused (ALPN, certificate) or timed out
constexpr uint64_t kUnreachable = 0x1007;      // nothing listens at the address
constexpr uint64_t kQuicError = 0x1008;        // a QUIC protocol error (not an application close)
}  // namespace transport_error

class SendStream {
 public:
  virtual ~SendStream() = default;
  virtual uint64_t id() const = 0;

  // Takes as many bytes from the front of data as flow control allows, removing them from data,
  // and returns how many it took (0: blocked, wait on writable()). Fails when the stream was
  // finished or reset, when the peer stopped it (Error::code = the peer's STOP_SENDING code), or
  // when the connection is closed (Error::code = the peer's close code, or kConnectionClosed when
  // this endpoint closed it).
  virtual Result<size_t> write(BufChain& data) = 0;
  // Ends the stream after the data already written (FIN).
  virtual Status finish() = 0;
  // Abandons the stream with an application code; may overtake data still queued.
  virtual Status reset(uint64_t code) = 0;
  // Strict priority among this connection's streams: higher goes first when credit is scarce.
  virtual void set_send_order(int64_t order) = 0;
  // Notified when credit grows, when the peer stops the stream, and when the connection closes.
  virtual WaitList& writable() = 0;
  // The peer's STOP_SENDING code, once received.
  virtual std::optional<uint64_t> stop_code() const = 0;
  // Called by SendStreamPtr when the application drops its handle. An unfinished stream is reset
  // with code 0.
  virtual void release() = 0;
};

enum class ReadStatus : uint8_t {
  Data,        // chunk holds bytes
  WouldBlock,  // nothing now: wait on readable()
  Fin,         // the peer finished and every byte was read
  Reset,       // the peer reset the stream: code is the reset code
  Error,       // local misuse or connection closed: code says which
};

struct ReadResult {
  ReadStatus status;
  uint64_t code = 0;
};

class RecvStream {
 public:
  virtual ~RecvStream() = default;
  virtual uint64_t id() const = 0;

  // Hands out the next chunk (at most max bytes) by reference; reading returns flow-control
  // credit to the sender. With WouldBlock chunk is left empty, so that a reader's spent chunk
  // does not keep the sender's block alive while the reader waits.
  virtual ReadResult read(Bytes& chunk, size_t max = SIZE_MAX) = 0;
  // A vectored read: moves the chunks available now to the back of chunks, returning their
  // credit, so that a data stream makes one call per wake-up instead of one per chunk. Data when
  // at least one chunk moved, else what read() says. The default moves one chunk.
  virtual ReadResult read_all(BufChain& chunks) {
    Bytes chunk;
    const ReadResult r = read(chunk);
    if (r.status != ReadStatus::Data) return r;
    if (chunk.empty()) return {ReadStatus::WouldBlock};
    chunks.push(std::move(chunk));
    return r;
  }
  // Asks the peer to stop sending (STOP_SENDING with code); unread data is discarded.
  virtual void stop(uint64_t code) = 0;
  // Notified when data, FIN or a reset arrives, and when the connection closes.
  virtual WaitList& readable() = 0;
  // Called by RecvStreamPtr when the application drops its handle. A stream not read to its end
  // is stopped with code 0.
  virtual void release() = 0;
};

struct StreamReleaser {
  template <class S>
  void operator()(S* s) const {
    s->release();
  }
};
using SendStreamPtr = std::unique_ptr<SendStream, StreamReleaser>;
using RecvStreamPtr = std::unique_ptr<RecvStream, StreamReleaser>;

struct BidiStream {
  SendStreamPtr send;
  RecvStreamPtr recv;
  explicit operator bool() const { return send != nullptr; }
};

// Per-connection counters, from this endpoint's point of view.
struct ConnectionStats {
  uint64_t uni_opened = 0;
  uint64_t bidi_opened = 0;
  uint64_t uni_accepted = 0;
  uint64_t bidi_accepted = 0;
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  uint64_t resets_sent = 0;
  uint64_t resets_received = 0;
  uint64_t stops_sent = 0;
  uint64_t stops_received = 0;
  uint64_t datagrams_sent = 0;
  uint64_t datagrams_received = 0;
  uint64_t datagrams_dropped = 0;
  uint64_t max_queued_bytes = 0;  // high-water mark of bytes sent but not yet read by the peer
};

// What a transport with a wire (sim/quic) adds: UDP datagrams and their payload bytes. Apart
// from ConnectionStats so that sim/memory's per-endpoint state keeps its size (its hot paths
// index it by side).
struct WireStats {
  uint64_t packets_sent = 0;
  uint64_t packets_received = 0;
  uint64_t udp_bytes_sent = 0;
  uint64_t udp_bytes_received = 0;
  uint64_t send_failures = 0;        // datagrams the socket could not take (QUIC: as if lost)
  uint64_t library_allocations = 0;  // heap allocations the QUIC library made (ngtcp2_mem)
};

class Connection {
 public:
  virtual ~Connection() = default;

  virtual Executor& executor() = 0;
  virtual std::string_view alpn() const = 0;
  virtual bool is_client() const = 0;

  // A new stream, or a null one while the peer's concurrent-stream limit is reached (wait on
  // can_open()). Fails once the connection is closed.
  virtual Result<SendStreamPtr> open_uni() = 0;
  virtual Result<BidiStream> open_bidi() = 0;
  // Notified when stream credit is returned.
  virtual WaitList& can_open() = 0;

  // The next stream the peer opened, or a null one (wait on incoming()). Fails once closed.
  virtual Result<RecvStreamPtr> accept_uni() = 0;
  virtual Result<BidiStream> accept_bidi() = 0;
  virtual WaitList& incoming() = 0;

  // Datagrams are unreliable and bounded: a full receive queue drops (and counts) them.
  virtual Status send_datagram(Bytes payload) = 0;
  virtual std::optional<Bytes> recv_datagram() = 0;
  virtual WaitList& datagrams() = 0;

  // Closes the connection with an application code and reason: every stream on both sides fails.
  virtual void close(uint64_t code, std::string_view reason) = 0;
  // Set once the connection closed (either side): the code and the reason.
  virtual const std::optional<Error>& close_error() const = 0;
  // Notified once when the connection closes.
  virtual WaitList& closed() = 0;

  virtual const ConnectionStats& stats() const = 0;
  // Null for a transport without a wire (sim/memory).
  virtual const WireStats* wire_stats() const { return nullptr; }
};

}  // namespace moq
