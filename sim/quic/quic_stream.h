// One QUIC stream as the application sees it: the state behind the SendStream and RecvStream
// halves of transport.h, kept beside ngtcp2's own stream (which holds only offsets and credit).
// Internal to sim/quic: include quic_connection.h instead.
//
// Sending keeps every written Bytes slice in `unacked` until ngtcp2 reports it acknowledged:
// ngtcp2 re-reads the memory it was given for retransmission (quic-backend.md, pitfall 3), so
// payload is handed to it by reference and never copied before encryption. Receiving copies each
// decrypted STREAM frame once into pooled blocks and hands out slices of them.
#pragma once

#include <cstdint>
#include <optional>

#include "model/async/executor.h"
#include "model/base/bytes.h"
#include "model/base/result.h"
#include "model/base/ring.h"
#include "model/transport.h"
#include "model/transport_send_state.h"

namespace moq::sim::quic {

class QuicConnection;

namespace detail {

struct QStream;

class QSendHalf final : public SendStream {
 public:
  explicit QSendHalf(QStream& s) : s_(&s) {}
  uint64_t id() const override;
  Result<size_t> write(BufChain& data) override;
  Status finish() override;
  Status reset(uint64_t code) override;
  void set_send_order(int64_t order) override;
  WaitList& writable() override;
  std::optional<uint64_t> stop_code() const override;
  void release() override;

 private:
  QStream* s_;
};

class QRecvHalf final : public RecvStream {
 public:
  explicit QRecvHalf(QStream& s) : s_(&s) {}
  uint64_t id() const override;
  ReadResult read(Bytes& chunk, size_t max) override;
  ReadResult read_all(BufChain& chunks) override;
  void stop(uint64_t code) override;
  WaitList& readable() override;
  void release() override;

 private:
  QStream* s_;
};

struct QStream {
  QStream() : send(*this), recv(*this) {}
  QStream(const QStream&) = delete;
  QStream& operator=(const QStream&) = delete;

  // Null once the connection object is gone; the handles then fail with `orphan_error`.
  QuicConnection* conn = nullptr;
  Error orphan_error;
  int64_t id = -1;
  bool local = false;  // opened by this endpoint
  bool bidi = false;
  bool can_send = false, can_recv = false;
  bool in_use = false;           // not in the connection's pool
  uint8_t handles = 0;           // halves the application holds (or the accept queue holds for it)
  bool ngtcp2_done = false;      // ngtcp2 closed its stream, or will report nothing more about it
  bool credit_returned = false;  // a peer's stream: its stream-count credit went back

  // Sending.
  Ring<Bytes> unacked;    // written and not yet acknowledged, from offset `acked`
  uint64_t acked = 0;     // bytes acknowledged from the stream's start
  uint64_t handed = 0;    // bytes handed to ngtcp2
  uint64_t written = 0;   // bytes the application wrote
  size_t hand_index = 0;  // unacked[hand_index] holds offset `handed`...
  size_t hand_skip = 0;   // ...this many bytes into it
  size_t front_skip = 0;  // bytes of unacked.front() already acknowledged
  SendState send_state = SendState::Open;
  bool fin_handed = false;
  bool data_blocked = false;  // no stream credit: wait for extend_max_stream_data
  bool shut_wr = false;       // ngtcp2 refuses more data: we reset it, or the peer stopped it
  bool peer_stopped = false;
  std::optional<uint64_t> peer_stop_code;  // known once ngtcp2 closes the stream (0.12 has no
                                           // STOP_SENDING callback: quic-backend.md, pitfall 7)
  int64_t order = 0;
  bool sendable = false;  // in the connection's list of streams with something to send

  // Receiving.
  Ring<Bytes> inbox;  // received, not yet read
  uint64_t inbox_bytes = 0;
  bool fin_in = false;
  bool reset_in = false;
  uint64_t reset_in_code = 0;
  bool recv_stopped = false;  // our own stop()
  bool recv_done = false;     // read the end or the reset, stopped, or dropped

  WaitList writable{"quic stream writable"};
  WaitList readable{"quic stream readable"};
  QSendHalf send;
  QRecvHalf recv;
  QStream* next_free = nullptr;

  bool has_unsent() const {
    return handed < written || (send_state == SendState::Finished && !fin_handed);
  }
};

}  // namespace detail
}  // namespace moq::sim::quic
