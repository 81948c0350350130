// The transport.h Connection over QMux-00 (frame.h, params.h): QUIC's streams, flow control and
// stream limits carried as frames on one reliable byte stream or as one frame per WebSocket
// message. Sans-IO: the connection owns no socket. Its carrier (pipe.h in the qmux world, a
// WebSocket later) hands it what arrived (receive, receive_message) and takes what it has to
// send (take_output, waiting on output_ready()).
//
// Semantics beyond transport.h:
// - The connection's first frame is QX_TRANSPORT_PARAMETERS. Until the peer's arrive nothing can
//   be opened (open_uni/open_bidi give a null stream: wait on can_open()).
// - Flow control as QUIC has it, enforced both ways: write() takes what the stream's and the
//   connection's credit allow (0: blocked, wait on writable()); reading returns credit, granted
//   with MAX_STREAM_DATA / MAX_DATA once half a window has been read; a stream the peer finished
//   gets no more. A peer that sends past a limit, or opens a stream at or above its MAX_STREAMS,
//   is closed with FLOW_CONTROL_ERROR or STREAM_LIMIT_ERROR and a reason naming the stream and the
//   numbers.
// - A stream's credit (MAX_STREAMS) comes back when both of its directions are done: this side
//   read its end or reset (or stopped it, or dropped it) and finished, reset or was stopped on
//   its sending side.
// - STREAM payloads are cut under kMaxFramePayload; a larger one from the peer is an error.
// - STOP_SENDING is answered with RESET_STREAM carrying the same code; write() and finish() then
//   fail with the code, and reset() succeeds and does nothing.
// - Any malformed frame or frame not allowed on its stream closes the connection with
//   CONNECTION_CLOSE (the QUIC error code and a reason) and close_error() says what was wrong,
//   code transport_error::kQuicError. close(code, reason) sends APPLICATION_CLOSE.
// - Datagrams travel as DATAGRAM frames (0x31), reliably; a full receive queue drops them.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/ring.h"
#include "model/transport.h"
#include "sim/qmux/frame.h"
#include "sim/qmux/params.h"
#include "sim/qmux/qmux_stream.h"

namespace moq::sim::qmux {

struct QmuxSettings {
  std::string alpn;
  bool client = true;
  Framing framing = Framing::Stream;
  uint64_t stream_window = 1 << 20;  // bytes one stream may have unread here
  uint64_t conn_window = 16 << 20;   // bytes the peer may have unread here over all streams
  uint32_t max_uni = 1024;           // concurrent uni streams the peer may open
  uint32_t max_bidi = 128;           // concurrent bidi streams the peer may open
  size_t max_datagram_size = 1200;   // larger payloads fail with kDatagramTooLarge
  size_t datagram_queue = 256;       // datagrams held unread before drops
};

// What went through the carrier, from this endpoint's side.
struct QmuxWireStats {
  uint64_t frames_sent = 0;
  uint64_t frames_received = 0;
  uint64_t bytes_out = 0;  // every frame byte taken by the carrier
  uint64_t bytes_in = 0;   // every byte handed in by the carrier
};

class QmuxConnection : public Connection {
 public:
  QmuxConnection(Executor& executor, QmuxSettings settings);
  ~QmuxConnection() override;
  QmuxConnection(const QmuxConnection&) = delete;
  QmuxConnection& operator=(const QmuxConnection&) = delete;

  Executor& executor() override { return *executor_; }
  std::string_view alpn() const override { return settings_.alpn; }
  bool is_client() const override { return settings_.client; }

  Result<SendStreamPtr> open_uni() override;
  Result<BidiStream> open_bidi() override;
  WaitList& can_open() override { return can_open_; }
  Result<RecvStreamPtr> accept_uni() override;
  Result<BidiStream> accept_bidi() override;
  WaitList& incoming() override { return incoming_; }
  Status send_datagram(Bytes payload) override;
  std::optional<Bytes> recv_datagram() override;
  WaitList& datagrams() override { return datagrams_; }
  void close(uint64_t code, std::string_view reason) override;
  const std::optional<Error>& close_error() const override { return close_error_; }
  // Whether this end closed it (a close frame of its own went out), not the peer or a lost carrier.
  bool closed_locally() const { return closed_locally_; }
  WaitList& closed() override { return closed_; }
  const ConnectionStats& stats() const override { return stats_; }

  // ---- The carrier's side ----

  // Framing::Stream: the next bytes of the byte stream, cut anywhere; the chunks are kept by
  // reference (bytes is left empty). Ignored once the connection is closed.
  void receive(BufChain& bytes);
  // Framing::Message: one message, holding exactly one frame.
  void receive_message(const Bytes& message);
  // Frames waiting to be taken.
  bool has_output() const { return !out_.empty() || credit_pending(); }
  // Framing::Stream: every byte waiting; Framing::Message: the next frame (one message). Appended
  // to the back of to.
  void take_output(BufChain& to);
  // Notified when output appears.
  WaitList& output_ready() { return output_ready_; }
  // The carrier ended or broke: the connection closes with why, sending nothing.
  void lost(const Error& why);

  // The peer's transport parameters arrived.
  bool established() const { return peer_params_.has_value(); }
  const std::optional<TransportParams>& peer_params() const { return peer_params_; }
  const QmuxWireStats& wire() const { return wire_; }
  // Stream objects in use: for leak checks.
  size_t live_streams() const { return live_streams_; }

 private:
  friend class detail::QxSendHalf;
  friend class detail::QxRecvHalf;
  using QxStream = detail::QxStream;

  // Streams of one kind (local or peer, bidi or uni), by index: slot i holds the stream of index
  // base + i, null while a peer's stream has not been seen yet.
  struct StreamTable {
    Ring<QxStream*> slots;
    uint64_t base = 0;
    uint64_t next = 0;    // local: the next index to open; peer: one past the highest seen
    uint64_t limit = 0;   // local: the peer's MAX_STREAMS; peer: ours, as advertised
    uint64_t closed = 0;  // peer: streams retired (their credit goes back)
  };
  static size_t kind_of(bool local, bool bidi) { return (local ? 0 : 2) + (bidi ? 0 : 1); }
  StreamTable& table(bool local, bool bidi) { return tables_[kind_of(local, bidi)]; }

  // ---- Output ----
  // One frame's header from the arena (and its payload by reference, if any) on out_.
  uint8_t* frame_space(size_t max) { return arena_.reserve(max); }
  void emit(size_t header, BufChain* payload = nullptr, size_t payload_size = 0);
  void emit_bytes(std::span<const uint8_t> frame);
  void emit_credit();
  bool credit_pending() const {
    return max_data_pending_ || streams_pending_[0] || streams_pending_[1];
  }
  void output_appeared();

  // ---- Streams ----
  QxStream* take_stream(uint64_t id, bool local, bool bidi);
  Result<QxStream*> open_stream(bool bidi);
  QxStream* next_accepted(bool bidi);
  // The stream of id, or null: a peer's new stream is opened; a retired one or a frame the stream
  // cannot take closes nothing but gives null with *ok still true. *ok false: a protocol error
  // closed the connection.
  QxStream* find_stream(uint64_t id, const char* frame, bool for_send, bool for_recv, bool* ok);
  void maybe_retire(QxStream& s);
  void stream_unused(QxStream& s);
  void end_streams();

  // Sending (the halves call these; no transport entry point calls another).
  Result<size_t> do_write(QxStream& s, BufChain& data);
  Status do_finish(QxStream& s);
  Status do_reset(QxStream& s, uint64_t code);
  void send_reset(QxStream& s, uint64_t code);
  void conn_block(QxStream& s);
  void wake_conn_blocked();
  // Receiving.
  ReadResult do_read(QxStream& s, Bytes& chunk, size_t max);
  ReadResult read_without_data(QxStream& s);
  void do_stop(QxStream& s, uint64_t code);
  void recv_done(QxStream& s);
  void consumed(QxStream* s, uint64_t n);
  Error closed_error(const char* op) const;

  // ---- Input ----
  void parse_input();
  // A decoded frame other than STREAM. False: the connection closed.
  bool on_frame(const Frame& f);
  // A STREAM frame's header: the stream the data goes to (null: discard it). False: closed.
  bool on_stream_header(const Frame& f, QxStream*& s);
  void on_stream_data(QxStream* s, Bytes data);
  void on_stream_end(QxStream* s, const Frame& f);
  void protocol_error(uint64_t code, uint64_t frame_type, const std::string& why);
  void enter_closed(Error error);

  Executor* executor_;
  QmuxSettings settings_;
  std::optional<TransportParams> peer_params_;
  std::optional<Error> close_error_;
  bool closed_locally_ = false;

  std::array<StreamTable, 4> tables_;
  std::vector<std::unique_ptr<QxStream>> streams_;
  QxStream* free_ = nullptr;
  size_t live_streams_ = 0;
  Ring<QxStream*> accept_uni_, accept_bidi_;
  std::vector<QxStream*> conn_blocked_;  // by send order (descending), then first blocked

  // Connection flow control.
  uint64_t conn_sent_ = 0, conn_send_max_ = 0;
  uint64_t conn_received_ = 0, conn_consumed_ = 0, conn_recv_max_ = 0;
  bool max_data_pending_ = false;
  bool streams_pending_[2] = {false, false};  // MAX_STREAMS bidi, uni

  // Output: frames in order; in Framing::Message also each frame's size.
  BufChain out_;
  Ring<uint32_t> out_sizes_;
  ByteArena arena_{4096};
  // Input.
  BufChain in_;
  std::vector<uint8_t> scratch_;  // a frame cut across chunks, copied together to be decoded
  bool params_in_ = false;        // the first frame (transport parameters) arrived

  Ring<Bytes> datagrams_in_;
  WaitList can_open_{"qmux stream credit"};
  WaitList incoming_{"qmux incoming stream"};
  WaitList datagrams_{"qmux datagram"};
  WaitList closed_{"qmux connection closed"};
  WaitList output_ready_{"qmux output"};
  ConnectionStats stats_;
  QmuxWireStats wire_;
};

}  // namespace moq::sim::qmux
