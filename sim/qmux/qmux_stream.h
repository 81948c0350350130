// One QMux stream as the application sees it: the state behind the SendStream and RecvStream
// halves of transport.h. Internal to sim/qmux: include qmux_connection.h instead.
//
// Sending encodes at once: write() takes what flow control allows and turns it into STREAM
// frames in the connection's output, the payload by reference, so a stream holds no send buffer.
// Receiving keeps the slices of the received bytes (the carrier's chunks, by reference) until
// read.
#pragma once

#include <cstdint>
#include <optional>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/result.h"
#include "model/base/ring.h"
#include "model/transport.h"
#include "model/transport_send_state.h"

namespace moq::sim::qmux {

class QmuxConnection;

namespace detail {

struct QxStream;

class QxSendHalf final : public SendStream {
 public:
  explicit QxSendHalf(QxStream& s) : s_(&s) {}
  uint64_t id() const override;
  Result<size_t> write(BufChain& data) override;
  Status finish() override;
  Status reset(uint64_t code) override;
  void set_send_order(int64_t order) override;
  WaitList& writable() override;
  std::optional<uint64_t> stop_code() const override;
  void release() override;

 private:
  QxStream* s_;
};

class QxRecvHalf final : public RecvStream {
 public:
  explicit QxRecvHalf(QxStream& s) : s_(&s) {}
  uint64_t id() const override;
  ReadResult read(Bytes& chunk, size_t max) override;
  ReadResult read_all(BufChain& chunks) override;
  void stop(uint64_t code) override;
  WaitList& readable() override;
  void release() override;

 private:
  QxStream* s_;
};

struct QxStream {
  QxStream() : send(*this), recv(*this) {}
  QxStream(const QxStream&) = delete;
  QxStream& operator=(const QxStream&) = delete;

  // Null once the connection object is gone; the handles then fail with `orphan_error`.
  QmuxConnection* conn = nullptr;
  Error orphan_error;
  uint64_t id = 0;
  bool local = false;  // opened by this endpoint
  bool bidi = false;
  bool can_send = false, can_recv = false;
  bool in_use = false;   // not in the connection's pool
  bool retired = false;  // out of the connection's stream table: frames for it are ignored
  uint8_t handles = 0;   // halves the application holds (or the accept queue holds for it)

  // Sending.
  SendState send_state = SendState::Open;
  uint64_t sent = 0;                       // bytes framed so far: the next STREAM frame's offset
  uint64_t send_max = 0;                   // the peer's limit on this stream (MAX_STREAM_DATA)
  std::optional<uint64_t> peer_stop_code;  // STOP_SENDING received: answered with RESET_STREAM
  int64_t order = 0;
  bool conn_blocked = false;  // in the connection's list of writers short of connection credit

  // Receiving.
  // Received, not yet read: the carrier's chunks, moved here and handed out a block at a time.
  BufChain inbox;
  uint64_t received = 0;  // bytes received: the next STREAM frame's offset
  uint64_t consumed = 0;  // bytes read or discarded: what the credit follows
  uint64_t recv_max = 0;  // our limit on this stream, as last advertised
  bool fin_in = false;
  bool reset_in = false;
  uint64_t reset_in_code = 0;
  bool recv_stopped = false;  // our own stop()
  bool recv_done = false;     // read the end or the reset, stopped, or dropped

  WaitList writable{"qmux stream writable"};
  WaitList readable{"qmux stream readable"};
  QxSendHalf send;
  QxRecvHalf recv;
  QxStream* next_free = nullptr;

  bool send_done() const { return !can_send || send_state != SendState::Open || peer_stop_code; }
};

}  // namespace detail
}  // namespace moq::sim::qmux
