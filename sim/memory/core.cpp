// The shared state's operations, and the stream halves that forward to them (defined here so
// that the per-chunk paths, write() and read(), compile into one function each).
#include "sim/memory/core.h"

#include <algorithm>
#include <string>

namespace moq::sim::memory::detail {

namespace {

std::string stream_name(const Channel& c) {
  return "stream " + std::to_string(c.stream->id);
}

Error send_state_error(const Channel& c, const char* op) {
  if (c.send_state == SendState::Finished) {
    return Error{transport_error::kStreamFinished,
                 std::string(op) + " on " + stream_name(c) + " after finish()"};
  }
  return Error{transport_error::kStreamReset,
               std::string(op) + " on " + stream_name(c) + " after reset()"};
}

}  // namespace

Core::Core(Executor& ex, const PairConfig& config) : executor(&ex), cfg(config) {
  // QUIC stream ids: the low bit is the initiator (0: client), the next bit the direction.
  side[0].next_bidi_id = 0;
  side[1].next_bidi_id = 1;
  side[0].next_uni_id = 2;
  side[1].next_uni_id = 3;
  if (cfg.network && !cfg.network->config().ideal()) {
    shaped = true;
    const std::array<net::LinkDirection, 2> directions = cfg.network->connect();
    link[0] = directions[0];
    link[1] = directions[1];
  }
}

Core::~Core() {
  if (shaped) cfg.network->forget(this);
}

void Core::unref(Core* core) {
  if (core->connections == 0 && core->handles == 0) delete core;
}

uint64_t Core::closed_code(uint8_t s) const {
  return closer == s ? transport_error::kConnectionClosed : side[s].close_error->code;
}

Error Core::closed_error(uint8_t s, const char* op) const {
  const Error& e = *side[s].close_error;
  std::string who = closer == s ? "locally" : "by the peer";
  return Error{closed_code(s), std::string(op) + " after the connection was closed " + who +
                                   " (code " + std::to_string(e.code) + ": " + e.message + ")"};
}

Error Core::send_refused(const Channel& c, const char* op) const {
  if (closed) return closed_error(c.from, op);
  if (c.send_state != SendState::Open) return send_state_error(c, op);
  return Error{c.stop_code, std::string(op) + " on " + stream_name(c) +
                                " stopped by the peer with code " + std::to_string(c.stop_code)};
}

// ---- Streams: pooling ----

Stream* Core::take_stream(bool bidi) {
  Stream*& free = pool[bidi];
  if (!free) {
    streams.push_back(std::make_unique<Stream>(*this));
    return streams.back().get();
  }
  Stream* st = free;
  free = st->next_free;
  --pooled;
  return st;
}

void Core::recycle(Stream& st) {
  for (Channel& c : st.ch) {
    if (c.blocked) unblock(*c.snd, c);  // finish, reset, stop and close already did: defensive
    if (shaped) clear_arrivals(c);
    c.queue.clear();
    c.queued = 0;
    c.write_ok = false;
    c.read_ok = false;
    c.send_state = SendState::Open;
    c.stopped = false;
    c.reset_code = 0;
    c.stop_code = 0;
    c.order = 0;
    c.wanted = 0;
    c.recv_stopped = false;
    c.recv_done = false;
  }
  st.in_use = false;
  st.next_free = pool[st.bidi];
  pool[st.bidi] = &st;
  ++pooled;
}

void Core::drop_halves(Stream& st, uint8_t n) {
  st.halves_held -= n;
  if (st.halves_held == 0) recycle(st);
}

// ---- Connection operations ----

Result<Stream*> Core::open(uint8_t s, bool bidi) {
  if (closed) return closed_error(s, bidi ? "open_bidi" : "open_uni");
  Side& me = side[s];
  uint32_t& open_count = bidi ? me.open_bidi : me.open_uni;
  if (open_count >= (bidi ? cfg.max_bidi : cfg.max_uni)) return static_cast<Stream*>(nullptr);
  ++open_count;
  Stream* st = take_stream(bidi);
  uint64_t& next_id = bidi ? me.next_bidi_id : me.next_uni_id;
  st->id = next_id;
  next_id += 4;
  st->opener = s;
  st->bidi = bidi;
  st->in_use = true;
  st->channels = bidi ? 2 : 1;
  st->channels_done = 0;
  st->halves_held = bidi ? 4 : 2;
  for (uint8_t i = 0; i < st->channels; ++i) {
    Channel& c = st->ch[i];
    c.from = s ^ i;
    c.snd = &side[c.from];
    c.rcv = &side[c.from ^ 1];
    c.write_ok = !shaped;
    c.read_ok = !shaped;
  }
  Side& peer = side[s ^ 1];
  if (bidi) {
    peer.accept_bidi.push_back(st);
    ++me.stats.bidi_opened;
  } else {
    peer.accept_uni.push_back(st);
    ++me.stats.uni_opened;
  }
  peer.incoming.notify_all();
  handles += bidi ? 2 : 1;
  return st;
}

Result<Stream*> Core::accept(uint8_t s, bool bidi) {
  if (closed) return closed_error(s, bidi ? "accept_bidi" : "accept_uni");
  Side& me = side[s];
  Ring<Stream*>& queue = bidi ? me.accept_bidi : me.accept_uni;
  if (queue.empty()) return static_cast<Stream*>(nullptr);
  Stream* st = queue.pop_front();
  if (bidi) {
    ++me.stats.bidi_accepted;
  } else {
    ++me.stats.uni_accepted;
  }
  handles += bidi ? 2 : 1;
  return st;
}

Status Core::send_datagram(uint8_t s, Bytes payload) {
  if (closed) return closed_error(s, "send_datagram");
  if (payload.size() > cfg.max_datagram_size) {
    return Error{transport_error::kDatagramTooLarge,
                 "datagram of " + std::to_string(payload.size()) +
                     " bytes exceeds max_datagram_size " + std::to_string(cfg.max_datagram_size)};
  }
  ++side[s].stats.datagrams_sent;
  Side& peer = side[s ^ 1];
  if (peer.datagram_queue.size() >= cfg.datagram_queue) {
    ++peer.stats.datagrams_dropped;
    return {};
  }
  // On a shaped network the link may lose it, and it arrives later.
  uint64_t due = 0;
  if (shaped) [[unlikely]] {
    const uint64_t now = executor->now_ns();
    if (link[s].loses(now)) {
      ++peer.stats.datagrams_dropped;
      return {};
    }
    due = link[s].arrival(now, payload.size());
    peer.datagram_due.push_back(due);
    if (due <= now) due = 0;
  }
  peer.datagram_queue.push_back(std::move(payload));
  ++peer.stats.datagrams_received;
  if (due != 0) {
    cfg.network->wake_at(due, peer.datagrams, this);
  } else {
    peer.datagrams.notify_all();
  }
  return {};
}

std::optional<Bytes> Core::recv_datagram(uint8_t s) {
  Side& me = side[s];
  if (me.datagram_queue.empty()) return std::nullopt;
  if (shaped) [[unlikely]] {
    if (me.datagram_due.front() > executor->now_ns()) return std::nullopt;
    (void)me.datagram_due.pop_front();
  }
  return me.datagram_queue.pop_front();
}

void Core::close(uint8_t s, uint64_t code, std::string_view reason) {
  if (closed) return;
  closed = true;
  closer = s;
  for (Side& sd : side) {
    sd.close_error = Error{code, std::string(reason)};
    sd.queued = 0;
    sd.blocked.clear();
    sd.datagram_queue.clear();
    sd.datagram_due.clear();
  }
  for (const auto& owned : streams) {
    Stream& st = *owned;
    if (!st.in_use) continue;
    for (Channel& c : st.ch) {
      c.queue.clear();
      c.queued = 0;
      if (shaped) clear_arrivals(c);
      c.blocked = false;
      c.write_ok = false;
      c.read_ok = false;
      c.writable.notify_all();
      c.readable.notify_all();
    }
  }
  // Streams nobody accepted die with the connection.
  for (Side& sd : side) {
    while (!sd.accept_uni.empty())
      drop_halves(*sd.accept_uni.pop_front(), 1);
    while (!sd.accept_bidi.empty())
      drop_halves(*sd.accept_bidi.pop_front(), 2);
  }
  for (Side& sd : side) {
    sd.can_open.notify_all();
    sd.incoming.notify_all();
    sd.datagrams.notify_all();
    sd.closed.notify_all();
  }
}

// ---- Flow control and priority ----

// Connection credit left for c once every stream ahead of it in the blocked list has been given
// its shortfall. The list is sorted, so the streams ahead form a prefix: those of higher order,
// and those of equal order that blocked before c (all of them when c is not in the list).
uint64_t Core::room_after_priority(const Side& s, const Channel& c, uint64_t room) const {
  for (const Channel* e : s.blocked) {
    if (e == &c || e->order < c.order) break;
    if (e->wanted >= room) return 0;
    room -= e->wanted;
  }
  return room;
}

void Core::block(Side& s, Channel& c, uint64_t wanted) {
  c.wanted = wanted;
  if (c.blocked) return;  // keeps its place
  c.block_seq = s.block_seq++;
  insert_blocked(s, c);
}

void Core::insert_blocked(Side& s, Channel& c) {
  c.blocked = true;
  auto behind = [&](const Channel* e) {
    return e->order != c.order ? e->order < c.order : e->block_seq > c.block_seq;
  };
  s.blocked.insert(std::find_if(s.blocked.begin(), s.blocked.end(), behind), &c);
}

void Core::unblock(Side& s, Channel& c) {
  if (!c.blocked) return;
  c.blocked = false;
  c.wanted = 0;
  s.blocked.erase(std::find(s.blocked.begin(), s.blocked.end(), &c));
}

// Wakes, in priority order, every owed stream that the free connection credit can serve.
void Core::serve_blocked(Side& s) {
  uint64_t room = cfg.conn_window - s.queued;
  for (Channel* e : s.blocked) {
    if (room == 0) break;
    e->writable.notify_all();
    room -= std::min(room, e->wanted);
  }
}

// Drops the bytes the receiver has not read and gives their credit back to the sender.
void Core::discard(Channel& c) {
  if (c.queued == 0) return;
  Side& snd = *c.snd;
  snd.queued -= c.queued;
  c.queued = 0;
  c.queue.clear();
  if (shaped) clear_arrivals(c);
  c.writable.notify_all();
  if (!snd.blocked.empty()) serve_blocked(snd);
}

void Core::receiver_done(Channel& c) {
  if (c.recv_done) return;
  c.recv_done = true;
  Stream& st = *c.stream;
  if (++st.channels_done < st.channels || closed) return;
  Side& opener = side[st.opener];
  if (st.bidi) {
    --opener.open_bidi;
  } else {
    --opener.open_uni;
  }
  opener.can_open.notify_all();
}

// ---- Sending ----

// Every case of write(): refusals, several chunks, short windows, priority claims, waiters.
[[gnu::noinline]] Result<size_t> Core::write(Channel& c, BufChain& data) {
  if (!c.write_ok) [[unlikely]] {
    if (!shaped_sendable(c)) return send_refused(c, "write");
    const uint64_t n = take(c, data);
    if (n > 0) sent(c, n);
    return size_t(n);
  }
  const uint64_t n = take(c, data);
  if (!c.readable.empty()) c.readable.notify_all();
  return size_t(n);
}

[[gnu::always_inline]] inline uint64_t Core::take(Channel& c, BufChain& data) {
  Side& s = *c.snd;
  const uint64_t want = data.size();
  if (want == 0) return 0;
  const uint64_t stream_limited = std::min(want, cfg.stream_window - c.queued);
  uint64_t conn_room = cfg.conn_window - s.queued;
  if (!s.blocked.empty()) conn_room = room_after_priority(s, c, conn_room);
  const uint64_t n = std::min(stream_limited, conn_room);
  if (n == want) {
    c.queue.take_all(data);  // ownership moves: no reference counting
  } else if (n > 0) {
    data.move_front_to(c.queue, n);  // what the window takes; the rest stays queued in data
  }
  c.queued += n;
  s.queued += n;
  s.stats.bytes_sent += n;
  c.rcv->stats.bytes_received += n;
  if (s.queued > s.stats.max_queued_bytes) s.stats.max_queued_bytes = s.queued;
  if (n < stream_limited) {
    block(s, c, stream_limited - n);  // short of connection credit: owed the rest
  } else if (c.blocked) {
    unblock(s, c);
    if (!s.blocked.empty()) serve_blocked(s);
  }
  return n;
}

// Leaves the Open state (finish or reset): no more writes, no more claim on connection credit.
void Core::end_sending(Channel& c) {
  c.write_ok = false;
  if (c.blocked) {
    Side& s = *c.snd;
    unblock(s, c);
    serve_blocked(s);
  }
}

Status Core::finish(Channel& c) {
  if (!c.write_ok && !shaped_sendable(c)) return send_refused(c, "finish");
  c.send_state = SendState::Finished;
  end_sending(c);
  c.readable.notify_all();
  return {};
}

Status Core::reset(Channel& c, uint64_t code) {
  if (closed) return closed_error(c.from, "reset");
  if (c.send_state != SendState::Open) return send_state_error(c, "reset");
  c.send_state = SendState::Reset;
  c.reset_code = code;
  end_sending(c);
  if (c.stopped) return {};  // the receiver gave up already: nothing to tell it
  ++c.snd->stats.resets_sent;
  ++c.rcv->stats.resets_received;
  discard(c);
  c.readable.notify_all();
  return {};
}

void Core::set_order(Channel& c, int64_t order) {
  if (c.order == order) return;
  c.order = order;
  if (!c.blocked) return;
  // Moves to its new order's place, keeping the FIFO rank it earned and what it is owed.
  Side& s = *c.snd;
  s.blocked.erase(std::find(s.blocked.begin(), s.blocked.end(), &c));
  insert_blocked(s, c);
  serve_blocked(s);
}

void Core::release_send(Channel& c) {
  --handles;
  if (!closed && c.send_state == SendState::Open && !c.stopped) (void)reset(c, 0);
  drop_halves(*c.stream, 1);
}

// ---- Receiving ----

// Every case of read(): nothing to hand out, a chunk larger than max, waiters to wake.
[[gnu::noinline]] ReadResult Core::read(Channel& c, Bytes& chunk, size_t max) {
  if (!c.read_ok) [[unlikely]] {
    if (shaped && !closed && !c.recv_stopped) return read_shaped(c, chunk, max);
    return read_without_data(c, chunk);
  }
  if (c.queue.empty()) return read_without_data(c, chunk);
  hand_out(c, chunk, max);
  return {ReadStatus::Data};
}

size_t Core::hand_out(Channel& c, Bytes& chunk, size_t max) {
  chunk = c.queue.take_front(max);
  const size_t n = chunk.size();
  credit_returned(c, n);
  return n;
}

void Core::credit_returned(Channel& c, uint64_t n) {
  c.queued -= n;
  Side& snd = *c.snd;
  snd.queued -= n;
  c.writable.notify_all();
  if (!snd.blocked.empty()) serve_blocked(snd);
}

// Every case of read_all() but the whole queue of an ideal pair: a shaped network hands out
// only what arrived, one chunk at a time, and the refusals are read()'s.
[[gnu::noinline]] ReadResult Core::read_all(Channel& c, BufChain& chunks) {
  if (c.read_ok && !c.queue.empty()) {
    const uint64_t n = c.queued;
    chunks.take_all(c.queue);
    credit_returned(c, n);
    return {ReadStatus::Data};
  }
  Bytes chunk;
  const ReadResult r = read(c, chunk, SIZE_MAX);
  if (r.status == ReadStatus::Data) chunks.push(std::move(chunk));
  return r;
}

ReadResult Core::read_without_data(Channel& c, Bytes& chunk) {
  if (closed) return {ReadStatus::Error, closed_code(c.from ^ 1)};
  if (c.recv_stopped) return {ReadStatus::Error, transport_error::kStreamStopped};
  switch (c.send_state) {
    case SendState::Open:
      chunk.reset();  // the reader waits: its spent chunk must not hold the sender's block
      return {ReadStatus::WouldBlock};
    case SendState::Finished:
      receiver_done(c);
      return {ReadStatus::Fin};
    case SendState::Reset:
      receiver_done(c);
      return {ReadStatus::Reset, c.reset_code};
  }
  return {ReadStatus::WouldBlock};
}

void Core::stop(Channel& c, uint64_t code) {
  if (closed || c.recv_done) return;
  c.recv_stopped = true;
  c.read_ok = false;
  discard(c);
  if (c.send_state != SendState::Reset) {
    c.stopped = true;
    c.stop_code = code;
    ++c.rcv->stats.stops_sent;
    ++c.snd->stats.stops_received;
    end_sending(c);
    c.writable.notify_all();
  }
  receiver_done(c);
}

void Core::release_recv(Channel& c) {
  --handles;
  if (!closed && !c.recv_done) {
    if (c.queue.empty() && c.send_state != SendState::Open) {
      receiver_done(c);  // everything was read; only the FIN or the reset itself was not
    } else {
      stop(c, 0);
    }
  }
  drop_halves(*c.stream, 1);
}

// ---- The halves the application holds ----

uint64_t SendHalf::id() const {
  return ch_->stream->id;
}
// The per-chunk path, kept small enough to need no stack frame: one chunk that fits both
// windows, with no claim on connection credit and nobody waiting, moves straight into the
// receiver's queue. Everything else goes to Core::write.
Result<size_t> SendHalf::write(BufChain& data) {
  Channel& c = *ch_;
  const Core& core = *c.core;
  Side& s = *c.snd;
  const uint64_t want = data.size();
  // (A stream in the blocked list implies a non-empty list: one test covers both.)
  if (c.write_ok && want != 0 && s.blocked.empty() && want <= core.cfg.stream_window - c.queued &&
      want <= core.cfg.conn_window - s.queued && c.readable.empty()) [[likely]] {
    c.queue.take_all(data);  // the chain's chunks move, or its storage when the queue is empty
    c.queued += want;
    s.queued += want;
    s.stats.bytes_sent += want;
    c.rcv->stats.bytes_received += want;
    if (s.queued > s.stats.max_queued_bytes) s.stats.max_queued_bytes = s.queued;
    return want;
  }
  return c.core->write(c, data);
}
Status SendHalf::finish() {
  return ch_->core->finish(*ch_);
}
Status SendHalf::reset(uint64_t code) {
  return ch_->core->reset(*ch_, code);
}
void SendHalf::set_send_order(int64_t order) {
  ch_->core->set_order(*ch_, order);
}
WaitList& SendHalf::writable() {
  return ch_->writable;
}
std::optional<uint64_t> SendHalf::stop_code() const {
  if (!ch_->stopped) return std::nullopt;
  return ch_->stop_code;
}
void SendHalf::release() {
  Core* core = ch_->core;
  core->release_send(*ch_);
  Core::unref(core);
}

uint64_t RecvHalf::id() const {
  return ch_->stream->id;
}
// The per-chunk path, kept small: the front chunk fits, nobody waits to write and nobody is
// owed connection credit. Everything else goes to Core::read.
ReadResult RecvHalf::read(Bytes& chunk, size_t max) {
  Channel& c = *ch_;
  Side& snd = *c.snd;
  if (c.read_ok && !c.queue.empty() && c.writable.empty() && snd.blocked.empty()) [[likely]] {
    Bytes& front = c.queue.front();
    const size_t n = front.size();
    if (n <= max) [[likely]] {
      c.queue.pop_front(chunk);
      c.queued -= n;
      snd.queued -= n;
      return {ReadStatus::Data};
    }
  }
  return c.core->read(c, chunk, max);
}
// The whole queue at once, nobody to wake: into an empty chain it is one exchange of storage.
ReadResult RecvHalf::read_all(BufChain& chunks) {
  Channel& c = *ch_;
  Side& snd = *c.snd;
  if (c.read_ok && !c.queue.empty() && c.writable.empty() && snd.blocked.empty()) [[likely]] {
    const uint64_t n = c.queued;
    chunks.take_all(c.queue);
    c.queued = 0;
    snd.queued -= n;
    return {ReadStatus::Data};
  }
  return c.core->read_all(c, chunks);
}
void RecvHalf::stop(uint64_t code) {
  ch_->core->stop(*ch_, code);
}
WaitList& RecvHalf::readable() {
  return ch_->readable;
}
void RecvHalf::release() {
  Core* core = ch_->core;
  core->release_recv(*ch_);
  Core::unref(core);
}

}  // namespace moq::sim::memory::detail
