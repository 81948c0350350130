// ngtcp2's C callbacks: trampolines into the connection (user_data) and its streams
// (stream_user_data), the ready-made crypto ones from ngtcp2_crypto, and the connection's
// handlers of the events that are not about one stream.
#include "sim/quic/callbacks.h"

#include <ngtcp2/ngtcp2_crypto.h>

#include "sim/quic/cid.h"
#include "sim/quic/endpoint.h"
#include "sim/quic/quic_connection.h"

namespace moq::sim::quic {

namespace {

void fill_random(uint8_t* dest, size_t len, const ngtcp2_rand_ctx* ctx) {
  static_cast<Entropy*>(ctx->native_handle)->fill(dest, len);
}

}  // namespace

// ngtcp2's C callbacks, forwarding to the connection.
struct Callbacks {
  static QuicConnection& conn(void* user_data) { return *static_cast<QuicConnection*>(user_data); }
  static detail::QStream* stream(void* stream_user_data) {
    return static_cast<detail::QStream*>(stream_user_data);
  }

  static int handshake_completed(ngtcp2_conn*, void* ud) {
    conn(ud).on_handshake_completed();
    return 0;
  }
  static int stream_open(ngtcp2_conn*, int64_t id, void* ud) { return conn(ud).on_stream_open(id); }
  static int recv_stream_data(ngtcp2_conn*, uint32_t flags, int64_t, uint64_t, const uint8_t* data,
                              size_t n, void* ud, void* sud) {
    conn(ud).on_stream_data(stream(sud), flags, data, n);
    return 0;
  }
  static int acked(ngtcp2_conn*, int64_t, uint64_t offset, uint64_t n, void* ud, void* sud) {
    conn(ud).on_acked(stream(sud), offset, n);
    return 0;
  }
  static int stream_close(ngtcp2_conn*, uint32_t flags, int64_t, uint64_t code, void* ud,
                          void* sud) {
    conn(ud).on_stream_close(stream(sud), flags, code);
    return 0;
  }
  static int stream_reset(ngtcp2_conn*, int64_t, uint64_t, uint64_t code, void* ud, void* sud) {
    conn(ud).on_stream_reset(stream(sud), code);
    return 0;
  }
  static int extend_local_streams(ngtcp2_conn*, uint64_t, void* ud) {
    conn(ud).can_open_.notify_all();
    return 0;
  }
  static int extend_stream_data(ngtcp2_conn*, int64_t, uint64_t, void* ud, void* sud) {
    if (detail::QStream* s = stream(sud)) {
      s->data_blocked = false;
      conn(ud).wake_io();
    }
    return 0;
  }
  static int recv_datagram(ngtcp2_conn*, uint32_t, const uint8_t* data, size_t n, void* ud) {
    conn(ud).on_datagram(data, n);
    return 0;
  }
  static int new_cid(ngtcp2_conn*, ngtcp2_cid* cid, uint8_t* token, size_t len, void* ud) {
    return conn(ud).on_new_cid(cid, token, len);
  }
  static int remove_cid(ngtcp2_conn*, const ngtcp2_cid* cid, void* ud) {
    conn(ud).on_remove_cid(cid);
    return 0;
  }

  static ngtcp2_callbacks make(bool client) {
    ngtcp2_callbacks cb{};
    if (client) {
      cb.client_initial = ngtcp2_crypto_client_initial_cb;
      cb.recv_retry = ngtcp2_crypto_recv_retry_cb;
    } else {
      cb.recv_client_initial = ngtcp2_crypto_recv_client_initial_cb;
    }
    cb.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
    cb.encrypt = ngtcp2_crypto_encrypt_cb;
    cb.decrypt = ngtcp2_crypto_decrypt_cb;
    cb.hp_mask = ngtcp2_crypto_hp_mask_cb;
    cb.update_key = ngtcp2_crypto_update_key_cb;
    cb.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
    cb.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
    cb.get_path_challenge_data = ngtcp2_crypto_get_path_challenge_data_cb;
    cb.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
    cb.rand = fill_random;
    cb.get_new_connection_id = new_cid;
    cb.remove_connection_id = remove_cid;
    cb.handshake_completed = handshake_completed;
    cb.stream_open = stream_open;
    cb.recv_stream_data = recv_stream_data;
    cb.acked_stream_data_offset = acked;
    cb.stream_close = stream_close;
    cb.stream_reset = stream_reset;
    cb.extend_max_local_streams_bidi = extend_local_streams;
    cb.extend_max_local_streams_uni = extend_local_streams;
    cb.extend_max_stream_data = extend_stream_data;
    cb.recv_datagram = recv_datagram;
    return cb;
  }
};

ngtcp2_callbacks make_callbacks(bool client) {
  return Callbacks::make(client);
}

// ---- Callbacks ----

void QuicConnection::on_handshake_completed() {
  established_ = true;
  alpn_ = negotiated_alpn(tls_);
  can_open_.notify_all();
  handshake_.notify_all();
  if (endpoint_) {
    endpoint_->log((client_ ? "client " : "server ") + remote_.to_string() +
                   ": established, ALPN " + alpn_);
    if (!client_) endpoint_->handshake_done(this);
  }
}

void QuicConnection::on_datagram(const uint8_t* data, size_t n) {
  if (datagrams_in_.size() >= settings_.datagram_queue) {
    ++stats_.datagrams_dropped;
    return;
  }
  datagrams_in_.push_back(inbound_.copy({data, n}));
  ++stats_.datagrams_received;
  datagrams_.notify_all();
}

int QuicConnection::on_new_cid(ngtcp2_cid* cid, uint8_t* token, size_t len) {
  cid->datalen = len;
  endpoint_->entropy().fill(cid->data, len);
  endpoint_->entropy().fill(token, NGTCP2_STATELESS_RESET_TOKENLEN);
  endpoint_->route(cid_key(*cid), this);
  return 0;
}

void QuicConnection::on_remove_cid(const ngtcp2_cid* cid) {
  if (endpoint_) endpoint_->unroute(cid_key(*cid));
}

}  // namespace moq::sim::quic
