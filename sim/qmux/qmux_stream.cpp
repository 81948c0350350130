// The stream halves and the connection's stream bookkeeping: the stream tables, opening and
// accepting, framing what is written, flow-control credit both ways, and retiring streams.
#include <algorithm>

#include "sim/qmux/qmux_connection.h"

namespace moq::sim::qmux {

using detail::QxStream;

namespace {

std::string stream_name(const QxStream& s) {
  return std::string(s.bidi ? "bidi" : "uni") + " stream " + std::to_string(s.id);
}

// A peer stream's slot once it is retired: frames that still come for it are ignored. Never
// dereferenced.
QxStream* retired_slot() {
  static QxStream marker;
  return &marker;
}

}  // namespace

// ---- Pool and tables ----

QxStream* QmuxConnection::take_stream(uint64_t id, bool local, bool bidi) {
  QxStream* s = free_;
  if (s) {
    free_ = s->next_free;
  } else {
    streams_.push_back(std::make_unique<QxStream>());
    s = streams_.back().get();
  }
  s->conn = this;
  s->id = id;
  s->local = local;
  s->bidi = bidi;
  s->can_send = bidi || local;
  s->can_recv = bidi || !local;
  s->in_use = true;
  s->retired = false;
  s->handles = bidi ? 2 : 1;
  s->send_state = SendState::Open;
  s->sent = 0;
  const TransportParams& peer = *peer_params_;
  s->send_max = !s->can_send ? 0
                : !bidi      ? peer.initial_max_stream_data_uni
                : local      ? peer.initial_max_stream_data_bidi_remote
                             : peer.initial_max_stream_data_bidi_local;
  s->peer_stop_code.reset();
  s->order = 0;
  s->conn_blocked = false;
  s->received = s->consumed = 0;
  s->recv_max = s->can_recv ? settings_.stream_window : 0;
  s->fin_in = s->reset_in = s->recv_stopped = false;
  s->reset_in_code = 0;
  // A stream we never receive on is done receiving from the start.
  s->recv_done = !s->can_recv;
  StreamTable& t = table(local, bidi);
  const uint64_t index = stream_index(id);
  while (t.slots.size() <= index - t.base)
    t.slots.push_back(nullptr);
  t.slots[static_cast<size_t>(index - t.base)] = s;
  t.next = std::max(t.next, index + 1);
  ++live_streams_;
  return s;
}

void QmuxConnection::stream_unused(QxStream& s) {
  s.inbox.clear();
  s.in_use = false;
  s.next_free = free_;
  free_ = &s;
  --live_streams_;
}

// Both directions done: out of the table, and a peer's stream gives its credit back.
void QmuxConnection::maybe_retire(QxStream& s) {
  if (s.retired || !s.send_done() || !s.recv_done) return;
  s.retired = true;
  if (s.conn_blocked) {
    std::erase(conn_blocked_, &s);
    s.conn_blocked = false;
  }
  StreamTable& t = table(s.local, s.bidi);
  t.slots[static_cast<size_t>(stream_index(s.id) - t.base)] = retired_slot();
  while (!t.slots.empty() && t.slots.front() == retired_slot()) {
    (void)t.slots.pop_front();
    ++t.base;
  }
  if (!s.local && !close_error_) {
    ++t.closed;
    t.limit = (s.bidi ? settings_.max_bidi : settings_.max_uni) + t.closed;
    streams_pending_[s.bidi ? 0 : 1] = true;
    output_appeared();
  }
  if (s.handles == 0) stream_unused(s);
}

QxStream* QmuxConnection::find_stream(uint64_t id, const char* frame, bool for_send, bool for_recv,
                                      bool* ok) {
  const bool local = stream_is_server_initiated(id) == !settings_.client;
  const bool bidi = !stream_is_uni(id);
  // Built only for an error: the frames that find their stream build nothing.
  auto name = [&] { return std::string(bidi ? "bidi" : "uni") + " stream " + std::to_string(id); };
  const uint64_t type = 0;
  if (!bidi && local && for_recv) {
    protocol_error(qmux_error::kStreamState, type,
                   std::string(frame) + " for " + name() + ", which only this side sends on");
    *ok = false;
    return nullptr;
  }
  if (!bidi && !local && for_send) {
    protocol_error(qmux_error::kStreamState, type,
                   std::string(frame) + " for " + name() + ", which only the peer sends on");
    *ok = false;
    return nullptr;
  }
  StreamTable& t = table(local, bidi);
  const uint64_t index = stream_index(id);
  if (index < t.base) return nullptr;  // retired
  if (index - t.base < t.slots.size()) {
    QxStream* s = t.slots[static_cast<size_t>(index - t.base)];
    if (s == retired_slot()) return nullptr;
    if (s) return s;
  }
  if (local) {
    protocol_error(qmux_error::kStreamState, type,
                   std::string(frame) + " for " + name() + ", which this side never opened");
    *ok = false;
    return nullptr;
  }
  if (index >= t.limit) {
    protocol_error(qmux_error::kStreamLimit, type,
                   "the peer opened " + name() + " (index " + std::to_string(index) +
                       ") at or above the limit of " + std::to_string(t.limit) + " " +
                       (bidi ? "bidi" : "uni") + " streams it was given (MAX_STREAMS)");
    *ok = false;
    return nullptr;
  }
  QxStream* s = take_stream(id, false, bidi);
  (bidi ? accept_bidi_ : accept_uni_).push_back(s);
  incoming_.notify_all();
  return s;
}

// ---- Opening and accepting ----

Result<QxStream*> QmuxConnection::open_stream(bool bidi) {
  if (close_error_) return closed_error(bidi ? "open_bidi" : "open_uni");
  if (!peer_params_) return static_cast<QxStream*>(nullptr);  // no credit before them
  StreamTable& t = table(true, bidi);
  if (t.next >= t.limit) return static_cast<QxStream*>(nullptr);
  ++(bidi ? stats_.bidi_opened : stats_.uni_opened);
  return take_stream(stream_id(t.next, !settings_.client, !bidi), true, bidi);
}

Result<SendStreamPtr> QmuxConnection::open_uni() {
  Result<QxStream*> s = open_stream(false);
  if (!s.ok()) return s.error();
  return SendStreamPtr(*s ? &(*s)->send : nullptr);
}

Result<BidiStream> QmuxConnection::open_bidi() {
  Result<QxStream*> s = open_stream(true);
  if (!s.ok()) return s.error();
  if (!*s) return BidiStream{};
  return BidiStream{SendStreamPtr(&(*s)->send), RecvStreamPtr(&(*s)->recv)};
}

QxStream* QmuxConnection::next_accepted(bool bidi) {
  Ring<QxStream*>& q = bidi ? accept_bidi_ : accept_uni_;
  if (q.empty()) return nullptr;
  QxStream* s = q.pop_front();
  ++(bidi ? stats_.bidi_accepted : stats_.uni_accepted);
  return s;
}

Result<RecvStreamPtr> QmuxConnection::accept_uni() {
  if (close_error_) return closed_error("accept_uni");
  QxStream* s = next_accepted(false);
  return RecvStreamPtr(s ? &s->recv : nullptr);
}

Result<BidiStream> QmuxConnection::accept_bidi() {
  if (close_error_) return closed_error("accept_bidi");
  QxStream* s = next_accepted(true);
  if (!s) return BidiStream{};
  return BidiStream{SendStreamPtr(&s->send), RecvStreamPtr(&s->recv)};
}

// Every stream fails; streams nobody accepted die with the connection.
void QmuxConnection::end_streams() {
  for (Ring<QxStream*>* q : {&accept_uni_, &accept_bidi_}) {
    while (!q->empty()) {
      QxStream* s = q->pop_front();
      s->handles = 0;
      stream_unused(*s);
    }
  }
  for (const std::unique_ptr<QxStream>& s : streams_) {
    if (!s->in_use) continue;
    s->conn_blocked = false;
    s->writable.notify_all();
    s->readable.notify_all();
  }
  conn_blocked_.clear();
  datagrams_in_.clear();
}

// ---- Sending ----

Result<size_t> QmuxConnection::do_write(QxStream& s, BufChain& data) {
  if (close_error_) return closed_error("write");
  if (s.peer_stop_code)
    return Error{*s.peer_stop_code, "write on " + stream_name(s) +
                                        " stopped by the peer with code " +
                                        std::to_string(*s.peer_stop_code)};
  if (s.send_state == SendState::Finished)
    return Error{transport_error::kStreamFinished, "write on finished " + stream_name(s)};
  if (s.send_state == SendState::Reset)
    return Error{transport_error::kStreamReset, "write on reset " + stream_name(s)};
  const uint64_t stream_room = s.send_max - s.sent;
  const uint64_t conn_room = conn_send_max_ - conn_sent_;
  const size_t n =
      static_cast<size_t>(std::min<uint64_t>(data.size(), std::min(stream_room, conn_room)));
  if (n < data.size() && conn_room < stream_room) conn_block(s);
  size_t left = n;
  while (left > 0) {
    const size_t chunk = std::min(left, kMaxFramePayload);
    emit(encode_stream_header(frame_space(kMaxHeaderSize), s.id, s.sent, chunk, false), &data,
         chunk);
    s.sent += chunk;
    left -= chunk;
  }
  conn_sent_ += n;
  stats_.bytes_sent += n;
  return n;
}

Status QmuxConnection::do_finish(QxStream& s) {
  if (close_error_) return closed_error("finish");
  if (s.peer_stop_code)
    return Error{*s.peer_stop_code, "finish on " + stream_name(s) +
                                        " stopped by the peer with code " +
                                        std::to_string(*s.peer_stop_code)};
  if (s.send_state != SendState::Open)
    return Error{s.send_state == SendState::Finished ? transport_error::kStreamFinished
                                                     : transport_error::kStreamReset,
                 "finish on " +
                     std::string(s.send_state == SendState::Finished ? "finished " : "reset ") +
                     stream_name(s)};
  s.send_state = SendState::Finished;
  emit(encode_stream_header(frame_space(kMaxHeaderSize), s.id, s.sent, 0, true));
  maybe_retire(s);
  return {};
}

Status QmuxConnection::do_reset(QxStream& s, uint64_t code) {
  if (close_error_) return closed_error("reset");
  if (s.peer_stop_code || s.send_state == SendState::Reset) return {};
  if (s.send_state == SendState::Finished)
    return Error{transport_error::kStreamFinished, "reset on finished " + stream_name(s)};
  send_reset(s, code);
  return {};
}

void QmuxConnection::send_reset(QxStream& s, uint64_t code) {
  s.send_state = SendState::Reset;
  ++stats_.resets_sent;
  emit(encode_reset_stream(frame_space(kMaxHeaderSize), s.id, code, s.sent));
  s.writable.notify_all();
  maybe_retire(s);
}

// A writer short of connection credit waits for MAX_DATA, in send order (higher first), then
// in the order they blocked.
void QmuxConnection::conn_block(QxStream& s) {
  if (s.conn_blocked) return;
  s.conn_blocked = true;
  auto at = std::find_if(conn_blocked_.begin(), conn_blocked_.end(),
                         [&](const QxStream* o) { return o->order < s.order; });
  conn_blocked_.insert(at, &s);
}

void QmuxConnection::wake_conn_blocked() {
  for (QxStream* s : conn_blocked_) {
    s->conn_blocked = false;
    s->writable.notify_all();
  }
  conn_blocked_.clear();
}

Result<size_t> detail::QxSendHalf::write(BufChain& data) {
  if (!s_->conn) return s_->orphan_error;
  return s_->conn->do_write(*s_, data);
}

Status detail::QxSendHalf::finish() {
  if (!s_->conn) return s_->orphan_error;
  return s_->conn->do_finish(*s_);
}

Status detail::QxSendHalf::reset(uint64_t code) {
  if (!s_->conn) return s_->orphan_error;
  return s_->conn->do_reset(*s_, code);
}

void detail::QxSendHalf::set_send_order(int64_t order) {
  s_->order = order;
}
WaitList& detail::QxSendHalf::writable() {
  return s_->writable;
}
std::optional<uint64_t> detail::QxSendHalf::stop_code() const {
  return s_->peer_stop_code;
}
uint64_t detail::QxSendHalf::id() const {
  return s_->id;
}

void detail::QxSendHalf::release() {
  QxStream& s = *s_;
  QmuxConnection* c = s.conn;
  if (c && !c->close_error_ && s.send_state == SendState::Open && !s.peer_stop_code)
    c->send_reset(s, 0);
  if (--s.handles > 0) return;
  if (!c) {
    delete &s;  // orphaned by the connection's destruction
  } else if (s.retired || c->close_error_) {
    c->stream_unused(s);
  }
}

// ---- Receiving ----

// n bytes left the stream's queue (read, or discarded): credit for the peer once half a window
// is spent. A null s: bytes of a stream that no longer counts (connection credit only).
void QmuxConnection::consumed(QxStream* s, uint64_t n) {
  if (n == 0 || close_error_) return;
  if (s) {
    s->consumed += n;
    const uint64_t window = settings_.stream_window;
    if (!s->fin_in && !s->reset_in && s->consumed + window - s->recv_max >= window / 2) {
      s->recv_max = s->consumed + window;
      emit(encode_stream_maximum(frame_space(kMaxHeaderSize), frame_type::kMaxStreamData, s->id,
                                 s->recv_max));
    }
  }
  conn_consumed_ += n;
  const uint64_t window = settings_.conn_window;
  if (!max_data_pending_ && conn_consumed_ + window - conn_recv_max_ >= window / 2) {
    max_data_pending_ = true;
    output_appeared();
  }
  if (max_data_pending_) conn_recv_max_ = conn_consumed_ + window;
}

void QmuxConnection::recv_done(QxStream& s) {
  if (s.recv_done) return;
  s.recv_done = true;
  maybe_retire(s);
}

ReadResult QmuxConnection::read_without_data(QxStream& s) {
  if (s.reset_in) {
    recv_done(s);
    return {ReadStatus::Reset, s.reset_in_code};
  }
  if (s.fin_in) {
    recv_done(s);
    return {ReadStatus::Fin};
  }
  if (close_error_) return {ReadStatus::Error, closed_error("read").code};
  return {ReadStatus::WouldBlock};
}

ReadResult QmuxConnection::do_read(QxStream& s, Bytes& chunk, size_t max) {
  if (s.recv_stopped) {
    chunk.reset();
    return {ReadStatus::Error, transport_error::kStreamStopped};
  }
  if (!s.inbox.empty()) {
    if (s.inbox.front().size() <= max) {
      s.inbox.pop_front(chunk);
    } else {
      chunk = s.inbox.take_front(max);
    }
    consumed(&s, chunk.size());
    return {ReadStatus::Data};
  }
  chunk.reset();
  return read_without_data(s);
}

void QmuxConnection::do_stop(QxStream& s, uint64_t code) {
  if (s.recv_stopped || s.recv_done) return;
  s.recv_stopped = true;
  ++stats_.stops_sent;
  consumed(nullptr, s.inbox.size());
  s.inbox.clear();
  if (!s.fin_in && !s.reset_in && !close_error_)
    emit(encode_stop_sending(frame_space(kMaxHeaderSize), s.id, code));
  recv_done(s);
}

ReadResult detail::QxRecvHalf::read(Bytes& chunk, size_t max) {
  if (!s_->conn) {
    chunk.reset();
    return {ReadStatus::Error, s_->orphan_error.code};
  }
  return s_->conn->do_read(*s_, chunk, max);
}

// Every chunk in the inbox (the chain's storage itself when chunks is empty), with one credit
// return for all.
ReadResult detail::QxRecvHalf::read_all(BufChain& chunks) {
  QxStream& s = *s_;
  QmuxConnection* c = s.conn;
  if (!c) return {ReadStatus::Error, s.orphan_error.code};
  if (s.recv_stopped) return {ReadStatus::Error, transport_error::kStreamStopped};
  if (s.inbox.empty()) return c->read_without_data(s);
  const uint64_t n = s.inbox.size();
  chunks.take_all(s.inbox);
  c->consumed(&s, n);
  return {ReadStatus::Data};
}

void detail::QxRecvHalf::stop(uint64_t code) {
  if (s_->conn) s_->conn->do_stop(*s_, code);
}

WaitList& detail::QxRecvHalf::readable() {
  return s_->readable;
}
uint64_t detail::QxRecvHalf::id() const {
  return s_->id;
}

void detail::QxRecvHalf::release() {
  QxStream& s = *s_;
  QmuxConnection* c = s.conn;
  if (c && !s.recv_done) {
    if (c->close_error_) {
      s.recv_done = true;
    } else {
      c->do_stop(s, 0);
    }
  }
  if (--s.handles > 0) return;
  if (!c) {
    delete &s;
  } else if (s.retired || c->close_error_) {
    c->stream_unused(s);
  }
}

}  // namespace moq::sim::qmux
