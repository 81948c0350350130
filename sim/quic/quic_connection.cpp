// Setup, the I/O loop and closing. ngtcp2's callbacks are in callbacks.cpp, the stream halves in
// quic_stream.cpp.
#include "sim/quic/quic_connection.h"

#include <ngtcp2/ngtcp2_crypto_gnutls.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "sim/quic/callbacks.h"
#include "sim/quic/cid.h"
#include "sim/quic/endpoint.h"

namespace moq::sim::quic {

namespace {

// ngtcp2 takes timestamps from 1 s on: a virtual clock starts at 0, and 0 is not a safe time
// for ngtcp2's "never happened" checks.
constexpr uint64_t kEpoch = 1'000'000'000;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

class QuicConnection::IoTask final : public Task {
 public:
  explicit IoTask(QuicConnection& c) : Task(c.executor(), "quic io"), c_(&c), timer(*this) {}
  Poll poll() override { return c_->on_io(); }

 private:
  QuicConnection* c_;

 public:
  Timer timer;
};

// ---- Setup ----

QuicConnection::QuicConnection(QuicEndpoint& endpoint, const Address& remote, bool client,
                               const QuicSettings& settings)
    : endpoint_(&endpoint),
      executor_(&endpoint.executor()),
      remote_(remote),
      local_(endpoint.socket().local_address()),
      client_(client),
      settings_(settings),
      io_(std::make_unique<IoTask>(*this)) {
  // ngtcp2 allocates through mem_, so that its share of a round's allocations can be told apart.
  mem_.user_data = &wire_.library_allocations;
  mem_.malloc = [](size_t n, void* count) {
    ++*static_cast<uint64_t*>(count);
    return std::malloc(n);
  };
  mem_.free = [](void* p, void*) { std::free(p); };
  mem_.calloc = [](size_t k, size_t n, void* count) {
    ++*static_cast<uint64_t*>(count);
    return std::calloc(k, n);
  };
  mem_.realloc = [](void* p, size_t n, void* count) {
    ++*static_cast<uint64_t*>(count);
    return std::realloc(p, n);
  };
  conn_ref_.user_data = this;
  conn_ref_.get_conn = [](ngtcp2_crypto_conn_ref* ref) {
    return static_cast<QuicConnection*>(ref->user_data)->conn_;
  };
}

uint64_t QuicConnection::ts() const {
  return executor_->now_ns() + kEpoch;
}

ngtcp2_path QuicConnection::path() {
  ngtcp2_path p{};
  p.local.addr = local_.sa();
  p.local.addrlen = local_.len;
  p.remote.addr = remote_.sa();
  p.remote.addrlen = remote_.len;
  return p;
}

ngtcp2_settings QuicConnection::make_settings() const {
  ngtcp2_settings st;
  ngtcp2_settings_default(&st);
  st.initial_ts = ts();
  st.initial_rtt = settings_.initial_rtt_ns;
  st.handshake_timeout = settings_.handshake_timeout_ns;
  st.rand_ctx.native_handle = &endpoint_->entropy();
  return st;
}

ngtcp2_transport_params QuicConnection::make_params() const {
  ngtcp2_transport_params p;
  ngtcp2_transport_params_default(&p);
  // ngtcp2's defaults are zero: no streams, no data, no idle timeout (pitfall 4).
  p.initial_max_data = settings_.conn_window;
  p.initial_max_stream_data_bidi_local = settings_.stream_window;
  p.initial_max_stream_data_bidi_remote = settings_.stream_window;
  p.initial_max_stream_data_uni = settings_.stream_window;
  p.initial_max_streams_bidi = settings_.max_bidi;
  p.initial_max_streams_uni = settings_.max_uni;
  p.max_idle_timeout = settings_.idle_timeout_ns;
  p.max_ack_delay = settings_.max_ack_delay_ns;
  p.max_datagram_frame_size = settings_.max_datagram_size;
  return p;
}

Status QuicConnection::start_client(std::vector<std::string> alpns, std::shared_ptr<TlsTrust> trust,
                                    const std::string& host) {
  // Until the handshake names the chosen one, alpn() is what was offered (errors quote it).
  alpn_.clear();
  for (const std::string& a : alpns)
    alpn_ += (alpn_.empty() ? "" : "', '") + a;
  trust_ = std::move(trust);
  host_ = host;
  ngtcp2_cid dcid{}, scid{};
  dcid.datalen = scid.datalen = kCidLen;
  endpoint_->entropy().fill(dcid.data, kCidLen);
  endpoint_->entropy().fill(scid.data, kCidLen);
  ngtcp2_path p = path();
  ngtcp2_callbacks cb = make_callbacks(true);
  ngtcp2_settings st = make_settings();
  ngtcp2_transport_params params = make_params();
  int rv = ngtcp2_conn_client_new(&conn_, &dcid, &scid, &p, NGTCP2_PROTO_VER_V1, &cb, &st, &params,
                                  &mem_, this);
  if (rv != 0)
    return Error{transport_error::kQuicError,
                 std::string("starting a QUIC client: ") + ngtcp2_strerror(rv)};
  Result<gnutls_session_t> tls = make_tls_session({false, trust_->credentials(), trust_->verifies(),
                                                   host_.c_str(), std::move(alpns), &conn_ref_});
  if (!tls.ok()) return tls.error();
  tls_ = *tls;
  ngtcp2_conn_set_tls_native_handle(conn_, tls_);
  wake_io();
  return {};
}

Status QuicConnection::start_server(const ngtcp2_pkt_hd& hd, std::shared_ptr<TlsIdentity> identity,
                                    const std::vector<std::string>& alpns) {
  identity_ = std::move(identity);
  ngtcp2_cid scid{};
  scid.datalen = kCidLen;
  endpoint_->entropy().fill(scid.data, kCidLen);
  ngtcp2_path p = path();
  ngtcp2_callbacks cb = make_callbacks(false);
  ngtcp2_settings st = make_settings();
  ngtcp2_transport_params params = make_params();
  params.original_dcid = hd.dcid;  // mandatory for a server in 0.12 (pitfall 5)
  int rv = ngtcp2_conn_server_new(&conn_, &hd.scid, &scid, &p, hd.version, &cb, &st, &params, &mem_,
                                  this);
  if (rv != 0)
    return Error{transport_error::kQuicError,
                 std::string("accepting a QUIC client: ") + ngtcp2_strerror(rv)};
  Result<gnutls_session_t> tls =
      make_tls_session({true, identity_->credentials(), false, "", alpns, &conn_ref_});
  if (!tls.ok()) return tls.error();
  tls_ = *tls;
  ngtcp2_conn_set_tls_native_handle(conn_, tls_);
  return {};
}

std::vector<std::string> QuicConnection::source_ids() const {
  std::vector<std::string> out;
  if (!conn_) return out;
  std::vector<ngtcp2_cid> cids(ngtcp2_conn_get_num_scid(conn_));
  ngtcp2_conn_get_scid(conn_, cids.data());
  for (const ngtcp2_cid& c : cids)
    out.push_back(cid_key(c));
  return out;
}

QuicConnection::~QuicConnection() {
  if (conn_ && !closing_) close(0, "connection dropped");
  release_ngtcp2();
  // Handles the application still holds outlive us; they fail from now on.
  for (std::unique_ptr<detail::QStream>& s : streams_) {
    if (s->handles == 0) continue;
    s->conn = nullptr;
    s->orphan_error = Error{transport_error::kConnectionClosed,
                            "stream used after its QUIC connection was dropped"};
    s->writable.notify_all();
    s->readable.notify_all();
    (void)s.release();  // the last handle's release() deletes it
  }
  if (endpoint_) endpoint_->forget(this);
}

// ---- Receiving ----

void QuicConnection::receive(std::span<const uint8_t> datagram) {
  if (!conn_) return;
  ++wire_.packets_received;
  wire_.udp_bytes_received += datagram.size();
  if (closing_) {
    // Closing period: answer with our CONNECTION_CLOSE again; draining: stay silent.
    if (!close_packet_.empty()) send_packet(close_packet_.data(), close_packet_.size());
    return;
  }
  ngtcp2_path p = path();
  ngtcp2_pkt_info pi{};
  int rv = ngtcp2_conn_read_pkt(conn_, &p, &pi, datagram.data(), datagram.size(), ts());
  if (rv == NGTCP2_ERR_DRAINING) {
    ngtcp2_connection_close_error ccerr;
    ngtcp2_conn_get_connection_close_error(conn_, &ccerr);
    enter_closing(describe_close(ccerr));
    return;
  }
  if (rv == NGTCP2_ERR_DROP_CONN || rv == NGTCP2_ERR_RETRY) {
    enter_closing(Error{transport_error::kQuicError, "QUIC connection dropped by ngtcp2"});
    release_ngtcp2();
    return;
  }
  if (rv != 0) {
    fail(rv, "reading a packet");
    return;
  }
  wake_io();
}

void QuicConnection::on_unreachable() {
  if (!conn_ || closing_ || established_) return;
  enter_closing(Error{transport_error::kUnreachable,
                      "nothing listens at " + remote_.to_string() + " (ICMP port unreachable)"});
  release_ngtcp2();
}

// ---- The I/O task ----

void QuicConnection::wake_io() {
  if (io_) io_->wake();
}

uint64_t QuicConnection::next_timer() const {
  return io_ && io_->timer.armed() ? io_->timer.deadline() : UINT64_MAX;
}

Poll QuicConnection::on_io() {
  if (!conn_) return Poll::Done;
  if (closing_) {
    if (executor_->now_ns() >= closing_until_) {
      release_ngtcp2();
      return Poll::Done;
    }
    io_->timer.arm_at(closing_until_);
    return Poll::Pending;
  }
  const uint64_t now = ts();
  if (ngtcp2_conn_get_expiry(conn_) <= now) {
    int rv = ngtcp2_conn_handle_expiry(conn_, now);
    if (rv == NGTCP2_ERR_IDLE_CLOSE) {
      const double secs = static_cast<double>(settings_.idle_timeout_ns) / 1e9;
      char what[160];
      std::snprintf(what, sizeof what,
                    "the peer at %s went silent: nothing heard for %.1f s (idle timeout)",
                    remote_.to_string().c_str(), secs);
      enter_closing(Error{transport_error::kIdleTimeout, what});
      release_ngtcp2();
      return Poll::Done;
    }
    if (rv == NGTCP2_ERR_HANDSHAKE_TIMEOUT) {
      enter_closing(Error{transport_error::kHandshakeFailed,
                          "no QUIC handshake with " + remote_.to_string() + " within " +
                              std::to_string(settings_.handshake_timeout_ns / 1'000'000) +
                              " ms (is anything listening there?)"});
      release_ngtcp2();
      return Poll::Done;
    }
    if (rv != 0) {
      fail(rv, "handling a timer");
      return Poll::Pending;
    }
  }
  flush();
  if (!conn_) return Poll::Done;
  if (closing_) {
    io_->timer.arm_at(closing_until_);
    return Poll::Pending;
  }
  const uint64_t expiry = ngtcp2_conn_get_expiry(conn_);
  if (expiry == UINT64_MAX) {
    io_->timer.cancel();
  } else {
    io_->timer.arm_at(expiry > kEpoch ? expiry - kEpoch : 0);
  }
  return Poll::Pending;
}

void QuicConnection::send_packet(const uint8_t* data, size_t n) {
  ++wire_.packets_sent;
  wire_.udp_bytes_sent += n;
  if (!endpoint_ || !endpoint_->socket().send_to(remote_, {data, n})) ++wire_.send_failures;
}

// ngtcp2's write loop (quic-backend.md, "Write loop" and pitfall 6): one packet per call, as
// many as the send quantum allows, streams in send order.
void QuicConnection::flush() {
  if (!conn_ || closing_) return;
  const size_t max = std::min(ngtcp2_conn_get_max_tx_udp_payload_size(conn_), packet_.size());
  size_t budget = std::max<size_t>(1, ngtcp2_conn_get_send_quantum(conn_) / max);
  const uint64_t now = ts();
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  ngtcp2_pkt_info pi{};
  if (!write_datagrams(packet_.data(), max, budget)) return;
  while (budget > 0) {
    detail::QStream* s = next_sendable();
    std::array<ngtcp2_vec, 16> vec;
    size_t nvec = 0;
    uint32_t flags = 0;
    int64_t sid = -1;
    if (s) {
      sid = s->id;
      flags = NGTCP2_WRITE_STREAM_FLAG_MORE;
      uint64_t covered = s->handed;
      size_t skip = s->hand_skip;
      for (size_t i = s->hand_index; i < s->unacked.size() && nvec < vec.size(); ++i) {
        const Bytes& b = s->unacked[i];
        vec[nvec].base = const_cast<uint8_t*>(b.data() + skip);
        vec[nvec].len = b.size() - skip;
        covered += vec[nvec].len;
        ++nvec;
        skip = 0;
      }
      if (s->send_state == SendState::Finished && covered == s->written)
        flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
    }
    ngtcp2_ssize consumed = -1;
    ngtcp2_ssize n = ngtcp2_conn_writev_stream(conn_, &ps.path, &pi, packet_.data(), max, &consumed,
                                               flags, sid, vec.data(), nvec, now);
    if (s && consumed >= 0) {
      s->handed += static_cast<uint64_t>(consumed);
      size_t left = static_cast<size_t>(consumed);
      while (left > 0) {
        const size_t in_chunk = s->unacked[s->hand_index].size() - s->hand_skip;
        const size_t step = std::min(left, in_chunk);
        left -= step;
        s->hand_skip += step;
        if (s->hand_skip == s->unacked[s->hand_index].size()) {
          ++s->hand_index;
          s->hand_skip = 0;
        }
      }
      if ((flags & NGTCP2_WRITE_STREAM_FLAG_FIN) && s->handed == s->written) s->fin_handed = true;
    }
    if (n == NGTCP2_ERR_WRITE_MORE) continue;
    if (n == NGTCP2_ERR_STREAM_DATA_BLOCKED) {
      s->data_blocked = true;
      continue;
    }
    if (n == NGTCP2_ERR_STREAM_SHUT_WR) {
      s->shut_wr = true;
      continue;
    }
    if (n < 0) {
      fail(static_cast<int>(n), "writing packets");
      return;
    }
    if (n == 0) break;  // nothing more, or congestion or pacing limited: the expiry says when
    send_packet(packet_.data(), static_cast<size_t>(n));
    --budget;
    if (!conn_ || closing_) return;  // defensive: a send that ended the connection
  }
  ngtcp2_conn_update_pkt_tx_time(conn_, now);
}

// DATAGRAM frames go before stream data; one packet each. False when the connection failed.
bool QuicConnection::write_datagrams(uint8_t* buf, size_t max, size_t& budget) {
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  ngtcp2_pkt_info pi{};
  while (!datagrams_out_.empty() && budget > 0) {
    const Bytes& d = datagrams_out_.front();
    ngtcp2_vec v{const_cast<uint8_t*>(d.data()), d.size()};
    int accepted = 0;
    ngtcp2_ssize n =
        ngtcp2_conn_writev_datagram(conn_, &ps.path, &pi, buf, max, &accepted, 0, 0, &v, 1, ts());
    if (n < 0) {
      fail(static_cast<int>(n), "writing a datagram");
      return false;
    }
    if (accepted) {
      datagrams_out_.pop_front();
      ++stats_.datagrams_sent;
    }
    if (n == 0) return true;  // congestion limited: later
    send_packet(buf, static_cast<size_t>(n));
    --budget;
    if (!accepted) {
      // It did not fit beside what the packet had to carry first: try once more, then drop.
      (void)datagrams_out_.pop_front();
      ++stats_.datagrams_dropped;
    }
  }
  return true;
}

detail::QStream* QuicConnection::next_sendable() {
  const bool conn_credit = ngtcp2_conn_get_max_data_left(conn_) > 0;
  detail::QStream* best = nullptr;
  size_t keep = 0;
  for (size_t i = 0; i < sendable_.size(); ++i) {
    detail::QStream* s = sendable_[i];
    if (!s->has_unsent() || s->shut_wr || s->send_state == SendState::Reset) {
      s->sendable = false;
      continue;
    }
    sendable_[keep++] = s;
    if (s->data_blocked) continue;
    const bool fin_only = s->handed == s->written;
    if (!conn_credit && !fin_only) continue;
    if (!best || s->order > best->order) best = s;
  }
  sendable_.resize(keep);
  return best;
}

void QuicConnection::mark_sendable(detail::QStream& s) {
  if (!s.sendable) {
    s.sendable = true;
    sendable_.push_back(&s);
  }
  wake_io();
}

// ---- Closing ----

void QuicConnection::close(uint64_t code, std::string_view reason) {
  if (closing_ || !conn_) return;
  ngtcp2_connection_close_error ccerr;
  ngtcp2_connection_close_error_default(&ccerr);
  ngtcp2_connection_close_error_set_application_error(
      &ccerr, code, reinterpret_cast<const uint8_t*>(reason.data()), reason.size());
  send_close(ccerr);
  closed_locally_ = true;
  enter_closing(Error{code, std::string(reason)});
}

void QuicConnection::fail(int liberr, const char* during) {
  if (closing_ || !conn_) return;
  ngtcp2_connection_close_error ccerr;
  ngtcp2_connection_close_error_default(&ccerr);
  Error error;
  if (liberr == NGTCP2_ERR_CRYPTO) {
    const uint8_t alert = ngtcp2_conn_get_tls_alert(conn_);
    ngtcp2_connection_close_error_set_transport_error_tls_alert(&ccerr, alert, nullptr, 0);
    std::string why =
        "TLS handshake with " + remote_.to_string() + " failed: " + describe_tls_alert(alert);
    if (client_ && tls_) {
      const unsigned status = gnutls_session_get_verify_cert_status(tls_);
      if (status != 0) {
        certificate_rejected_ = true;
        why += ": the server's certificate was not verified";
        gnutls_datum_t text{};
        if (gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &text, 0) == 0) {
          std::string reason(reinterpret_cast<const char*>(text.data), text.size);
          while (!reason.empty() && reason.back() == ' ')
            reason.pop_back();
          why += " (" + reason + ")";
          gnutls_free(text.data);
        }
      }
    }
    error = Error{transport_error::kHandshakeFailed, why};
  } else {
    ngtcp2_connection_close_error_set_transport_error_liberr(&ccerr, liberr, nullptr, 0);
    error = Error{transport_error::kQuicError,
                  std::string("QUIC error while ") + during + ": " + ngtcp2_strerror(liberr)};
  }
  send_close(ccerr);
  enter_closing(std::move(error));
}

// Sends CONNECTION_CLOSE and keeps it to answer the peer during the closing period.
void QuicConnection::send_close(const ngtcp2_connection_close_error& ccerr) {
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  ngtcp2_pkt_info pi{};
  ngtcp2_ssize n = ngtcp2_conn_write_connection_close(conn_, &ps.path, &pi, packet_.data(),
                                                      packet_.size(), &ccerr, ts());
  if (n > 0) {
    close_packet_.assign(packet_.data(), packet_.data() + n);
    send_packet(close_packet_.data(), close_packet_.size());
  }
}

Error QuicConnection::describe_close(const ngtcp2_connection_close_error& ccerr) const {
  std::string reason(reinterpret_cast<const char*>(ccerr.reason), ccerr.reasonlen);
  if (ccerr.type == NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION) {
    return Error{ccerr.error_code, reason};
  }
  const uint64_t code = ccerr.error_code;
  std::string why;
  if ((code & ~uint64_t{0xff}) == NGTCP2_CRYPTO_ERROR) {
    const uint8_t alert = static_cast<uint8_t>(code & 0xff);
    why = "the peer at " + remote_.to_string() +
          " refused the TLS handshake: " + describe_tls_alert(alert);
    if (alert == 120 && client_) why += " (it accepts none of the ALPNs offered: '" + alpn_ + "')";
    return Error{transport_error::kHandshakeFailed, why};
  }
  why =
      "the peer at " + remote_.to_string() + " closed the connection with QUIC error " + hex(code);
  if (!reason.empty()) why += ": " + reason;
  return Error{transport_error::kQuicError, why};
}

void QuicConnection::enter_closing(Error error) {
  if (closing_) return;
  closing_ = true;
  closing_until_ = executor_->now_ns() + (conn_ ? 3 * ngtcp2_conn_get_pto(conn_) : 0);
  close_error_ = std::move(error);
  end_streams();
  can_open_.notify_all();
  incoming_.notify_all();
  datagrams_.notify_all();
  handshake_.notify_all();
  closed_.notify_all();
  if (endpoint_) {
    endpoint_->log((client_ ? "client " : "server ") + remote_.to_string() + ": closed (" +
                   close_error_->message + ")");
  }
  wake_io();
}

void QuicConnection::release_ngtcp2() {
  if (endpoint_) {
    for (const std::string& id : source_ids())
      endpoint_->unroute(id);
  }
  if (conn_) {
    ngtcp2_conn_del(conn_);
    conn_ = nullptr;
  }
  if (tls_) {
    gnutls_deinit(tls_);
    tls_ = nullptr;
  }
  if (io_) io_->timer.cancel();
  // ngtcp2 reports nothing more: stream objects waiting on it are done.
  for (std::unique_ptr<detail::QStream>& s : streams_) {
    if (s && s->conn == this && s->in_use && !s->ngtcp2_done) {
      s->ngtcp2_done = true;
      if (s->handles == 0) stream_unused(*s);
    }
  }
}

}  // namespace moq::sim::quic
