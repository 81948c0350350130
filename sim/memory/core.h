// The state two in-memory endpoints share, and the stream halves handed to the application.
// Internal to sim/memory: include memory_transport.h instead.
//
// A stream is one pooled Stream object holding one Channel per direction (uni: one, bidi: two).
// A Channel is the queue of Bytes slices from its sending side to its receiving side plus both
// sides' state; its SendHalf and RecvHalf are the objects behind SendStreamPtr and RecvStreamPtr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/result.h"
#include "model/base/ring.h"
#include "model/transport.h"
#include "model/transport_send_state.h"
#include "sim/memory/memory_transport.h"
#include "sim/net/link.h"
#include "sim/net/network.h"

namespace moq::sim::memory::detail {

struct Channel;
struct Core;
struct Side;
struct Stream;

class SendHalf final : public SendStream {
 public:
  explicit SendHalf(Channel& channel) : ch_(&channel) {}
  uint64_t id() const override;
  Result<size_t> write(BufChain& data) override;
  Status finish() override;
  Status reset(uint64_t code) override;
  void set_send_order(int64_t order) override;
  WaitList& writable() override;
  std::optional<uint64_t> stop_code() const override;
  void release() override;

 private:
  Channel* ch_;
};

class RecvHalf final : public RecvStream {
 public:
  explicit RecvHalf(Channel& channel) : ch_(&channel) {}
  uint64_t id() const override;
  ReadResult read(Bytes& chunk, size_t max) override;
  ReadResult read_all(BufChain& chunks) override;
  void stop(uint64_t code) override;
  WaitList& readable() override;
  void release() override;

 private:
  Channel* ch_;
};

struct Channel {
  Channel(Stream& s, Core& c) : stream(&s), core(&c), send(*this), recv(*this) {}
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  Stream* stream;
  Core* core;
  Side* snd = nullptr;  // the sending side's state
  Side* rcv = nullptr;  // the receiving side's state
  SendHalf send;
  RecvHalf recv;
  // Written, not yet read. A write of a whole chain into an empty queue, and a read of the
  // whole queue into an empty chain, exchange storage instead of moving chunks
  // (BufChain::take_all).
  BufChain queue;
  uint64_t queued = 0;  // bytes in queue
  uint8_t from = 0;     // the sending side's index

  // Gates of the fast paths: one test each instead of one per state that refuses.
  // Both stay false on a shaped network (Core::shaped), whose paths are the slow ones.
  bool write_ok = false;  // Open, not stopped, connection open
  bool read_ok = false;   // not stopped by the receiver, connection open

  // Sending side.
  SendState send_state = SendState::Open;
  bool stopped = false;  // the receiver sent STOP_SENDING
  uint64_t reset_code = 0;
  uint64_t stop_code = 0;
  int64_t order = 0;
  bool blocked = false;    // in the sender's list of streams owed connection credit
  uint64_t block_seq = 0;  // FIFO rank among equal send orders
  uint64_t wanted = 0;     // the shortfall owed while blocked

  // Receiving side.
  bool recv_stopped = false;  // our own stop(): reads fail with kStreamStopped
  bool recv_done = false;     // read the FIN or the reset, stopped, or dropped: credit counted

  // A shaped network only (Core::shaped): each write's bytes and when they arrive, in order, and
  // the bytes that arrived and are not read yet. Their sum is queued.
  struct Arrival {
    uint64_t due = 0;
    uint64_t bytes = 0;
  };
  Ring<Arrival> arrivals;
  uint64_t arrived = 0;

  WaitList writable{"stream writable"};
  WaitList readable{"stream readable"};
};

struct Stream {
  explicit Stream(Core& owner) : core(&owner), ch{Channel(*this, owner), Channel(*this, owner)} {}
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Core* core;
  uint64_t id = 0;
  uint8_t opener = 0;
  bool bidi = false;
  bool in_use = false;
  uint8_t channels = 1;         // 1 (uni) or 2 (bidi)
  uint8_t channels_done = 0;    // channels whose receiving half is done
  uint8_t halves_held = 0;      // halves not yet released (the accept queue holds the acceptor's)
  Channel ch[2];                // ch[0]: opener -> acceptor; ch[1]: acceptor -> opener (bidi)
  Stream* next_free = nullptr;  // while pooled
};

// One endpoint's state.
struct Side {
  ConnectionStats stats;
  std::optional<Error> close_error;
  WaitList can_open{"stream credit"};
  WaitList incoming{"incoming stream"};
  WaitList datagrams{"datagram"};
  WaitList closed{"connection closed"};
  Ring<Stream*> accept_uni;  // opened by the peer, not yet accepted
  Ring<Stream*> accept_bidi;
  Ring<Bytes> datagram_queue;
  Ring<uint64_t> datagram_due;  // a shaped network only: when each queued datagram arrives
  uint32_t open_uni = 0;        // streams this side opened whose credit is not back yet
  uint32_t open_bidi = 0;
  uint64_t next_uni_id;
  uint64_t next_bidi_id;
  uint64_t queued = 0;  // bytes this side sent that the peer has not read
  // Channels owed connection credit, sorted by (order descending, block_seq ascending).
  std::vector<Channel*> blocked;
  uint64_t block_seq = 0;
};

struct Core {
  Core(Executor& ex, const PairConfig& config);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  Executor* executor;
  PairConfig cfg;
  // A network that is not ideal (PairConfig::network): bytes and datagrams reach the reader at
  // the arrival its link gives them. Its channels keep write_ok and read_ok false, so that the
  // halves' fast paths never run and the shaped paths cost an ideal pair nothing.
  bool shaped = false;
  net::LinkDirection link[2];  // link[s]: from side s to its peer
  Side side[2];
  bool closed = false;
  uint8_t closer = 0;
  uint32_t connections = 2;                      // MemoryConnection objects alive
  uint64_t handles = 0;                          // stream handles held by the application
  std::vector<std::unique_ptr<Stream>> streams;  // every Stream ever made, in use or pooled
  // Recycled stream states (intrusive free lists), uni and bidi apart: a state keeps the
  // capacity its queues grew to, and a uni (data) stream reused as a bidi (request) stream, or
  // the other way round, would grow its queues again in a later round.
  Stream* pool[2] = {nullptr, nullptr};
  size_t pooled = 0;

  // Connection operations.
  Result<Stream*> open(uint8_t s, bool bidi);
  Result<Stream*> accept(uint8_t s, bool bidi);
  Status send_datagram(uint8_t s, Bytes payload);
  std::optional<Bytes> recv_datagram(uint8_t s);
  void close(uint8_t s, uint64_t code, std::string_view reason);

  // Stream operations. The halves' write() and read() handle the per-chunk fast paths
  // themselves and come here for everything else.
  Result<size_t> write(Channel& c, BufChain& data);
  Status finish(Channel& c);
  Status reset(Channel& c, uint64_t code);
  void set_order(Channel& c, int64_t order);
  ReadResult read(Channel& c, Bytes& chunk, size_t max);
  // read_all() when the fast path does not apply.
  ReadResult read_all(Channel& c, BufChain& chunks);
  // read() when no data can be handed out: closed, stopped, empty, FIN or reset.
  ReadResult read_without_data(Channel& c, Bytes& chunk);
  // read() on a shaped network: only the bytes that arrived.
  ReadResult read_shaped(Channel& c, Bytes& chunk, size_t max);
  void stop(Channel& c, uint64_t code);
  void release_send(Channel& c);
  void release_recv(Channel& c);

  // The error for an operation by side s on the closed connection.
  Error closed_error(uint8_t s, const char* op) const;
  // Why write() or finish() refuses: the connection is closed, or the stream finished, reset or
  // stopped.
  Error send_refused(const Channel& c, const char* op) const;
  uint64_t closed_code(uint8_t s) const;
  // Drops one reference to the core (a connection or a handle); deletes it at zero.
  static void unref(Core* core);

  // Flow control and priority, used by the halves' write() and read().
  void block(Side& s, Channel& c, uint64_t wanted);
  void unblock(Side& s, Channel& c);
  uint64_t room_after_priority(const Side& s, const Channel& c, uint64_t room) const;
  void serve_blocked(Side& s);

 private:
  // write()'s flow control and queueing: returns the bytes taken from data.
  uint64_t take(Channel& c, BufChain& data);
  // A shaped network: when the n bytes just queued arrive, and the reader's wake-up then.
  void sent(Channel& c, uint64_t n);
  static void clear_arrivals(Channel& c) {
    c.arrivals.clear();
    c.arrived = 0;
  }
  // Hands out at most max bytes from the front of the queue; returns how many.
  size_t hand_out(Channel& c, Bytes& chunk, size_t max);
  // n bytes left the queue: their credit returns to the sender, and writers waiting for it wake.
  void credit_returned(Channel& c, uint64_t n);
  // On a shaped network, where write_ok stays false: whether the stream may still send.
  bool shaped_sendable(const Channel& c) const {
    return shaped && !closed && c.send_state == SendState::Open && !c.stopped;
  }
  Stream* take_stream(bool bidi);
  void recycle(Stream& st);
  void drop_halves(Stream& st, uint8_t n);
  void discard(Channel& c);
  void end_sending(Channel& c);
  void receiver_done(Channel& c);
  void insert_blocked(Side& s, Channel& c);
};

}  // namespace moq::sim::memory::detail
