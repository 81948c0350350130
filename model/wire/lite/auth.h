// The Auth stream (bidi 0x7, -07 only: has_auth(), change 8.1.5 in model/wire/lite/README.md).
// Either side opens it and sends AUTH; the acceptor replies with typed messages, each Type (i) +
// Length (i) + Body: 0x0 AUTH_OK, 0x1 AUTH_ERROR (after which it closes the stream). On -06 every
// decoder here is Malformed ("not defined on moq-lite-06") and every encoder refuses.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// AUTH { Length, Token (b) }: an empty token means "the credential the connection carried".
struct Auth {
  static constexpr const char* kName = "AUTH";

  std::vector<uint8_t> token;

  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<Auth> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const Auth&) const = default;
};

// Type 0x0 AUTH_OK { Publish Count (i), Pattern (s) x Count, Subscribe Count (i),
//                    Pattern (s) x Count, Expires (i, ms, 0 = never) }
// Patterns are canonical text ("*" one segment, "**" any number, "" the root only); their
// grammar is the session's check, the codec checks UTF-8 only.
struct AuthOk {
  static constexpr const char* kName = "AUTH_OK";
  static constexpr uint64_t kType = 0x0;

  std::vector<std::string> publish;
  std::vector<std::string> subscribe;
  uint64_t expires_ms = 0;

  // Writes Type, Length and Body.
  Status encode(Writer& w, LiteVersion v) const;
  bool operator==(const AuthOk&) const = default;
};

// Type 0x1 AUTH_ERROR { Code (i, session code registry), Reason (s, at most 8192 bytes) }
struct AuthError {
  static constexpr const char* kName = "AUTH_ERROR";
  static constexpr uint64_t kType = 0x1;

  uint64_t code = 0;
  std::string reason;

  Status encode(Writer& w, LiteVersion v) const;
  bool operator==(const AuthError&) const = default;
};

using AuthReply = std::variant<AuthOk, AuthError>;

Decoded<AuthReply> decode_auth_reply(std::span<const uint8_t> in, LiteVersion v);
Status encode_auth_reply(const AuthReply& reply, Writer& w, LiteVersion v);

}  // namespace moq::wire::lite
