// TLS 1.3 for QUIC with GnuTLS: the server's identity (a self-signed certificate made in memory at
// start-up, or PEM files), what a client trusts, and the per-connection GnuTLS session that
// ngtcp2's GnuTLS glue drives.
#pragma once

#include <gnutls/gnutls.h>
#include <ngtcp2/ngtcp2_crypto.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/base/result.h"

namespace moq::sim::quic {

// A certificate and its private key, as server credentials.
class TlsIdentity {
 public:
  // An Ed25519 key and a certificate for host (DNS name and, for "localhost", 127.0.0.1) valid
  // for a day. Ed25519 signatures have a fixed size, so handshakes have fixed packet sizes (the
  // quic-sim world's counts depend on it).
  static Result<std::shared_ptr<TlsIdentity>> self_signed(const std::string& host = "localhost");
  // PEM files, as the interop runners hand them to a relay.
  static Result<std::shared_ptr<TlsIdentity>> from_pem_files(const std::string& cert_file,
                                                             const std::string& key_file);
  ~TlsIdentity();
  TlsIdentity(const TlsIdentity&) = delete;
  TlsIdentity& operator=(const TlsIdentity&) = delete;

  gnutls_certificate_credentials_t credentials() const { return cred_; }
  // The certificate in PEM, for a client that should trust exactly this server.
  const std::string& certificate_pem() const { return cert_pem_; }

 private:
  TlsIdentity() = default;
  gnutls_certificate_credentials_t cred_ = nullptr;
  std::string cert_pem_;
};

// What a client accepts as the server's certificate.
class TlsTrust {
 public:
  // Exactly the certificates in pem (one or more PEM blocks).
  static Result<std::shared_ptr<TlsTrust>> of_pem(const std::string& pem);
  // The system's CA store.
  static Result<std::shared_ptr<TlsTrust>> system();
  // Any certificate (--tls-disable-verify): the handshake still authenticates the key exchange.
  static Result<std::shared_ptr<TlsTrust>> anything();
  ~TlsTrust();
  TlsTrust(const TlsTrust&) = delete;
  TlsTrust& operator=(const TlsTrust&) = delete;

  gnutls_certificate_credentials_t credentials() const { return cred_; }
  bool verifies() const { return verify_; }

 private:
  TlsTrust() = default;
  gnutls_certificate_credentials_t cred_ = nullptr;
  bool verify_ = true;
};

// A GnuTLS session set up for QUIC: TLS 1.3 only without middlebox compatibility (RFC 9001
// §8.4), the mandatory ALPN list, and conn_ref, through which ngtcp2's glue finds the
// connection. The session is ready to be handed to ngtcp2_conn_set_tls_native_handle.
struct TlsSessionSetup {
  bool server = false;
  gnutls_certificate_credentials_t credentials = nullptr;
  bool verify_peer = true;  // client: check the server's certificate against host
  // Client: SNI and the name the certificate must carry. GnuTLS keeps the pointer: it must live
  // as long as the session.
  const char* host = "localhost";
  std::vector<std::string> alpns;  // client: those it offers, preferred first; server: accepted
  ngtcp2_crypto_conn_ref* conn_ref = nullptr;
};
Result<gnutls_session_t> make_tls_session(const TlsSessionSetup& setup);

// The negotiated ALPN of a finished handshake ("" when none).
std::string negotiated_alpn(gnutls_session_t session);
// "alert 120 (No supported application protocol could be negotiated)"-style text for a TLS alert.
std::string describe_tls_alert(uint8_t alert);

}  // namespace moq::sim::quic
