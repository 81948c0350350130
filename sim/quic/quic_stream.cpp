// The stream halves and the connection's stream bookkeeping: opening, accepting, the send
// buffer kept until acknowledged, the receive queue and its flow-control credit, credit for
// stream counts, and datagrams.
#include <algorithm>

#include "sim/quic/endpoint.h"
#include "sim/quic/quic_connection.h"

namespace moq::sim::quic {

using detail::QStream;

namespace {

std::string stream_name(const QStream& s) {
  return std::string(s.bidi ? "bidi" : "uni") + " stream " + std::to_string(s.id);
}

}  // namespace

// ---- Pool ----

QStream* QuicConnection::take_stream(int64_t id, bool local, bool bidi) {
  QStream* s = free_;
  if (s) {
    free_ = s->next_free;
  } else {
    streams_.push_back(std::make_unique<QStream>());
    s = streams_.back().get();
  }
  s->conn = this;
  s->id = id;
  s->local = local;
  s->bidi = bidi;
  s->can_send = bidi || local;
  s->can_recv = bidi || !local;
  s->in_use = true;
  s->handles = bidi ? 2 : 1;
  s->ngtcp2_done = false;
  s->credit_returned = false;
  s->acked = s->handed = s->written = 0;
  s->hand_index = s->hand_skip = s->front_skip = 0;
  s->send_state = SendState::Open;
  s->fin_handed = s->data_blocked = s->shut_wr = s->peer_stopped = false;
  s->peer_stop_code.reset();
  s->order = 0;
  s->sendable = false;
  s->inbox_bytes = 0;
  s->fin_in = s->reset_in = s->recv_stopped = false;
  s->reset_in_code = 0;
  // A stream we never receive on is done receiving from the start.
  s->recv_done = !s->can_recv;
  ngtcp2_conn_set_stream_user_data(conn_, id, s);
  ++live_streams_;
  return s;
}

void QuicConnection::stream_unused(QStream& s) {
  s.unacked.clear();
  s.inbox.clear();
  s.in_use = false;
  s.next_free = free_;
  free_ = &s;
  --live_streams_;
}

// ---- Opening and accepting ----

Error QuicConnection::closed_error(const char* op) const {
  const Error& e = *close_error_;
  const uint64_t code = closed_locally_ ? transport_error::kConnectionClosed : e.code;
  return Error{code, std::string(op) + " after the QUIC connection was closed " +
                         (closed_locally_ ? "locally" : "") + "(code " + std::to_string(e.code) +
                         ": " + e.message + ")"};
}

Result<QStream*> QuicConnection::open_stream(bool bidi) {
  if (closing_ || !conn_) return closed_error(bidi ? "open_bidi" : "open_uni");
  if (!established_) return static_cast<QStream*>(nullptr);  // limits unknown until then
  int64_t id = -1;
  int rv = bidi ? ngtcp2_conn_open_bidi_stream(conn_, &id, nullptr)
                : ngtcp2_conn_open_uni_stream(conn_, &id, nullptr);
  if (rv == NGTCP2_ERR_STREAM_ID_BLOCKED) return static_cast<QStream*>(nullptr);
  if (rv != 0)
    return Error{transport_error::kQuicError,
                 std::string("opening a stream: ") + ngtcp2_strerror(rv)};
  ++(bidi ? stats_.bidi_opened : stats_.uni_opened);
  return take_stream(id, true, bidi);
}

Result<SendStreamPtr> QuicConnection::open_uni() {
  Result<QStream*> s = open_stream(false);
  if (!s.ok()) return s.error();
  return SendStreamPtr(*s ? &(*s)->send : nullptr);
}

Result<BidiStream> QuicConnection::open_bidi() {
  Result<QStream*> s = open_stream(true);
  if (!s.ok()) return s.error();
  if (!*s) return BidiStream{};
  return BidiStream{SendStreamPtr(&(*s)->send), RecvStreamPtr(&(*s)->recv)};
}

int QuicConnection::on_stream_open(int64_t id) {
  const bool bidi = ngtcp2_is_bidi_stream(id);
  QStream* s = take_stream(id, false, bidi);
  (bidi ? accept_bidi_ : accept_uni_).push_back(s);
  incoming_.notify_all();
  return 0;
}

QStream* QuicConnection::next_accepted(bool bidi) {
  Ring<QStream*>& q = bidi ? accept_bidi_ : accept_uni_;
  if (q.empty()) return nullptr;
  QStream* s = q.pop_front();
  ++(bidi ? stats_.bidi_accepted : stats_.uni_accepted);
  return s;
}

Result<RecvStreamPtr> QuicConnection::accept_uni() {
  if (closing_) return closed_error("accept_uni");
  QStream* s = next_accepted(false);
  return RecvStreamPtr(s ? &s->recv : nullptr);
}

Result<BidiStream> QuicConnection::accept_bidi() {
  if (closing_) return closed_error("accept_bidi");
  QStream* s = next_accepted(true);
  if (!s) return BidiStream{};
  return BidiStream{SendStreamPtr(&s->send), RecvStreamPtr(&s->recv)};
}

// Every stream fails; streams nobody accepted die with the connection.
void QuicConnection::end_streams() {
  for (Ring<QStream*>* q : {&accept_uni_, &accept_bidi_}) {
    while (!q->empty()) {
      QStream* s = q->pop_front();
      s->handles = 0;
      s->recv_done = true;
      if (s->ngtcp2_done) stream_unused(*s);
    }
  }
  for (const std::unique_ptr<QStream>& s : streams_) {
    if (!s->in_use) continue;
    s->sendable = false;
    s->writable.notify_all();
    s->readable.notify_all();
  }
  sendable_.clear();
  datagrams_out_.clear();
  datagrams_in_.clear();
}

// ---- Sending ----

void QuicConnection::on_acked(QStream* s, uint64_t, uint64_t n) {
  if (!s) return;
  const bool was_full = s->written - s->acked >= settings_.send_buffer;
  s->acked += n;
  // ngtcp2 reports acknowledged bytes in stream order: drop them from the front.
  while (n > 0 && !s->unacked.empty()) {
    const size_t rest = s->unacked.front().size() - s->front_skip;
    if (rest > n) {
      s->front_skip += n;
      break;
    }
    n -= rest;
    (void)s->unacked.pop_front();
    s->front_skip = 0;
    if (s->hand_index > 0) --s->hand_index;
  }
  if (was_full && s->written - s->acked < settings_.send_buffer) s->writable.notify_all();
}

void QuicConnection::on_stream_close(QStream* s, uint32_t flags, uint64_t code) {
  if (!s) return;
  if ((flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET) && s->can_send &&
      s->send_state != SendState::Reset && (s->acked < s->written || !s->fin_handed)) {
    // The peer stopped our sending side: ngtcp2 reset it with the peer's code.
    s->peer_stopped = true;
    s->peer_stop_code = code;
    ++stats_.stops_received;
  }
  s->ngtcp2_done = true;
  s->unacked.clear();
  s->writable.notify_all();
  s->readable.notify_all();
  if (!s->local && s->bidi && s->recv_done && !s->credit_returned) {
    s->credit_returned = true;
    ngtcp2_conn_extend_max_streams_bidi(conn_, 1);
  }
  if (s->handles == 0) stream_unused(*s);
}

Result<size_t> detail::QSendHalf::write(BufChain& data) {
  QStream& s = *s_;
  QuicConnection* c = s.conn;
  if (!c) return s.orphan_error;
  if (c->closing_) return c->closed_error("write");
  if (s.send_state == SendState::Finished)
    return Error{transport_error::kStreamFinished, "write on finished " + stream_name(s)};
  if (s.send_state == SendState::Reset)
    return Error{transport_error::kStreamReset, "write on reset " + stream_name(s)};
  if (s.peer_stop_code)
    return Error{*s.peer_stop_code, "write on " + stream_name(s) +
                                        " stopped by the peer with code " +
                                        std::to_string(*s.peer_stop_code)};
  if (s.shut_wr) return size_t{0};  // stopped; the code comes when ngtcp2 closes the stream
  const uint64_t held = s.written - s.acked;
  if (held >= c->settings_.send_buffer) return size_t{0};
  size_t room = static_cast<size_t>(c->settings_.send_buffer - held);
  size_t taken = 0;
  while (room > 0 && !data.empty()) {
    Bytes b = data.take_front(room);
    room -= b.size();
    taken += b.size();
    s.unacked.push_back(std::move(b));
  }
  if (taken > 0) {
    s.written += taken;
    c->stats_.bytes_sent += taken;
    c->mark_sendable(s);
  }
  return taken;
}

Status detail::QSendHalf::finish() {
  QStream& s = *s_;
  QuicConnection* c = s.conn;
  if (!c) return s.orphan_error;
  if (c->closing_) return c->closed_error("finish");
  if (s.send_state != SendState::Open)
    return Error{s.send_state == SendState::Finished ? transport_error::kStreamFinished
                                                     : transport_error::kStreamReset,
                 "finish on " +
                     std::string(s.send_state == SendState::Finished ? "finished " : "reset ") +
                     stream_name(s)};
  if (s.peer_stop_code)
    return Error{*s.peer_stop_code, "finish on " + stream_name(s) +
                                        " stopped by the peer with code " +
                                        std::to_string(*s.peer_stop_code)};
  s.send_state = SendState::Finished;
  c->mark_sendable(s);
  return {};
}

Status detail::QSendHalf::reset(uint64_t code) {
  QStream& s = *s_;
  QuicConnection* c = s.conn;
  if (!c) return s.orphan_error;
  if (c->closing_) return c->closed_error("reset");
  if (s.send_state == SendState::Finished)
    return Error{transport_error::kStreamFinished, "reset on finished " + stream_name(s)};
  if (s.send_state == SendState::Reset || s.peer_stopped) return {};
  s.send_state = SendState::Reset;
  ++c->stats_.resets_sent;
  if (!s.ngtcp2_done) ngtcp2_conn_shutdown_stream_write(c->conn_, s.id, code);
  c->wake_io();
  return {};
}

void detail::QSendHalf::set_send_order(int64_t order) {
  s_->order = order;
}
WaitList& detail::QSendHalf::writable() {
  return s_->writable;
}
std::optional<uint64_t> detail::QSendHalf::stop_code() const {
  return s_->peer_stop_code;
}
uint64_t detail::QSendHalf::id() const {
  return static_cast<uint64_t>(s_->id);
}

void detail::QSendHalf::release() {
  QStream& s = *s_;
  if (s.conn && !s.conn->closing_ && s.send_state == SendState::Open && !s.peer_stopped)
    (void)reset(0);
  if (--s.handles > 0) return;
  if (!s.conn) {
    delete &s;  // orphaned by the connection's destruction
  } else if (s.ngtcp2_done) {
    s.conn->stream_unused(s);
  }
}

// ---- Receiving ----

void QuicConnection::on_stream_data(QStream* s, uint32_t flags, const uint8_t* data, size_t n) {
  if (!s) return;
  if (s->recv_stopped || s->recv_done) {
    return_credit(n, nullptr);
    return;
  }
  if (n > 0) {
    s->inbox.push_back(inbound_.copy({data, n}));
    s->inbox_bytes += n;
    stats_.bytes_received += n;
  }
  if (flags & NGTCP2_STREAM_DATA_FLAG_FIN) s->fin_in = true;
  s->readable.notify_all();
}

void QuicConnection::on_stream_reset(QStream* s, uint64_t code) {
  if (!s || s->recv_done) return;
  // Like sim/memory: a reset discards what the reader has not read yet.
  return_credit(s->inbox_bytes, nullptr);
  s->inbox.clear();
  s->inbox_bytes = 0;
  s->reset_in = true;
  s->reset_in_code = code;
  ++stats_.resets_received;
  s->readable.notify_all();
}

// Read bytes (or bytes discarded unread) go back to the peer as flow-control credit.
void QuicConnection::return_credit(uint64_t bytes, QStream* s) {
  if (bytes == 0 || !conn_ || closing_) return;
  if (s) ngtcp2_conn_extend_max_stream_offset(conn_, s->id, bytes);
  ngtcp2_conn_extend_max_offset(conn_, bytes);
  wake_io();
}

// The application is done with s's receiving side: its stream-count credit can go back.
void QuicConnection::recv_done(QStream& s) {
  if (s.recv_done) return;
  s.recv_done = true;
  if (s.local || !conn_ || closing_) return;
  if (!s.bidi) {
    // ngtcp2 0.12.1 never closes a peer's uni stream (pitfall 1, fixed in 0.14): return its
    // credit here, and tell ngtcp2 to forget our object, so that a late frame for the stream
    // (or a fixed ngtcp2's stream_close) finds nothing.
    s.credit_returned = true;
    ngtcp2_conn_extend_max_streams_uni(conn_, 1);
    ngtcp2_conn_set_stream_user_data(conn_, s.id, nullptr);
    s.ngtcp2_done = true;
    wake_io();
  } else if (s.ngtcp2_done && !s.credit_returned) {
    s.credit_returned = true;
    ngtcp2_conn_extend_max_streams_bidi(conn_, 1);
    wake_io();
  }
}

ReadResult detail::QRecvHalf::read(Bytes& chunk, size_t max) {
  QStream& s = *s_;
  QuicConnection* c = s.conn;
  if (!c) {
    chunk.reset();
    return {ReadStatus::Error, s.orphan_error.code};
  }
  if (s.recv_stopped) {
    chunk.reset();
    return {ReadStatus::Error, transport_error::kStreamStopped};
  }
  if (!s.inbox.empty()) {
    Bytes& front = s.inbox.front();
    if (front.size() <= max) {
      chunk = s.inbox.pop_front();
    } else {
      chunk = front.slice(0, max);
      front.advance(max);
    }
    s.inbox_bytes -= chunk.size();
    c->return_credit(chunk.size(), &s);
    return {ReadStatus::Data};
  }
  chunk.reset();
  if (s.reset_in) {
    c->recv_done(s);
    return {ReadStatus::Reset, s.reset_in_code};
  }
  if (s.fin_in) {
    c->recv_done(s);
    return {ReadStatus::Fin};
  }
  if (c->closing_) return {ReadStatus::Error, c->closed_error("read").code};
  return {ReadStatus::WouldBlock};
}

// Every chunk in the inbox, with one credit return (one extension of each window) for all.
ReadResult detail::QRecvHalf::read_all(BufChain& chunks) {
  QStream& s = *s_;
  QuicConnection* c = s.conn;
  if (!c || s.recv_stopped || s.inbox.empty()) {
    Bytes none;  // nothing to move: read() says why (would block, ended, failed)
    return read(none, SIZE_MAX);
  }
  uint64_t n = 0;
  while (!s.inbox.empty()) {
    Bytes b = s.inbox.pop_front();
    n += b.size();
    chunks.push(std::move(b));
  }
  s.inbox_bytes -= n;
  c->return_credit(n, &s);
  return {ReadStatus::Data};
}

void detail::QRecvHalf::stop(uint64_t code) {
  QStream& s = *s_;
  QuicConnection* c = s.conn;
  if (!c || s.recv_stopped || s.recv_done) return;
  s.recv_stopped = true;
  ++c->stats_.stops_sent;
  c->return_credit(s.inbox_bytes, nullptr);
  s.inbox.clear();
  s.inbox_bytes = 0;
  if (c->conn_ && !c->closing_ && !s.ngtcp2_done)
    ngtcp2_conn_shutdown_stream_read(c->conn_, s.id, code);
  c->recv_done(s);
  c->wake_io();
}

WaitList& detail::QRecvHalf::readable() {
  return s_->readable;
}
uint64_t detail::QRecvHalf::id() const {
  return static_cast<uint64_t>(s_->id);
}

void detail::QRecvHalf::release() {
  QStream& s = *s_;
  if (s.conn && !s.recv_done) stop(0);
  if (--s.handles > 0) return;
  if (!s.conn) {
    delete &s;
  } else if (s.ngtcp2_done) {
    s.conn->stream_unused(s);
  }
}

bool QuicConnection::has_unsent() const {
  if (!conn_ || closing_) return false;
  if (!datagrams_out_.empty()) return true;
  for (const QStream* s : sendable_)
    if (s->has_unsent() && !s->shut_wr && s->send_state != SendState::Reset) return true;
  return false;
}

bool QuicConnection::has_unacked() const {
  if (!conn_ || closing_) return false;
  // Ack-eliciting packets not yet acknowledged: stream data, and also RESET_STREAM,
  // STOP_SENDING and the other control frames that carry no stream bytes.
  ngtcp2_conn_stat stat;
  ngtcp2_conn_get_conn_stat(conn_, &stat);
  return stat.bytes_in_flight > 0;
}

// ---- Datagrams ----

Status QuicConnection::send_datagram(Bytes payload) {
  if (closing_ || !conn_) return closed_error("send_datagram");
  if (payload.size() > settings_.max_datagram_size)
    return Error{transport_error::kDatagramTooLarge,
                 "datagram of " + std::to_string(payload.size()) + " bytes exceeds the limit of " +
                     std::to_string(settings_.max_datagram_size)};
  if (datagrams_out_.size() >= settings_.datagram_queue) {
    ++stats_.datagrams_dropped;
    return {};
  }
  datagrams_out_.push_back(std::move(payload));
  wake_io();
  return {};
}

std::optional<Bytes> QuicConnection::recv_datagram() {
  if (datagrams_in_.empty()) return std::nullopt;
  return datagrams_in_.pop_front();
}

}  // namespace moq::sim::quic
