#include "sim/quic/tls.h"

#include <gnutls/x509.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>

#include <cstring>

namespace moq::sim::quic {
namespace {

Error tls_error(const std::string& what, int rv) {
  return Error{0, what + ": " + gnutls_strerror(rv)};
}

// Frees GnuTLS objects on every exit path of the functions below.
struct X509Parts {
  gnutls_x509_privkey_t key = nullptr;
  gnutls_x509_crt_t crt = nullptr;
  ~X509Parts() {
    if (crt) gnutls_x509_crt_deinit(crt);
    if (key) gnutls_x509_privkey_deinit(key);
  }
};

std::string to_string(const gnutls_datum_t& d) {
  return std::string(reinterpret_cast<const char*>(d.data), d.size);
}

}  // namespace

TlsIdentity::~TlsIdentity() {
  if (cred_) gnutls_certificate_free_credentials(cred_);
}

Result<std::shared_ptr<TlsIdentity>> TlsIdentity::self_signed(const std::string& host) {
  X509Parts p;
  int rv = gnutls_x509_privkey_init(&p.key);
  if (rv == 0) rv = gnutls_x509_privkey_generate(p.key, GNUTLS_PK_EDDSA_ED25519, 0, 0);
  if (rv != 0) return tls_error("generating the Ed25519 key of the self-signed certificate", rv);
  rv = gnutls_x509_crt_init(&p.crt);
  if (rv != 0) return tls_error("making the self-signed certificate", rv);
  // Fixed serial and validity: making the certificate reads no clock, so every run of a
  // simulated world builds the same one.
  const uint8_t serial[] = {0x01, 0x6d, 0x6f, 0x71};
  const time_t not_before = 1577836800;  // 2020-01-01
  const time_t not_after = 2524607999;   // 2049-12-31, the last UTCTime year
  const int rvs[] = {
      gnutls_x509_crt_set_version(p.crt, 3),
      gnutls_x509_crt_set_serial(p.crt, serial, sizeof serial),
      gnutls_x509_crt_set_activation_time(p.crt, not_before),
      gnutls_x509_crt_set_expiration_time(p.crt, not_after),
      gnutls_x509_crt_set_dn_by_oid(p.crt, GNUTLS_OID_X520_COMMON_NAME, 0, host.data(),
                                    static_cast<unsigned>(host.size())),
      gnutls_x509_crt_set_subject_alt_name(p.crt, GNUTLS_SAN_DNSNAME, host.data(),
                                           static_cast<unsigned>(host.size()), GNUTLS_FSAN_SET),
      gnutls_x509_crt_set_key(p.crt, p.key),
      gnutls_x509_crt_set_basic_constraints(p.crt, 0, -1),
      gnutls_x509_crt_set_key_usage(p.crt, GNUTLS_KEY_DIGITAL_SIGNATURE),
      gnutls_x509_crt_set_key_purpose_oid(p.crt, GNUTLS_KP_TLS_WWW_SERVER, 0),
  };
  for (int r : rvs)
    if (r != 0) return tls_error("filling in the self-signed certificate", r);
  if (host == "localhost") {
    const uint8_t loopback[] = {127, 0, 0, 1};
    rv = gnutls_x509_crt_set_subject_alt_name(p.crt, GNUTLS_SAN_IPADDRESS, loopback, 4,
                                              GNUTLS_FSAN_APPEND);
    if (rv != 0) return tls_error("adding 127.0.0.1 to the self-signed certificate", rv);
  }
  rv = gnutls_x509_crt_sign2(p.crt, p.crt, p.key, GNUTLS_DIG_SHA512, 0);
  if (rv != 0) return tls_error("signing the self-signed certificate", rv);

  std::shared_ptr<TlsIdentity> id(new TlsIdentity());
  rv = gnutls_certificate_allocate_credentials(&id->cred_);
  if (rv == 0) rv = gnutls_certificate_set_x509_key(id->cred_, &p.crt, 1, p.key);
  if (rv != 0) return tls_error("installing the self-signed certificate", rv);
  gnutls_datum_t pem{};
  rv = gnutls_x509_crt_export2(p.crt, GNUTLS_X509_FMT_PEM, &pem);
  if (rv != 0) return tls_error("exporting the self-signed certificate", rv);
  id->cert_pem_ = to_string(pem);
  gnutls_free(pem.data);
  return id;
}

Result<std::shared_ptr<TlsIdentity>> TlsIdentity::from_pem_files(const std::string& cert_file,
                                                                 const std::string& key_file) {
  std::shared_ptr<TlsIdentity> id(new TlsIdentity());
  int rv = gnutls_certificate_allocate_credentials(&id->cred_);
  if (rv != 0) return tls_error("allocating TLS credentials", rv);
  rv = gnutls_certificate_set_x509_key_file(id->cred_, cert_file.c_str(), key_file.c_str(),
                                            GNUTLS_X509_FMT_PEM);
  if (rv < 0)
    return tls_error("loading the certificate '" + cert_file + "' and key '" + key_file + "'", rv);
  gnutls_datum_t pem{};
  rv = gnutls_load_file(cert_file.c_str(), &pem);
  if (rv < 0) return tls_error("reading the certificate '" + cert_file + "'", rv);
  id->cert_pem_ = to_string(pem);
  gnutls_free(pem.data);
  return id;
}

TlsTrust::~TlsTrust() {
  if (cred_) gnutls_certificate_free_credentials(cred_);
}

Result<std::shared_ptr<TlsTrust>> TlsTrust::of_pem(const std::string& pem) {
  std::shared_ptr<TlsTrust> t(new TlsTrust());
  int rv = gnutls_certificate_allocate_credentials(&t->cred_);
  if (rv != 0) return tls_error("allocating TLS credentials", rv);
  gnutls_datum_t d{reinterpret_cast<unsigned char*>(const_cast<char*>(pem.data())),
                   static_cast<unsigned>(pem.size())};
  rv = gnutls_certificate_set_x509_trust_mem(t->cred_, &d, GNUTLS_X509_FMT_PEM);
  if (rv <= 0)
    return rv < 0 ? tls_error("reading the trusted certificate", rv)
                  : Error{0, "reading the trusted certificate: no PEM certificate in it"};
  return t;
}

Result<std::shared_ptr<TlsTrust>> TlsTrust::system() {
  std::shared_ptr<TlsTrust> t(new TlsTrust());
  int rv = gnutls_certificate_allocate_credentials(&t->cred_);
  if (rv == 0) rv = gnutls_certificate_set_x509_system_trust(t->cred_);
  if (rv < 0) return tls_error("loading the system's trusted certificates", rv);
  return t;
}

Result<std::shared_ptr<TlsTrust>> TlsTrust::anything() {
  std::shared_ptr<TlsTrust> t(new TlsTrust());
  int rv = gnutls_certificate_allocate_credentials(&t->cred_);
  if (rv != 0) return tls_error("allocating TLS credentials", rv);
  t->verify_ = false;
  return t;
}

Result<gnutls_session_t> make_tls_session(const TlsSessionSetup& setup) {
  gnutls_session_t s = nullptr;
  // QUIC has no EndOfEarlyData message (RFC 9001 §8.3).
  int rv =
      gnutls_init(&s, (setup.server ? GNUTLS_SERVER : GNUTLS_CLIENT) | GNUTLS_NO_END_OF_EARLY_DATA);
  if (rv != 0) return tls_error("starting a TLS session", rv);
  auto fail = [&](const std::string& what, int r) -> Error {
    gnutls_deinit(s);
    return tls_error(what, r);
  };
  // One group and one cipher: every handshake does the same work (the quic-sim world's counts).
  rv = gnutls_priority_set_direct(s,
                                  "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM:"
                                  "-GROUP-ALL:+GROUP-X25519:%DISABLE_TLS13_COMPAT_MODE",
                                  nullptr);
  if (rv != 0) return fail("setting TLS 1.3 priorities", rv);
  rv = gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, setup.credentials);
  if (rv != 0) return fail("setting TLS credentials", rv);
  rv = setup.server ? ngtcp2_crypto_gnutls_configure_server_session(s)
                    : ngtcp2_crypto_gnutls_configure_client_session(s);
  if (rv != 0) return fail("configuring the TLS session for QUIC", GNUTLS_E_INTERNAL_ERROR);
  gnutls_session_set_ptr(s, setup.conn_ref);
  std::vector<gnutls_datum_t> protos;
  for (const std::string& a : setup.alpns)
    protos.push_back({reinterpret_cast<unsigned char*>(const_cast<char*>(a.data())),
                      static_cast<unsigned>(a.size())});
  // No GNUTLS_ALPN_SERVER_PRECEDENCE: a server takes the first of the client's ALPNs it accepts,
  // so a client offering several versions gets the one it prefers (the newest, for the interop
  // runners' clients).
  rv = gnutls_alpn_set_protocols(s, protos.data(), static_cast<unsigned>(protos.size()),
                                 GNUTLS_ALPN_MANDATORY);
  if (rv != 0) return fail("setting the ALPN list", rv);
  if (!setup.server) {
    rv = gnutls_server_name_set(s, GNUTLS_NAME_DNS, setup.host, std::strlen(setup.host));
    if (rv != 0) return fail("setting the server name", rv);
    if (setup.verify_peer) gnutls_session_set_verify_cert(s, setup.host, 0);
  }
  return s;
}

std::string negotiated_alpn(gnutls_session_t session) {
  gnutls_datum_t proto{};
  if (gnutls_alpn_get_selected_protocol(session, &proto) != 0) return "";
  return to_string(proto);
}

std::string describe_tls_alert(uint8_t alert) {
  const char* name = gnutls_alert_get_name(static_cast<gnutls_alert_description_t>(alert));
  return "TLS alert " + std::to_string(alert) + " (" + (name ? name : "unknown") + ")";
}

}  // namespace moq::sim::quic
