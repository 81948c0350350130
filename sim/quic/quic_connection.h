// The transport.h Connection over real QUIC: ngtcp2 0.12.1 with GnuTLS (research/quic-backend.md
// records what that version needs). Sans-IO underneath: the connection's endpoint (endpoint.h)
// feeds it datagrams and sends what it writes; an I/O task on the connection's executor runs
// ngtcp2's write loop and timers, so the same code runs on real UDP with a real clock and on
// simulated links with the virtual clock.
//
// Semantics beyond transport.h (where they differ from sim/memory, it is QUIC that differs):
// - Streams are flow-controlled end to end by QUIC; write() accepts up to send_buffer bytes per
//   stream written but not yet acknowledged, so a reader that stops reading blocks its writer.
// - A stream the peer opened appears when its first frame arrives (a bidi stream opened and not
//   written is invisible to the peer, as QUIC has it).
// - Stream credit comes back when the receiving application is done with a stream (read its
//   end or reset, stopped it, or dropped it), for uni streams by us rather than by ngtcp2: 0.12.1
//   never closes a peer's uni stream (quic-backend.md, pitfall 1).
// - When the peer stops a stream, write() blocks until ngtcp2 reports the stop code (when it
//   closes the stream), then fails with it: 0.12 has no STOP_SENDING callback.
// - close(code, reason) sends CONNECTION_CLOSE; the connection stays in its closing period
//   (3 PTO) answering the peer with that close, without the application's involvement.
#pragma once

#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/base/bytes.h"
#include "model/base/ring.h"
#include "model/transport.h"
#include "sim/quic/datagram.h"
#include "sim/quic/quic_stream.h"
#include "sim/quic/tls.h"

namespace moq::sim::quic {

class QuicEndpoint;

// Transport limits and timing of one connection: what it lets its peer do, and how long it waits.
struct QuicSettings {
  uint64_t stream_window = 1 << 20;  // bytes one peer stream may have unread here
  uint64_t conn_window = 16 << 20;   // bytes the peer may have unread here over all streams
  uint32_t max_uni = 1024;           // concurrent uni streams the peer may open
  uint32_t max_bidi = 128;           // concurrent bidi streams the peer may open
  uint64_t send_buffer = 1 << 20;    // bytes one stream holds written but not yet acknowledged
  uint64_t idle_timeout_ns = 30'000'000'000;
  uint64_t handshake_timeout_ns = 10'000'000'000;
  // ngtcp2 0.12.1 paces the client's second flight by the initial RTT (333 ms by default), which
  // delays every handshake by ~25 ms on loopback (quic-backend.md, pitfall 2). 10 ms keeps
  // loopback and simulated handshakes short; raise it for long paths.
  uint64_t initial_rtt_ns = 10'000'000;
  // How long this endpoint may delay an acknowledgement (QUIC's default: 25 ms).
  uint64_t max_ack_delay_ns = 25'000'000;
  size_t max_datagram_size = 1200;  // DATAGRAM frames accepted (max_datagram_frame_size)
  size_t datagram_queue = 256;      // datagrams held unread before drops
};

class QuicConnection final : public Connection {
 public:
  ~QuicConnection() override;
  QuicConnection(const QuicConnection&) = delete;
  QuicConnection& operator=(const QuicConnection&) = delete;

  Executor& executor() override { return *executor_; }
  std::string_view alpn() const override { return alpn_; }
  bool is_client() const override { return client_; }

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
  WaitList& closed() override { return closed_; }
  const ConnectionStats& stats() const override { return stats_; }
  const WireStats* wire_stats() const override { return &wire_; }

  // The handshake finished (streams can be opened); notified on handshake() with failures too.
  bool established() const { return established_; }
  WaitList& handshake() { return handshake_; }
  // Client: the handshake failed because the server's certificate was not verified against the
  // trust it was given (close_error() says why), so a command can name the options that trust it.
  bool peer_certificate_rejected() const { return certificate_rejected_; }
  // Stream data or datagrams waiting to be sent: the write loop has more to do.
  bool has_unsent() const;
  // Packets sent that need an acknowledgement and have not had it yet.
  bool has_unacked() const;
  // When the connection's next QUIC timer (loss detection, acknowledgement, pacing, idle) fires;
  // UINT64_MAX when none is armed.
  uint64_t next_timer() const;
  const Address& remote() const { return remote_; }
  // Stream objects alive (held by the application or by ngtcp2): for leak checks.
  size_t live_streams() const { return live_streams_; }

 private:
  friend class QuicEndpoint;
  friend class detail::QSendHalf;
  friend class detail::QRecvHalf;
  friend struct Callbacks;
  class IoTask;

  QuicConnection(QuicEndpoint& endpoint, const Address& remote, bool client,
                 const QuicSettings& settings);
  // Client: ngtcp2 and TLS set up, first flight scheduled.
  Status start_client(std::vector<std::string> alpns, std::shared_ptr<TlsTrust> trust,
                      const std::string& host);
  // Server: hd is the client's first Initial (ngtcp2_accept).
  Status start_server(const ngtcp2_pkt_hd& hd, std::shared_ptr<TlsIdentity> identity,
                      const std::vector<std::string>& alpns);
  ngtcp2_settings make_settings() const;
  ngtcp2_transport_params make_params() const;
  ngtcp2_path path();
  uint64_t ts() const;

  // Endpoint side: one received datagram; the peer's address is remote().
  void receive(std::span<const uint8_t> datagram);
  // The endpoint learned that nothing answers at remote() (ICMP port unreachable).
  void on_unreachable();
  // The connection ids ngtcp2 uses for this connection, for the endpoint's routing table.
  std::vector<std::string> source_ids() const;

  // The I/O task's step: timers, then the write loop.
  Poll on_io();
  void wake_io();
  void flush();
  bool write_datagrams(uint8_t* buf, size_t max, size_t& budget);
  detail::QStream* next_sendable();
  void send_packet(const uint8_t* data, size_t n);

  // Failures and endings.
  void fail(int liberr, const char* during);  // an ngtcp2 error
  void enter_closing(Error error);  // close_error() set, streams failed, closing period begun
  void end_streams();
  void send_close(const ngtcp2_connection_close_error& ccerr);
  void release_ngtcp2();  // closing period over: ngtcp2 and TLS freed, ids unrouted
  Error describe_close(const ngtcp2_connection_close_error& ccerr) const;  // the peer's close

  // Streams.
  detail::QStream* take_stream(int64_t id, bool local, bool bidi);
  Result<detail::QStream*> open_stream(bool bidi);
  detail::QStream* next_accepted(bool bidi);
  void stream_unused(detail::QStream& s);  // handles and ngtcp2 both done: back to the pool
  void recv_done(detail::QStream& s);      // the application is done reading s
  void return_credit(uint64_t bytes, detail::QStream* s);
  void mark_sendable(detail::QStream& s);
  Error closed_error(const char* op) const;

  // ngtcp2 callbacks (Callbacks forwards to these).
  void on_handshake_completed();
  int on_stream_open(int64_t id);
  void on_stream_data(detail::QStream* s, uint32_t flags, const uint8_t* data, size_t n);
  void on_acked(detail::QStream* s, uint64_t offset, uint64_t n);
  void on_stream_close(detail::QStream* s, uint32_t flags, uint64_t code);
  void on_stream_reset(detail::QStream* s, uint64_t code);
  void on_datagram(const uint8_t* data, size_t n);
  int on_new_cid(ngtcp2_cid* cid, uint8_t* token, size_t len);
  void on_remove_cid(const ngtcp2_cid* cid);

  QuicEndpoint* endpoint_;
  Executor* executor_;
  Address remote_;
  Address local_;
  bool client_;
  QuicSettings settings_;
  std::string alpn_;
  std::string host_;                       // the server name a client checks (GnuTLS points at it)
  std::shared_ptr<TlsTrust> trust_;        // the client's credentials, used by the session
  std::shared_ptr<TlsIdentity> identity_;  // the server's
  ngtcp2_conn* conn_ = nullptr;
  gnutls_session_t tls_ = nullptr;
  ngtcp2_crypto_conn_ref conn_ref_{};
  ngtcp2_mem mem_{};  // ngtcp2's allocator: malloc, counted in wire_.library_allocations
  std::unique_ptr<IoTask> io_;
  bool established_ = false;
  bool closing_ = false;               // closing or draining period, or released
  uint64_t closing_until_ = 0;         // end of the closing period (executor time)
  std::vector<uint8_t> close_packet_;  // resent while closing
  std::optional<Error> close_error_;
  bool closed_locally_ = false;  // we sent the close: stream errors carry kConnectionClosed
  bool certificate_rejected_ = false;

  // Streams: every QStream this connection made, in use or pooled (a free list).
  std::vector<std::unique_ptr<detail::QStream>> streams_;
  detail::QStream* free_ = nullptr;
  size_t live_streams_ = 0;
  std::vector<detail::QStream*> sendable_;  // streams with something to send, any order
  Ring<detail::QStream*> accept_uni_, accept_bidi_;
  ByteArena inbound_{16384};  // received stream bytes and datagrams, handed out as slices

  Ring<Bytes> datagrams_out_, datagrams_in_;
  WaitList can_open_{"quic stream credit"};
  WaitList incoming_{"quic incoming stream"};
  WaitList datagrams_{"quic datagram"};
  WaitList closed_{"quic connection closed"};
  WaitList handshake_{"quic handshake"};
  ConnectionStats stats_;
  WireStats wire_;
  std::array<uint8_t, 1500> packet_{};
};

}  // namespace moq::sim::quic
